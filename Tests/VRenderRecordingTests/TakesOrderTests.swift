import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderTakes

/// `takes order`, `takes mv`, what `takes rm` removes with a take, and the note a glob of takes
/// gets when takes.json orders or trims them otherwise. The files are empty: these rules are about
/// names and takes.json, not video.
@Suite struct TakesOrderTests {
    let directory = TestMedia.scratchDirectory()
    static let files = ["segment_0001_A.mov", "segment_0002_B.mov", "segment_0003_C.mov"]

    private func makeFolder(trims: [Int: TakeTrim] = [:]) throws {
        for name in Self.files { #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data())) }
        let takes = Self.files.enumerated().map { index, file in
            TakeEntry(file: file, thumbnail: nil, created: "2026-01-01T00:00:00Z", frames: 1, dropped: 0, duration: 1,
                      fps: "30", width: 64, height: 48, codec: "h264", device: "test", preroll: 0, timeline: [],
                      latency: nil, trim: trims[index])
        }
        try TakesManifest(takes: takes).save(to: directory)
    }

    private func listed() throws -> [String] { try TakesFolder.manifest(in: directory).takes.map { String($0.file.dropFirst(13).prefix(1)) } }

    @Test func orderPutsTheTakesAsNamedByNumberOrFile() throws {
        try makeFolder()
        #expect(try TakesFolder.order(["3", "segment_0001_A.mov", "2"], in: directory).map(\.file)
                == [Self.files[2], Self.files[0], Self.files[1]])
        #expect(try listed() == ["C", "A", "B"])
        // Numbers are positions in the current order, as `takes list` shows them.
        try TakesFolder.order(["2", "3", "1"], in: directory)
        #expect(try listed() == ["A", "B", "C"])
    }

    @Test func orderRefusesALeftOutOrTwiceNamedTakeAndChangesNothing() throws {
        try makeFolder()
        let error = vrenderError { try TakesFolder.order(["3", "3"], in: directory) }
        #expect(error?.subject == directory + "/takes.json")
        #expect(error?.reason.hasPrefix("name each of its 3 take(s) once: take(s) 1, 2 not named, take(s) 3 named twice") == true,
                "\(String(describing: error))")
        #expect(vrenderError { try TakesFolder.order(["1", "2", "9"], in: directory) }?.subject == "9")
        #expect(try listed() == ["A", "B", "C"])
    }

    @Test func moveTakesOneTakeToAPlace() throws {
        try makeFolder()
        try TakesFolder.move("3", to: 1, in: directory)
        #expect(try listed() == ["C", "A", "B"])
        try TakesFolder.move("1", to: 99, in: directory)
        #expect(try listed() == ["A", "B", "C"])
        try TakesFolder.move("segment_0001_A.mov", to: 2, in: directory)
        #expect(try listed() == ["B", "A", "C"])
        #expect(vrenderError { try TakesFolder.move("1", to: 0, in: directory) } != nil)
    }

    /// `takes rm` once left the studio's playable copy behind in takes/proxies/.
    @Test func removeTakesTheProxyWithItAndNothingElse() throws {
        try makeFolder()
        try FileManager.default.createDirectory(atPath: directory + "/proxies", withIntermediateDirectories: false)
        for name in ["segment_0002_B.mp4", "segment_0003_C.mp4", "notes.mp4"] {
            #expect(FileManager.default.createFile(atPath: directory + "/proxies/" + name, contents: Data()))
        }
        try TakesFolder.remove(["2"], from: directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/proxies").sorted()
                == ["notes.mp4", "segment_0003_C.mp4"])
    }

    @Test func aProxiesLinkIsNotFollowed() throws {
        try makeFolder()
        let outside = TestMedia.scratchDirectory()
        #expect(FileManager.default.createFile(atPath: outside + "/segment_0002_B.mp4", contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: directory + "/proxies", withDestinationPath: outside)
        try TakesFolder.remove(["2"], from: directory)
        #expect(FileManager.default.fileExists(atPath: outside + "/segment_0002_B.mp4"))
    }

    @Test func aGlobOfReorderedOrTrimmedTakesGetsANote() throws {
        try makeFolder(trims: [1: TakeTrim(start: 0.5, end: nil)])
        let glob = Self.files.map { directory + "/" + $0 }
        #expect(TakesFolder.fileOrderNote(for: glob) == "\(directory)/takes.json trims some of them: files are joined as given "
                + "and whole; 'vrender concat \(directory)' follows takes.json's order and trims")
        try TakesFolder.order(["3", "1", "2"], in: directory)
        #expect(TakesFolder.fileOrderNote(for: glob)?.hasPrefix("\(directory)/takes.json orders these takes differently "
                + "(2, 3, 1 as given) and trims some of them") == true)
        try TakesFolder.remove(["3"], from: directory)   // the trimmed take
        #expect(TakesFolder.fileOrderNote(for: [glob[2], glob[0]]) == nil, "takes.json's own order: nothing to say")
        #expect(TakesFolder.fileOrderNote(for: [glob[0], "/elsewhere/x.mov"]) == nil)
    }
}
