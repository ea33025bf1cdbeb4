import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderStudio

@Suite(.serialized) struct MediaStudioExportTests {
    private func names(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    @Test func exportsTheTakesInOrderWithTheFilterAndReportsProgress() throws {
        let takes = try MediaTakes.copy()
        let exports = takes + "/exports"
        let log = EventLog<StudioState.ExportInfo>()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let export = try StudioExport(takesFolder: takes, exportsFolder: exports, filter: "mono", gpu: .cpu, now: now,
                                      onUpdate: log.add)
        let stem = "export-" + Self.stamp(now)
        #expect(export.output == exports + "/" + stem + ".mp4")
        #expect(export.url == "/media/exports/" + stem + ".mp4")
        export.start()
        let last = try #require(export.wait())
        #expect(last.state == .done, "\(last.message ?? "")")
        #expect(last.fraction == 1 && last.output == export.output && last.url == export.url && last.filter == "mono")
        let fractions = log.all.map(\.fraction)
        #expect(fractions.first == 0 && fractions.last == 1)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "progress only rises: \(fractions)")
        #expect(log.all.dropLast().allSatisfy { $0.state == .running && $0.output == nil })

        let info = try Probe.probe(export.output)
        #expect(info.video.codecName == "h264")
        let frames = MediaTakes.manifest.takes.reduce(0) { $0 + $1.frames }
        #expect(Int(ProgramRun.ffprobe(export.output, stream: "v:0", entries: "stream=nb_read_frames", countFrames: true)) == frames)
        // Mono: the middle frame has no colour left.
        let chroma = try FrameGrabber.frame(in: export.output, atSeconds: 1) { frame, _, _ in
            frame.yuvImage().cb.row(frame.yuvImage().cb.height / 2)[frame.yuvImage().cb.width / 2]
        }
        #expect(abs(Int(chroma) - 128) <= 2)
        #expect(names(in: exports) == [stem + ".mp4"])

        // A second export in the same second gets a name of its own.
        let second = try StudioExport(takesFolder: takes, exportsFolder: exports, filter: "", now: now)
        #expect(second.output == exports + "/" + stem + "-2.mp4")
    }

    @Test func cancelLeavesNoFile() throws {
        let takes = try MediaTakes.copy()
        let exports = takes + "/exports"
        let holder = ExportHolder()
        // Cancelled as it starts, from its own first report: deterministic, whatever the machine's speed.
        let export = try StudioExport(takesFolder: takes, exportsFolder: exports, filter: "noir", gpu: .cpu) { info in
            if info.state == .running { holder.export?.cancel() }
        }
        holder.export = export
        export.start()
        let last = try #require(export.wait())
        #expect(last.state == .cancelled)
        #expect(last.output == nil && last.url == nil)
        #expect(names(in: exports).isEmpty)
    }

    @Test func badFilterAndHostileExportsFolderAreRefused() throws {
        let takes = try MediaTakes.copy()
        let filter = #expect(throws: VRenderError.self) {
            try StudioExport(takesFolder: takes, exportsFolder: takes + "/exports", filter: "sparkle")
        }
        #expect(filter?.description.contains("sparkle") == true)
        #expect(names(in: takes).contains("exports") == false, "nothing made for a refused export")

        let elsewhere = TestMedia.scratchDirectory()
        try FileManager.default.createSymbolicLink(atPath: takes + "/exports", withDestinationPath: elsewhere)
        let link = #expect(throws: VRenderError.self) {
            try StudioExport(takesFolder: takes, exportsFolder: takes + "/exports", filter: "")
        }
        #expect(link?.kind == .output && link?.reason.contains("symbolic link") == true)
        #expect(names(in: elsewhere).isEmpty)
    }

    /// The exports folder checked and opened, then swapped for a link to someone's folder: the
    /// export is written into the folder that was opened, nothing into theirs.
    @Test func anExportsFolderSwappedForALinkIsNeverWrittenThrough() throws {
        let takes = try MediaTakes.copy()
        let exports = takes + "/exports"
        let elsewhere = TestMedia.scratchDirectory()
        let export = try StudioExport(takesFolder: takes, exportsFolder: exports, filter: "", gpu: .cpu)
        try FileManager.default.moveItem(atPath: exports, toPath: exports + ".moved")
        try FileManager.default.createSymbolicLink(atPath: exports, withDestinationPath: elsewhere)
        export.start()
        let last = try #require(export.wait())
        #expect(last.state == .done, "\(last.message ?? "")")
        #expect(names(in: elsewhere).isEmpty, "nothing written outside")
        #expect(names(in: exports + ".moved") == [(export.output as NSString).lastPathComponent])
    }

    /// Takes replaced after they were listed: a FIFO fails the export at once, named as what it
    /// is (never opened by name, where FFmpeg would wait for a writer), and so does a link, even
    /// to a take of the same folder (which the export used to read through).
    @Test func aTakeReplacedByAFIFOOrALinkFailsTheExportNamingIt() throws {
        let takes = try MediaTakes.copy()
        let files = MediaTakes.files
        let exports = takes + "/exports"
        let fifo = try PlantedFIFO(at: takes + "/" + files[1])
        defer { fifo.done() }
        let export = try StudioExport(takesFolder: takes, exportsFolder: exports, filter: "", gpu: .cpu)
        export.start()
        let last = try #require(export.wait())
        #expect(last.state == .failed)
        #expect(last.message == "\(fifo.path): is a FIFO, not a regular file (listed in takes.json, entry 2)")
        #expect(names(in: exports).isEmpty)

        let other = try MediaTakes.copy()
        try FileManager.default.removeItem(atPath: other + "/" + files[1])
        try FileManager.default.createSymbolicLink(atPath: other + "/" + files[1], withDestinationPath: other + "/" + files[0])
        let linked = try StudioExport(takesFolder: other, exportsFolder: other + "/exports", filter: "", gpu: .cpu)
        linked.start()
        #expect(linked.wait()?.message?.contains("\(other)/\(files[1]): is a symbolic link") == true)
    }

    /// The luma plane of `path`'s frame at `seconds`, rows of samples.
    private func luma(_ path: String, at seconds: Double) throws -> [[UInt8]] {
        try FrameGrabber.frame(in: path, atSeconds: seconds) { frame, _, _ in
            let plane = frame.yuvImage().luma
            return (0..<plane.height).map { Array(UnsafeBufferPointer(start: plane.row($0), count: plane.width)) }
        }
    }

    /// Mean absolute luma difference of two pictures inside `rect`.
    private func difference(_ a: [[UInt8]], _ b: [[UInt8]], in rect: PixelRect) -> Double {
        var total = 0
        for y in rect.y..<rect.y + rect.height {
            for x in rect.x..<rect.x + rect.width { total += abs(Int(a[y][x]) - Int(b[y][x])) }
        }
        return Double(total) / Double(rect.width * rect.height)
    }

    @Test func thePrompterIsBurntInWhereTheBoxWasLeft() throws {
        let takes = try MediaTakes.copy()
        let exports = takes + "/exports"
        let plain = try StudioExport(takesFolder: takes, exportsFolder: exports, filter: "", gpu: .cpu)
        plain.start()
        #expect(plain.wait()?.state == .done)
        // The box in the lower right quarter of the picture, as the page left it.
        let prompter = StudioExport.Prompter(scriptName: "script.txt", text: String(repeating: "Hello studio. ", count: 200),
                                             box: [0.5, 0.5, 0.5, 0.5])
        let burnt = try StudioExport(takesFolder: takes, exportsFolder: exports, filter: "", prompter: prompter, gpu: .cpu)
        burnt.start()
        let last = try #require(burnt.wait())
        #expect(last.state == .done, "\(last.message ?? "")")
        let (width, height) = MediaTakes.size
        let without = try luma(plain.output, at: 0.5), with = try luma(burnt.output, at: 0.5)
        let inside = PixelRect(x: width / 2 + 8, y: height / 2 + 8, width: width / 2 - 16, height: height / 2 - 16)
        let outside = PixelRect(x: 8, y: 8, width: width / 2 - 16, height: height / 2 - 16)
        #expect(difference(without, with, in: inside) > 10, "the prompter is drawn in its box")
        #expect(difference(without, with, in: outside) < 3, "and nowhere else")
    }

    @Test func prompterBoxFractionsBecomeCanvasPixels() {
        let box = StudioExport.box(fractions: [0.25, 0.5, 0.5, 0.25], width: 1280, height: 720)
        #expect(box == PixelRect(x: 320, y: 360, width: 640, height: 180))
        #expect(StudioExport.box(fractions: [0.1, 0.1, 0.3], width: 1280, height: 720) == nil)
        #expect(StudioExport.box(fractions: [-1, 0, 2, .nan], width: 100, height: 100) == nil)
        #expect(StudioExport.box(fractions: [-1, 0, 2, 1], width: 100, height: 100) == PixelRect(x: 0, y: 0, width: 100, height: 100))
    }

    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}

/// Lets the update callback reach the export it was given to (set right after it is made).
final class ExportHolder: @unchecked Sendable {
    // @unchecked: set once before `start`, only read afterwards.
    var export: StudioExport?
}
