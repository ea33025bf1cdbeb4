import ArgumentParser
import Foundation
import VRenderCapture
import VRenderVulkan
import VRenderWorkerCommands

extension VRender {
    /// `vrender devices`: what can be captured from.
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List V4L2 cameras (name, driver, formats, sizes, frame rates), the synthetic camera, "
                + "audio sources (PulseAudio, ALSA, synthetic) and Vulkan devices.")

        @Option(help: ArgumentHelp("Folder to look for video nodes in.", valueName: "dir"))
        var dev = "/dev"

        @Flag(help: "Print the list as JSON.")
        var json = false

        struct Listing: Encodable {
            var v4l2: [V4L2DeviceInfo]
            var synthetic: SyntheticDescription
            var audio: AudioListing
            var vulkan: [VulkanDeviceInfo]
        }

        struct SyntheticDescription: Encodable {
            var device = "synthetic[:seed=N]"
            var summary = SyntheticCamera.summary
        }

        func run() throws {
            let cameras = V4L2Discovery.devices(in: dev)
            let gpus = VulkanDevices.list()
            let audio = AudioDevices.list()
            if json {
                try JSONOutput.print(Listing(v4l2: cameras, synthetic: SyntheticDescription(), audio: audio, vulkan: gpus))
                return
            }
            print("V4L2 cameras:")
            if cameras.isEmpty { print("  none found in \(dev)") }
            for camera in cameras {
                print("  \(camera.path)  \(camera.card)  (driver \(camera.driver), \(camera.busInfo))")
                for format in camera.formats {
                    print("    \(format)")
                }
                if !camera.controls.isEmpty { print("    controls: \(camera.controls.joined(separator: ", "))") }
            }
            print("synthetic camera:")
            print("  synthetic[:seed=N]  \(SyntheticCamera.summary)")
            printAudio(audio)
            print("Vulkan devices (filters, --gpu):")
            if gpus.isEmpty { print("  none: the Vulkan loader found no driver (filters run on the CPU)") }
            for gpu in gpus {
                print("  \(gpu)\(gpu.isSoftware ? "  software: used by --gpu vulkan, not by --gpu auto" : "")")
            }
        }

        private func printAudio(_ audio: AudioListing) {
            print("audio sources (--audio):")
            if let reason = audio.pulse.unavailable {
                print("  PulseAudio: none: \(reason)")
            } else {
                print("  pulse:default  the PulseAudio server's default source")
                for source in audio.pulse.sources { print("  \(source.summary)") }
            }
            print("  alsa:default  ALSA's default capture device")
            for line in ALSADevices.listingLines(audio.alsa) { print(line) }
            print("  \(audio.synthetic.device)  \(audio.synthetic.summary)")
        }
    }
}
