import Foundation
import Glibc
import Testing
import VRenderTestSupport
@testable import VRenderCore

/// `AtomicFile`: the target is either untouched or complete, and no temporary file survives a
/// failure at any step. Failures of `write` and `fsync` are simulated through its system calls;
/// a failing rename is real (the target is a directory).
@Suite final class AtomicFileTests {
    /// A fresh folder for each test, removed after it.
    private let scratch = ScratchFolder()
    private var folder: String { scratch.path }

    private static func contents(of folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    private static func write(_ text: String, with file: AtomicFile) throws {
        try Array(text.utf8).withUnsafeBytes { try file.write($0) }
    }

    /// The system calls that can fail before the rename.
    enum Call: Sendable { case write, fsync }

    /// The live calls with `call` replaced by a failure that sets `errno` to `code`.
    private static func failing(_ call: Call, code: Int32) -> FileSystemCalls {
        var calls = FileSystemCalls.live
        switch call {
        case .write: calls.write = { _, _, _ in errno = code; return -1 }
        case .fsync: calls.fsync = { _ in errno = code; return -1 }
        }
        return calls
    }

    /// The error `body` throws, as the user would read it.
    private static func failure(_ body: () throws -> Void) -> VRenderError? {
        do {
            try body()
            return nil
        } catch {
            return error as? VRenderError
        }
    }

    @Test func writesTheBytesAndLeavesOnlyTheTarget() throws {
        let path = folder + "/notes.json"
        try Self.write("first", with: AtomicFile(path: path))
        try Self.write("second, longer", with: AtomicFile(path: path))
        #expect(FileManager.default.contents(atPath: path) == Data("second, longer".utf8))
        #expect(try Self.contents(of: folder) == ["notes.json"])
    }

    @Test func writesAnEmptyFile() throws {
        try AtomicFile.write(UnsafeRawBufferPointer(start: nil, count: 0), to: folder + "/empty")
        #expect(FileManager.default.contents(atPath: folder + "/empty") == Data())
    }

    @Test func temporaryIsHiddenBesideTheTargetUniqueAndUnpredictable() {
        let first = AtomicFile(path: "/some/folder/take.mov"), second = AtomicFile(path: "/some/folder/take.mov")
        #expect(first.temporaryPath.hasPrefix("/some/folder/.take.mov.\(getpid())-"))
        #expect(first.temporaryPath.hasSuffix(".vrender-partial"))
        #expect(first.temporaryPath != second.temporaryPath)
        // 64 random bits after the pid, not a counter someone could plant links for.
        let random = first.temporaryPath.dropFirst("/some/folder/.take.mov.\(getpid())-".count).prefix { $0 != "." }
        #expect(random.count == 16 && random.allSatisfy(\.isHexDigit))
        #expect(AtomicFile(path: "bare.png").temporaryPath.hasPrefix("./.bare.png."))
        #expect(AtomicFile(path: "/top.png").temporaryPath.hasPrefix("/.top.png."))
    }

    /// A decoy outside the folder and a link to it inside, as an attacker plants them.
    private func plantLink(at name: String) throws -> String {
        let decoy = folder + "/outside-decoy.txt"
        try Data("decoy".utf8).write(to: URL(fileURLWithPath: decoy))
        try FileManager.default.createSymbolicLink(atPath: folder + "/inside/" + name, withDestinationPath: decoy)
        return decoy
    }

    @Test func aLinkPlantedAtTheTemporaryNameIsNeverFollowed() throws {
        try FileManager.default.createDirectory(atPath: folder + "/inside", withIntermediateDirectories: false)
        let file = AtomicFile(path: folder + "/inside/takes.json")
        let decoy = try plantLink(at: (file.temporaryPath as NSString).lastPathComponent)
        let error = Self.failure { try Self.write("new", with: file) }
        #expect(error?.subject == file.path)
        #expect(error?.reason.contains("already exists") == true)
        #expect(FileManager.default.contents(atPath: decoy) == Data("decoy".utf8))
        #expect(FileManager.default.fileExists(atPath: file.path) == false)
    }

    @Test func aLinkAtTheTargetIsReplacedNotFollowed() throws {
        try FileManager.default.createDirectory(atPath: folder + "/inside", withIntermediateDirectories: false)
        let decoy = try plantLink(at: "takes.json")
        try Self.write("new", with: AtomicFile(path: folder + "/inside/takes.json"))
        #expect(FileManager.default.contents(atPath: decoy) == Data("decoy".utf8))
        let info = try FileManager.default.attributesOfItem(atPath: folder + "/inside/takes.json")
        #expect(info[.type] as? FileAttributeType == .typeRegular)
        #expect(FileManager.default.contents(atPath: folder + "/inside/takes.json") == Data("new".utf8))
    }

    @Test func aTemporarySwappedWhileWrittenIsNotMovedIntoPlace() throws {
        try FileManager.default.createDirectory(atPath: folder + "/inside", withIntermediateDirectories: false)
        let file = AtomicFile(path: folder + "/inside/export.mov")
        let descriptor = try file.open()
        #expect(Glibc.write(descriptor, "muxed", 5) == 5)
        // Someone replaces the temporary's name with a link to a file outside.
        try FileManager.default.removeItem(atPath: file.temporaryPath)
        let decoy = try plantLink(at: (file.temporaryPath as NSString).lastPathComponent)
        let error = Self.failure { try file.commit() }
        #expect(error?.reason.contains("replaced by something else") == true)
        #expect(FileManager.default.fileExists(atPath: file.path) == false)
        #expect(FileManager.default.contents(atPath: decoy) == Data("decoy".utf8))
    }

    /// A full disk while writing, a failing flush before the rename.
    @Test(arguments: [
        (Call.write, ENOSPC, "cannot write: No space left on device"),
        (Call.fsync, EIO, "cannot flush to disk: Input/output error"),
    ])
    func failureBeforeTheRenameRemovesTheTemporaryAndKeepsTheOldFile(call: Call, code: Int32, reason: String) throws {
        let path = folder + "/takes.json"
        try Self.write("old", with: AtomicFile(path: path))
        let error = Self.failure {
            try Self.write("new", with: AtomicFile(path: path, system: Self.failing(call, code: code)))
        }
        #expect(error == VRenderError.output(path, reason))
        #expect(try Self.contents(of: folder) == ["takes.json"])
        #expect(FileManager.default.contents(atPath: path) == Data("old".utf8))
    }

    @Test func failedRenameRemovesTheTemporary() throws {
        // A non-empty directory where the file should go: rename(2) refuses to replace it.
        let path = folder + "/export.mkv"
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        let error = Self.failure { try Self.write("data", with: AtomicFile(path: path)) }
        #expect(error?.kind == .output)
        #expect(error?.subject == path)
        #expect(error?.reason.hasPrefix("cannot move into place: ") == true)
        #expect(try Self.contents(of: folder) == ["export.mkv"])
    }

    @Test func commitsAFileSomeoneElseWroteThroughTheDescriptor() throws {
        let file = AtomicFile(path: folder + "/export.mov")
        #expect(Glibc.write(try file.open(), "muxed", 5) == 5)
        try file.commit()
        #expect(FileManager.default.contents(atPath: file.path) == Data("muxed".utf8))
        #expect(try Self.contents(of: folder) == ["export.mov"])
    }

    @Test func discardRemovesWhatWasWrittenAndCommitThenFailsNamingTheTarget() throws {
        let file = AtomicFile(path: folder + "/export.mov")
        #expect(Glibc.write(try file.open(), "half", 4) == 4)
        file.discard()
        file.discard()  // nothing left to remove: harmless
        #expect(try Self.contents(of: folder).isEmpty)
        let error = Self.failure { try file.commit() }
        #expect(error?.subject == file.path)
        #expect(try Self.contents(of: folder).isEmpty)
    }

    @Test func checkTargetRefusesFoldersMissingFoldersAndExistingFilesWithoutOverwrite() throws {
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        try Self.write("old", with: AtomicFile(path: folder + "/old.txt"))
        try AtomicFile(path: folder + "/new.txt").checkTarget(overwrite: false)
        try AtomicFile(path: folder + "/old.txt").checkTarget(overwrite: true)
        let cases: [(path: String, overwrite: Bool, reason: String)] = [
            (folder + "/sub", true, "is a directory"),
            (folder + "/old.txt", false, "already exists (use --overwrite to replace it)"),
            (folder + "/missing/new.txt", true, "directory \(folder)/missing does not exist"),
            (folder + "/old.txt/new.txt", true, "directory \(folder)/old.txt does not exist"),
            (folder + "/" + String(repeating: "n", count: 300) + ".mov", true, "the file name is longer than the 255 bytes a name may have"),
        ]
        for (path, overwrite, reason) in cases {
            let error = Self.failure { try AtomicFile(path: path).checkTarget(overwrite: overwrite) }
            #expect(error == VRenderError.output(path, reason), "\(path)")
        }
        #expect(try Self.contents(of: folder) == ["old.txt", "sub"])
    }

    /// The studio's case: its folder held, then its path turned into a link to another folder
    /// (where a file of the target's name waits). The check and the write both go to the held
    /// folder; the other folder is never looked at or written.
    @Test func inAHeldFolderTheCheckAndTheWriteIgnoreWhatItsPathBecame() throws {
        let held = folder + "/held", moved = folder + "/moved", victim = folder + "/victim"
        for path in [held, victim] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        try Data("victim".utf8).write(to: URL(fileURLWithPath: victim + "/out.mp4"))
        let handle = try FolderHandle.open(held)
        try FileManager.default.moveItem(atPath: held, toPath: moved)
        try FileManager.default.createSymbolicLink(atPath: held, withDestinationPath: victim)

        let file = AtomicFile(in: handle, name: "out.mp4")
        try file.checkTarget(overwrite: false)   // nothing of that name in the held folder
        try Self.write("mine", with: file)
        #expect(file.size == 4)
        #expect(FileManager.default.contents(atPath: moved + "/out.mp4") == Data("mine".utf8))
        #expect(FileManager.default.contents(atPath: victim + "/out.mp4") == Data("victim".utf8))
        #expect(try Self.contents(of: victim) == ["out.mp4"])

        try FileManager.default.removeItem(atPath: moved + "/out.mp4")
        try FileManager.default.removeItem(atPath: moved)
        let removed = Self.failure { try AtomicFile(in: handle, name: "new.mp4").checkTarget() }
        #expect(removed?.reason.contains("was removed") == true)
    }
}

/// `AtomicFile.removeLeftovers`: a dead process's temporaries go, nothing else does.
@Suite final class AtomicFileLeftoverTests {
    private let scratch = ScratchFolder()

    @Test func onlyRegularTemporariesOfGoneProcessesAreRemoved() throws {
        let dead = try ProgramRun.deadPid(), folder = scratch.path
        let names = [
            ".out.mov.\(dead)-00ab.vrender-partial",        // removed
            ".takes.json.\(dead)-3.vrender-partial",         // an older vrender's serial: removed
            ".out.mov.\(getpid())-00ac.vrender-partial",    // this process's: kept
            "out.mov.\(dead)-00ad.vrender-partial",          // not hidden: not a temporary's shape
            ".out.mov.\(dead)-zz.vrender-partial",           // not hex
        ]
        for name in names { #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8))) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/.link.\(dead)-1.vrender-partial", withDestinationPath: "/etc/passwd")
        let handle = try FolderHandle.open(folder)
        #expect(AtomicFile.removeLeftovers(in: handle, target: "other.mov").isEmpty)
        #expect(AtomicFile.removeLeftovers(in: handle) == [names[0], names[1]].sorted())
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(left == Set(names[2...] + [".link.\(dead)-1.vrender-partial"]))
    }
}
