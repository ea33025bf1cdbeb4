import Foundation
import Testing
import VRenderCore
import VRenderFilters
import VRenderPrompter
import VRenderRecording
import VRenderTakes
import VRenderTestSupport
import VRenderVulkan
@testable import VRenderExport

private let hasVulkan = !VulkanDevices.list().isEmpty

/// `--prompter-overlay`: the script drawn into every frame after the filter, scrolling with each
/// take's recording time, judged on lossless exports decoded by ffmpeg.
struct PrompterExportTests {
    let directory = TestMedia.scratchDirectory()
    static let script = """
        Olá! Hoje vamos gravar a próxima cena com calma: atenção à iluminação, à posição da câmera \
        e ao coração da história. Não há pressa; cada take começa onde o último parou, e o texto \
        continua rolando até o fim do roteiro, linha após linha, sem perder o ritmo.
        """
    /// 320x240 at 30 fps: 1 s, then 2 s (90 frames).
    let inputs = [TestMedia.path("small_a.mov"), TestMedia.path("hevc_640x480_25_aac44k_mono.mp4")]

    private func export(_ name: String, inputs: [String]? = nil, filter: String = "none", gpu: FilterBackendChoice = .cpu,
                        prompter: PrompterSettings? = PrompterSettings(speed: 60, fontSize: 18, ending: .pause),
                        box: PixelRect? = nil) throws -> (ExportSummary, String) {
        var options = ExportOptions(inputs: inputs ?? self.inputs, output: directory + "/\(name).mkv",
                                    filter: try FilterRegistry.chain(filter), codec: .encode(.ffv1), gpu: gpu)
        options.prompter = prompter.map { PrompterOverlayRequest(script: PrompterScript(name: "script.txt", text: Self.script), settings: $0, box: box) }
        return (try Exporter(options: options).export(), options.output)
    }

