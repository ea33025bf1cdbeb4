import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// `TakesFolder`: which files a takes folder stands for, in which order, and which it refuses.
/// The files are empty: these rules are about names and paths, not video.
@Suite struct TakesFolderTests {
    let directory = TestMedia.scratchDirectory()

    private func touch(_ name: String, in folder: String? = nil) {
        #expect(FileManager.default.createFile(atPath: (folder ?? directory) + "/" + name, contents: Data()))
    }

    private func entry(_ file: String) -> TakeEntry {
        TakeEntry(file: file, thumbnail: nil, created: "2026-01-01T00:00:00Z", frames: 1, dropped: 0, duration: 1,
                  fps: "30", width: 64, height: 48, codec: "h264", device: "test", preroll: 0, timeline: [], latency: nil)
    }

    private func writeManifest(_ files: [String]) throws {
        try TakesManifest(takes: files.map(entry)).save(to: directory)
    }

    @Test func manifestOrderWinsOverNames() throws {
        for name in ["b.mov", "a.mov", "c.mp4"] { touch(name) }
        try writeManifest(["c.mp4", "a.mov", "b.mov"])
        let (paths, order) = try TakesFolder.takePaths(in: directory + "/")
        #expect(order == .manifest)
        #expect(paths == ["c.mp4", "a.mov", "b.mov"].map { directory + "/" + $0 })
    }

    @Test func withoutAManifestVideoFilesGoInByteOrder() throws {
        // Upper case sorts before lower case in byte order; not-video files and hidden ones are left out.
        for name in ["b.mkv", "B.webm", "a.MOV", "notes.txt", ".hidden.mov", "c.m4v", "segment_0002_X.mp4"] { touch(name) }
        try FileManager.default.createDirectory(atPath: directory + "/folder.mov", withIntermediateDirectories: false)
        let (paths, order) = try TakesFolder.takePaths(in: directory)
        #expect(order == .fileNames)
        #expect(paths == ["B.webm", "a.MOV", "b.mkv", "c.m4v", "segment_0002_X.mp4"].map { directory + "/" + $0 })
    }

    @Test(arguments: [
        ("/etc/passwd", "is an absolute path"),
        ("../outside.mov", "leads outside the folder ('..')"),
        ("sub/../../outside.mov", "leads outside the folder ('..')"),
    ])
    func entriesOutsideTheFolderAreRefused(file: String, why: String) throws {
        touch("a.mov")
        try writeManifest(["a.mov", file])
        let error = vrenderError { try TakesFolder.takePaths(in: directory) }
        #expect(error?.subject == directory + "/takes.json")
        #expect(error?.reason.hasPrefix("entry 2 '\(file)' \(why)") == true, "\(String(describing: error))")
    }

