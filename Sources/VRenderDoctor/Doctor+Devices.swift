import Foundation
import VRenderCapture
import VRenderVulkan

extension Doctor {
    /// Every Vulkan device: hardware ones run `--gpu auto`'s filters, software ones (lavapipe)
    /// only `--gpu vulkan`. None is fine: the CPU gives the same bytes.
    static func vulkan() -> [DoctorFinding] {
        let devices = VulkanDevices.list()
        guard !devices.isEmpty else {
            return [DoctorFinding(area: "Vulkan", name: "no device", status: .none,
                                  detail: "filters run on the CPU (the same output, byte for byte)",
                                  fix: "for GPU filters install your GPU's Vulkan driver (mesa-vulkan-drivers for lavapipe)")]
        }
        return devices.map { device in
            let use = device.isSoftware ? "software (runs on the CPU): used by --gpu vulkan, not by --gpu auto"
                : "hardware: --gpu auto runs filters on it"
            return DoctorFinding(area: "Vulkan", name: device.name, status: .ok,
                                 detail: "\(device.type), Vulkan \(device.apiVersion): \(use)")
        }
    }

    /// Every V4L2 capture node in `folder`, or why none can be recorded from.
    static func cameras(in folder: String) -> [DoctorFinding] {
        let cameras = V4L2Discovery.devices(in: folder)
        guard !cameras.isEmpty else {
            return [DoctorFinding(area: "V4L2", name: "no camera", status: .none,
                                  detail: "no V4L2 capture device in \(folder): --device synthetic records without one",
                                  fix: "plug in a webcam or capture card")]
        }
        return cameras.map { camera in
            if let problem = camera.problem {
                return DoctorFinding(area: "V4L2", name: camera.path, status: .problem, detail: problem,
                                     fix: "check it is not in use, and that you are in the video group (sudo usermod -aG video $USER, then log in again)")
            }
            guard let largest = camera.formats.max(by: { $0.width * $0.height < $1.width * $1.height }) else {
                return DoctorFinding(area: "V4L2", name: camera.path, status: .problem,
                                     detail: "\(camera.card) (\(camera.driver)) offers no format vrender reads (YUYV, NV12, YUV420, MJPEG)")
            }
            let formats = Set(camera.formats.map(\.pixelFormat.rawValue)).sorted().joined(separator: ", ")
            return DoctorFinding(area: "V4L2", name: camera.path, status: .ok,
                                 detail: "\(camera.card) (\(camera.driver)): \(formats), up to \(largest.width)x\(largest.height)")
        }
    }

    /// The sound servers and cards a take's sound can come from (`capture --audio`).
    static func audio() -> [DoctorFinding] {
        let listing = AudioDevices.list()
        var findings: [DoctorFinding] = []
        if let reason = listing.pulse.unavailable {
            findings.append(DoctorFinding(area: "audio", name: "PulseAudio", status: .none, detail: reason,
                                          fix: "start PulseAudio or PipeWire (pipewire-pulse) for --audio pulse"))
        } else {
            findings.append(DoctorFinding(area: "audio", name: "PulseAudio", status: .ok,
                                          detail: "\(listing.pulse.sources.count) source(s): --audio pulse"))
        }
        findings.append(listing.alsa.isEmpty
            ? DoctorFinding(area: "audio", name: "ALSA", status: .none, detail: "no capture device (no sound card, or no permission)",
                            fix: "plug in a microphone, or join the audio group")
            : DoctorFinding(area: "audio", name: "ALSA", status: .ok,
                            detail: "\(listing.alsa.count) capture device(s): --audio alsa:hw:N,D"))
        return findings
    }

    /// Free space where takes go (the folder, or the nearest folder above it that exists).
    static func disk(at takes: String) -> DoctorFinding {
        var folder = URL(fileURLWithPath: takes).standardizedFileURL.path
        while !FileManager.default.fileExists(atPath: folder), folder != "/" {
            folder = (folder as NSString).deletingLastPathComponent
        }
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: folder),
              let free = (attributes[.systemFreeSize] as? NSNumber)?.int64Value else {
            return DoctorFinding(area: "disk", name: folder, status: .problem, detail: "cannot read the free space",
                                 fix: "check that the folder can be read")
        }
        let gigabytes = Double(free) / 1e9
        let text = String(format: "%.1f GB free", gigabytes)
        guard gigabytes >= lowSpaceGigabytes else {
            return DoctorFinding(area: "disk", name: folder, status: .problem,
                                 detail: "\(text): takes and exports may not fit", fix: "free some space, or record elsewhere (--out)")
        }
        return DoctorFinding(area: "disk", name: folder, status: .ok, detail: "\(text) where takes go")
    }

    /// Below this, a few minutes of 1080p takes and their export may not fit.
    static let lowSpaceGigabytes = 2.0
}