    /// The decoded frames as 8-bit 4:2:0 planes, one Data per frame.
    private func rawFrames(_ file: String, width: Int = 320, height: Int = 240) throws -> [Data] {
        let raw = file + ".yuv"
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", file, "-map", "0:v", "-fps_mode", "passthrough", "-f", "rawvideo",
                                                     "-pix_fmt", "yuv420p", raw])
        #expect(run.status == 0, "\(run.standardError)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let size = width * height * 3 / 2
        return stride(from: 0, to: data.count, by: size).map { data.subdata(in: $0..<Swift.min(data.count, $0 + size)) }
    }

    /// Luma rows `rows` × columns `columns` of a raw 4:2:0 frame.
    private func luma(_ frame: Data, width: Int = 320, rows: Range<Int>, columns: Range<Int>) -> [UInt8] {
        rows.flatMap { y in columns.map { x in frame[y * width + x] } }
    }

    @Test func everyFrameIsDrawnOnInsideTheBoxOnlyAndTheTextScrolls() throws {
        let (summary, prompted) = try export("prompted")
        let (_, plain) = try export("plain", prompter: nil)
        #expect(summary.frames == 90)
        #expect(summary.reason.contains("prompter") || summary.mode == "transcode")
        let box = PrompterGeometry(pictureWidth: 320, pictureHeight: 240).box
        let viewport = PrompterGeometry(pictureWidth: 320, pictureHeight: 240).viewport
        let withText = try rawFrames(prompted), without = try rawFrames(plain)
        #expect(withText.count == 90 && without.count == 90)
        for index in 0..<90 {
            let inside = luma(withText[index], rows: box.y..<(box.y + box.height), columns: box.x..<(box.x + box.width))
            let before = luma(without[index], rows: box.y..<(box.y + box.height), columns: box.x..<(box.x + box.width))
            #expect(inside != before, "frame \(index): nothing drawn")
            // Rows above and below the box are the filter's output, untouched.
            let above = luma(withText[index], rows: 0..<box.y, columns: 0..<320)
            let below = luma(withText[index], rows: (box.y + box.height)..<240, columns: 0..<320)
            #expect(above == luma(without[index], rows: 0..<box.y, columns: 0..<320), "frame \(index): above the box")
            #expect(below == luma(without[index], rows: (box.y + box.height)..<240, columns: 0..<320), "frame \(index): below")
        }
        // At 60 points a second the text moves every frame; a second apart it shows other lines.
        func text(_ index: Int) -> [UInt8] {
            luma(withText[index], rows: viewport.y..<(viewport.y + viewport.height), columns: viewport.x..<(viewport.x + viewport.width))
        }
        #expect(text(0) != text(1) && text(40) != text(41) && text(0) != text(30))
        // Resumed across takes: the second take's first frame is not the first take's first.
        #expect(text(30) != text(0))
    }

    @Test(.enabled(if: hasVulkan, "needs a Vulkan device (mesa-vulkan-drivers provides lavapipe)"))
    func theOverlayGivesTheSameBytesWhicheverBackendFiltered() throws {
        let (gpu, gpuFile) = try export("gpu", filter: "mono", gpu: .vulkan)
        let (cpu, cpuFile) = try export("cpu", filter: "mono", gpu: .cpu)
        #expect(gpu.filterBackend?.hasPrefix("vulkan: ") == true && cpu.filterBackend == "cpu")
        let gpuFrames = try rawFrames(gpuFile), cpuFrames = try rawFrames(cpuFile)
        #expect(gpuFrames.count == 90)
        #expect(gpuFrames == cpuFrames)
    }

    @Test func aTakeRecordedWithTheScrollHeldStaysStill() throws {
        // A takes folder whose one take was recorded with the prompter held all along.
        let folder = directory + "/takes"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A still grey picture, so that only the prompter can change a frame.
        let still = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=gray:s=320x240:r=30:d=1",
                                                       "-c:v", "ffv1", folder + "/segment_0001_A.mkv"])
        #expect(still.status == 0, "\(still.standardError)")
        let held = PrompterScroll.Anchor(time: 0, offset: 30, speed: 24, running: false, fontSize: 18)
        let record = PrompterTakeRecord(script: "script.txt", startOffset: 30, endOffset: 30, speed: 24, fontSize: 18,
                                        ending: .pause, anchors: [held])
        let prompter = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        let json = """
            {"takes": [{"file": "segment_0001_A.mkv", "created": "2026-11-23T00:00:00Z", "frames": 30, "dropped": 0,
              "duration": 1, "fps": "30", "width": 320, "height": 240, "codec": "h264", "device": "test",
              "preroll": 0, "timeline": [], "prompter": \(prompter)}]}
            """
        try json.write(toFile: folder + "/takes.json", atomically: true, encoding: .utf8)
        #expect(try TakesManifest.load(from: folder).takes.first?.prompter == record)
        let (summary, file) = try export("held", inputs: [folder])
        #expect(summary.notices.contains { $0.contains("1 of 1 take(s) replay the scroll recorded in takes.json") })
        let frames = try rawFrames(file)
        #expect(frames.count == 30)
        #expect(Set(frames).count == 1, "the held scroll moved")
        // The same take without its record scrolls with the export's settings.
        try FileManager.default.removeItem(atPath: folder + "/takes.json")
        let (_, moving) = try export("moving", inputs: [folder + "/segment_0001_A.mkv"])
        #expect(Set(try rawFrames(moving)).count > 20, "an unrecorded take scrolls")
    }

    @Test func aRotatedTakeIsTurnedUprightSoTheTextIsUpright() throws {
        let (summary, file) = try export("portrait", inputs: [TestMedia.path("portrait_rot90.mov")])
        #expect(summary.rotation == 0)
        #expect(summary.notices.contains { $0.contains("the prompter and captions are drawn upright") })
        #expect(ProgramRun.ffprobe(file, stream: "v:0", entries: "stream_side_data=rotation").isEmpty)
        #expect(summary.height > summary.width)
    }

    @Test func streamCopyCannotDrawTheOverlay() throws {
        var options = ExportOptions(inputs: [TestMedia.path("small_a.mov")], output: directory + "/copy.mov", codec: .copy)
        options.prompter = PrompterOverlayRequest(script: PrompterScript(name: "s.txt", text: "Olá"), settings: PrompterSettings())
        #expect(throws: VRenderError.self) { try Exporter(options: options).export() }
        do { _ = try Exporter(options: options).export() } catch {
            #expect("\(error)".contains("--prompter-overlay"))
        }
    }

    @Test func aBoxThatDoesNotFitIsMovedWithANotice() throws {
        let (summary, _) = try export("box", inputs: [TestMedia.path("small_a.mov")], box: PixelRect(x: 300, y: 200, width: 10, height: 10))
        #expect(summary.notices.contains { $0.contains("--prompter-box 300,200,10,10 is smaller than the minimum") })
    }
}
