import Foundation
import Testing
import VRenderCore
import VRenderFilters
import VRenderTestSupport
import VRenderVulkan
@testable import VRenderExport

/// True when a Vulkan device exists (lavapipe at least; `make test` installs it). These tests
/// skip only on a machine with no Vulkan driver at all.
private let hasVulkan = !VulkanDevices.list().isEmpty

/// The same export on the GPU and on the CPU, losslessly encoded, must decode to the same frames.
@Suite(.enabled(if: hasVulkan, "needs a Vulkan device (mesa-vulkan-drivers provides lavapipe)"))
struct GPUExportTests {
    let directory = TestMedia.scratchDirectory()

    private func export(_ filter: String, gpu: FilterBackendChoice) throws -> (ExportSummary, String) {
        let output = directory + "/\(filter.replacingOccurrences(of: ",", with: "+"))-\(gpu.rawValue).mkv"
        let options = ExportOptions(inputs: [TestMedia.path("small_a.mov"), TestMedia.path("hevc_640x480_25_aac44k_mono.mp4")],
                                    output: output, filter: try FilterRegistry.chain(filter), codec: .encode(.ffv1), gpu: gpu)
        return (try Exporter(options: options).export(), output)
    }

    /// Decoded frames' checksums, one line per frame (ffmpeg's framemd5 of the video stream).
    private func frameChecksums(_ file: String) -> [Substring] {
        ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
            .standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    @Test(arguments: FilterRegistry.names.filter { $0 != "none" } + ["fade,mono", "sepia=strength=40,chrome"])
    func vulkanAndCPUGiveIdenticalFrames(filter: String) throws {
        let (gpu, gpuFile) = try export(filter, gpu: .vulkan)
        let (cpu, cpuFile) = try export(filter, gpu: .cpu)
        #expect(gpu.filterBackend?.hasPrefix("vulkan: ") == true)
        #expect(cpu.filterBackend == "cpu")
        let gpuFrames = frameChecksums(gpuFile)
        #expect(gpuFrames.count == 90)   // 1 s + 2 s at the first take's 30 fps
        #expect(gpuFrames == frameChecksums(cpuFile))
    }
}
