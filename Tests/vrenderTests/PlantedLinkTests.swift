import Foundation
import Testing
import VRenderTestSupport

/// Links planted where vrender creates files (issue: "temporaries follow planted symlinks"):
/// an old vrender named its temporaries `.NAME.<pid>-<n>.vrender-partial` and opened them
/// following links, so links planted for every pid sent an export or a salvaged take into a
/// file outside the folder. Now no write follows a link: each case checks a decoy outside the
/// folder is byte for byte and time for time what it was, and the output is a real file.
@Suite struct PlantedLinkTests {
    let folder = GuardedRun.folder()
    static let takes = ["same_1.mov", "same_2.mov"].map(TestMedia.path)

    /// `folder/outside/decoy` and links to it named as an older vrender's temporaries for
    /// `target` would be, for the pids around this one (a child's pid is near ours) and
    /// serials 1...4.
    private func plant(temporariesOf target: String, in directory: String) throws -> (decoy: String, stamp: [FileAttributeKey: Any]) {
        let outside = folder + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let decoy = outside + "/decoy.txt"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: decoy))
        let me = Int(getpid())
        for pid in me...(me + 400) {
            for serial in 1...4 {
                try FileManager.default.createSymbolicLink(atPath: "\(directory)/.\(target).\(pid)-\(serial).vrender-partial",
                                                           withDestinationPath: decoy)
            }
        }
        return (decoy, try FileManager.default.attributesOfItem(atPath: decoy))
    }

    private func expectUntouched(_ decoy: String, _ stamp: [FileAttributeKey: Any], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(FileManager.default.contents(atPath: decoy) == Data("precious".utf8), sourceLocation: sourceLocation)
        let now = try FileManager.default.attributesOfItem(atPath: decoy)
        #expect(now[.modificationDate] as? Date == stamp[.modificationDate] as? Date, sourceLocation: sourceLocation)
    }

    @Test(arguments: [[String](), ["--filter", "mono"]])
    func anExportNeverWritesThroughAPlantedTemporary(_ options: [String]) throws {
        defer { GuardedRun.remove(folder) }
        let directory = folder + "/pl"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (decoy, stamp) = try plant(temporariesOf: "out.mov", in: directory)
        let run = GuardedRun.vrender(["concat"] + Self.takes + options + ["--progress", "none", "-o", directory + "/out.mov"])
        #expect(run.status == 0, "\(run.standardError)")
        try expectUntouched(decoy, stamp)
        let kind = try FileManager.default.attributesOfItem(atPath: directory + "/out.mov")[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
        #expect(GuardedRun.probe(directory + "/out.mov")?.frames == 120)
    }

    @Test func anOutputThatIsALinkIsReplacedNotWrittenThrough() throws {
        defer { GuardedRun.remove(folder) }
        let (decoy, stamp) = try plant(temporariesOf: "unused", in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder + "/out.mp4", withDestinationPath: decoy)
        let run = GuardedRun.vrender(["concat"] + Self.takes + ["--progress", "none", "--overwrite", "-o", folder + "/out.mp4"])
        #expect(run.status == 0, "\(run.standardError)")
        try expectUntouched(decoy, stamp)
        #expect(GuardedRun.probe(folder + "/out.mp4")?.frames == 120)
    }

    /// What a kill -9 leaves: a temporary of a process that is gone. The next export of the
    /// same output removes it and says so; a live process's, and another file's, stay.
    @Test func anExportRemovesWhatKilledRunsOfItLeft() throws {
        defer { GuardedRun.remove(folder) }
        let dead = try ProgramRun.deadPid()
        let leftover = folder + "/.out.mov.\(dead)-00000000000000ab.vrender-partial"
        let live = folder + "/.out.mov.\(getpid())-00000000000000ac.vrender-partial"
        let other = folder + "/.notes.txt.\(dead)-00000000000000ad.vrender-partial"
        for file in [leftover, live, other] { try Data("half".utf8).write(to: URL(fileURLWithPath: file)) }
        let run = GuardedRun.vrender(["concat"] + Self.takes + ["--progress", "none", "-o", folder + "/out.mov"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(FileManager.default.fileExists(atPath: live) && FileManager.default.fileExists(atPath: other))
        #expect(run.standardError.contains("removed 1 temporary file(s) that killed earlier runs left"), "\(run.standardError)")
    }
}