    @Test func aSymbolicLinkLeadingOutIsRefused() throws {
        let outside = TestMedia.scratchDirectory()
        touch("secret.mov", in: outside)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.mov", withDestinationPath: outside + "/secret.mov")
        // A link that stays inside the folder is fine.
        touch("real.mov")
        try FileManager.default.createSymbolicLink(atPath: directory + "/alias.mov", withDestinationPath: "real.mov")
        try writeManifest(["alias.mov"])
        #expect(try TakesFolder.takePaths(in: directory).paths == [directory + "/alias.mov"])

        try writeManifest(["alias.mov", "link.mov"])
        let error = vrenderError { try TakesFolder.takePaths(in: directory) }
        #expect(error?.subject == directory + "/takes.json")
        #expect(error?.reason.hasPrefix("entry 2 'link.mov' is a symbolic link leading outside the folder") == true,
                "\(String(describing: error))")
    }

    /// A hostile takes.json must not make `takes list` show, or `takes rm` delete, anything
    /// outside the folder: every reader refuses it, naming the entry, and nothing is deleted.
    @Test(arguments: ["..", "absolute", "symlink", "thumbnail", "linked folder", "linked folder, new name"])
    func everyReaderRefusesEntriesLeadingOut(kind: String) throws {
        let outside = TestMedia.scratchDirectory()
        touch("precious.txt", in: outside)
        touch("a.mov")
        var hostile = entry("a.mov")
        switch kind {
        case "..": hostile.file = "../" + (outside as NSString).lastPathComponent + "/precious.txt"
        case "absolute": hostile.file = outside + "/precious.txt"
        case "symlink":
            try FileManager.default.createSymbolicLink(atPath: directory + "/link.mov", withDestinationPath: outside + "/precious.txt")
            hostile.file = "link.mov"
        case "linked folder", "linked folder, new name":
            try FileManager.default.createSymbolicLink(atPath: directory + "/sub", withDestinationPath: outside)
            hostile.thumbnail = kind == "linked folder" ? "sub/precious.txt" : "sub/authorized_keys"
        default: hostile.thumbnail = "../" + (outside as NSString).lastPathComponent + "/precious.txt"
        }
        try TakesManifest(takes: [entry("a.mov"), hostile]).save(to: directory)
        let manifestBefore = try Data(contentsOf: URL(fileURLWithPath: directory + "/takes.json"))
        let readers: [(String, () throws -> Void)] = [
            ("list", { _ = try TakesFolder.manifest(in: self.directory) }),
            ("rm", { try TakesFolder.remove(["2"], from: self.directory) }),
            ("concat", { _ = try TakesFolder.takePaths(in: self.directory) }),
        ]
        for (reader, read) in readers {
            let error = vrenderError(read)
            #expect(error?.subject == directory + "/takes.json", "\(reader)")
            #expect(error?.reason.hasPrefix("entry 2 '") == true, "\(reader): \(String(describing: error))")
        }
        #expect(FileManager.default.fileExists(atPath: outside + "/precious.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["precious.txt"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/takes.json")) == manifestBefore)
    }

    /// A name below a linked folder is refused whether or not it exists yet, naming the link.
    @Test func aLinkedFolderOnTheWayIsNamed() throws {
        let outside = TestMedia.scratchDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory + "/sub", withDestinationPath: outside)
        touch("a.mov")
        var take = entry("a.mov")
        take.thumbnail = "sub/authorized_keys"
        try TakesManifest(takes: [take]).save(to: directory)
        let error = vrenderError { try TakesFolder.manifest(in: directory) }
        #expect(error?.description == "\(directory)/takes.json: entry 1 'sub/authorized_keys' leads through 'sub', a symbolic link; "
                + "vrender does not follow links inside a takes folder")
    }

    /// Names in real sub-folders are followed down, and `takes rm` removes what they name there.
    @Test func removeReachesIntoRealSubfolders() throws {
        try FileManager.default.createDirectory(atPath: directory + "/day1", withIntermediateDirectories: false)
        touch("a.mov", in: directory + "/day1")
        touch("a.png", in: directory + "/day1")
        var take = entry("day1/a.mov")
        take.thumbnail = "day1/a.png"
        try TakesManifest(takes: [take, entry("b.mov")]).save(to: directory)
        #expect(try TakesFolder.remove(["1"], from: directory).map(\.file) == ["day1/a.mov"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/day1").isEmpty)
        #expect(try TakesFolder.manifest(in: directory).takes.map(\.file) == ["b.mov"])
    }

    @Test func aMissingTakeIsNamed() throws {
        touch("a.mov")
        try writeManifest(["a.mov", "gone.mov"])
        let error = vrenderError { try TakesFolder.takePaths(in: directory) }
        #expect(error?.description == "\(directory)/gone.mov: listed in takes.json (entry 2) but missing")
    }

    @Test func anEmptyOrMissingFolderIsNamed() throws {
        touch("notes.txt")
        #expect(vrenderError { try TakesFolder.takePaths(in: directory) }?.subject == directory)
        try writeManifest([])
        #expect(vrenderError { try TakesFolder.takePaths(in: directory) }?.description
                == "\(directory): has no takes (takes.json lists none)")
        #expect(vrenderError { try TakesFolder.takePaths(in: directory + "/nope") }?.description == "\(directory)/nope: no such folder")
    }

    @Test func theManifestIsRequiredToListOrRemove() throws {
        touch("a.mov")
        let error = vrenderError { try TakesFolder.manifest(in: directory) }
        #expect(error?.subject == directory)
        #expect(error?.reason.hasPrefix("no takes.json (not a takes folder") == true)
        #expect(vrenderError { try TakesFolder.remove(["1"], from: directory) }?.subject == directory)
    }

    @Test func removeResolvesEveryNameBeforeDeletingAny() throws {
        for name in ["segment_0001_A.mov", "segment_0002_B.mov", "segment_0003_C.mov"] { touch(name) }
        try writeManifest(["segment_0001_A.mov", "segment_0002_B.mov", "segment_0003_C.mov"])
        #expect(vrenderError { try TakesFolder.remove(["1", "7"], from: directory) }?.subject == "7")
        #expect(try TakesFolder.manifest(in: directory).takes.count == 3)

        let removed = try TakesFolder.remove(["3", directory + "/segment_0001_A.mov"], from: directory)
        #expect(removed.map(\.file) == ["segment_0001_A.mov", "segment_0003_C.mov"])
        #expect(try TakesFolder.manifest(in: directory).takes.map(\.file) == ["segment_0002_B.mov"])
        #expect(!FileManager.default.fileExists(atPath: directory + "/segment_0001_A.mov"))
        #expect(FileManager.default.fileExists(atPath: directory + "/segment_0002_B.mov"))
    }

    @Test func takeNumbersComeFromNumberedNamesOnly() throws {
        #expect(TakesFolder.takeNumber(inFileName: "segment_0012_0C1D-AB.mov") == 12)
        #expect(TakesFolder.takeNumber(inFileName: "segment_10000_0C1D.png") == 10000)
        // The seed's names: a UUID may start with digits, but never digits and then '_'.
        #expect(TakesFolder.takeNumber(inFileName: "segment_40F02985-08D0-44FC-B88E-335111EC7E78.mov") == nil)
        #expect(TakesFolder.takeNumber(inFileName: "segment_12345678-08D0-44FC-B88E-335111EC7E78.mov") == nil)
        #expect(TakesFolder.takeNumber(inFileName: "take_0001_X.mov") == nil)
        #expect(TakesFolder.takeFileStem(number: 7, id: UUID(uuidString: "40F02985-08D0-44FC-B88E-335111EC7E78")!)
                == "segment_0007_40F02985-08D0-44FC-B88E-335111EC7E78")
    }

    @Test func numberingCountsFilesAManifestDoesNotList() throws {
        #expect(try TakesFolder.nextTakeNumber(in: directory + "/new") == 1)
        try writeManifest(["segment_0002_A.mov"])
        #expect(try TakesFolder.nextTakeNumber(in: directory) == 3)
        touch("segment_0005_B.mov")   // a take whose process was killed: a file, no entry
        #expect(try TakesFolder.nextTakeNumber(in: directory) == 6)
    }
}
