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
        #expect(last.state == "done", "\(last.message ?? "")")
        #expect(last.fraction == 1 && last.output == export.output && last.url == export.url && last.filter == "mono")
        let fractions = log.all.map(\.fraction)
        #expect(fractions.first == 0 && fractions.last == 1)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "progress only rises: \(fractions)")
        #expect(log.all.dropLast().allSatisfy { $0.state == "running" && $0.output == nil })

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
            if info.state == "running" { holder.export?.cancel() }
        }
        holder.export = export
        export.start()
        let last = try #require(export.wait())
        #expect(last.state == "cancelled")
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
