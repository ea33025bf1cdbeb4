import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// Saving `takes.json`: the file is replaced whole, and a save that fails leaves nothing behind.
@Suite struct TakesManifestTests {
    private func entry(_ file: String) -> TakeEntry {
        TakeEntry(file: file, thumbnail: nil, created: "2026-01-01T00:00:00Z", frames: 30, dropped: 0, duration: 1,
                  fps: "30", width: 64, height: 48, codec: "h264", device: "synthetic", preroll: 0, timeline: [], latency: nil)
    }

    @Test func savedManifestLoadsBackAndIsTheOnlyFile() throws {
        let directory = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TakesManifest(takes: [entry("a.mov")]).save(to: directory)
        let manifest = TakesManifest(takes: [entry("a.mov"), entry("b.mov")])
        try manifest.save(to: directory)
        #expect(try TakesManifest.load(from: directory) == manifest)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [TakesManifest.fileName])
    }

    @Test func failedSaveLeavesNoTemporaryFileAndNamesTheManifest() throws {
        let directory = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A non-empty directory named takes.json: writing works, moving it into place cannot.
        let path = directory + "/" + TakesManifest.fileName
        try FileManager.default.createDirectory(atPath: path + "/keep", withIntermediateDirectories: true)
        var thrown: VRenderError?
        do {
            try TakesManifest(takes: [entry("a.mov")]).save(to: directory)
        } catch {
            thrown = error as? VRenderError
        }
        #expect(thrown?.kind == .output)
        #expect(thrown?.subject == path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [TakesManifest.fileName])
    }
}

/// The tags a take's file carries for `takes recover`.
@Suite struct TakeFileTagsTests {
    @Test func theCommentCarriesRateEncoderAndADeviceNameWithAnything() {
        let tags = TakeFileTags.tags(device: "USB cam; front=1", frameRate: Rational(30000, 1001), encoder: "libx265",
                                     created: Date(timeIntervalSince1970: 0))
        let comment = tags["comment"]
        #expect(comment == "vrender take; fps=30000/1001; encoder=libx265; device=USB cam; front=1")
        #expect(TakeFileTags.field("fps", inComment: comment) == "30000/1001")
        #expect(TakeFileTags.field("encoder", inComment: comment) == "libx265")
        #expect(TakeFileTags.field("device", inComment: comment) == "USB cam; front=1")
        #expect(TakeFileTags.field("fps", inComment: "someone else's comment") == nil)
        #expect(tags["creation_time"] == "1970-01-01T00:00:00.000Z")
    }
}
