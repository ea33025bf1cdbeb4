import Foundation
import Synchronization
import Testing
import VRenderTestSupport
@testable import VRenderCore

/// `FolderLock`: one writer at a time, readers together, a writer kept out is told who holds
/// the folder, and the lock file is never a link to follow. Two locks in one process exclude
/// each other as two processes do (each is its own open file description), so no process is
/// needed; `wait: .zero` gives up at once, so nothing waits on a clock.
@Suite struct FolderLockTests {
    let scratch = ScratchFolder()
    var folder: String { scratch.path }

    private func error(_ body: () throws -> Any) -> VRenderError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? VRenderError
        }
    }

    @Test func aSecondWriterIsRefusedNamingTheHolder() throws {
        try FolderLock.with(folder, .exclusive, for: "vrender takes recover") {
            let refused = error { try FolderLock.acquire(folder, .exclusive, for: "vrender capture", wait: .zero) }
            #expect(refused?.subject == folder)
            #expect(refused?.reason.hasPrefix("is in use by pid \(getpid()): vrender takes recover (waited 0 s)") == true,
                    "\(String(describing: refused))")
            // A reader is kept out as well.
            #expect(error { try FolderLock.acquire(folder, .shared, for: "vrender concat", wait: .zero) } != nil)
        }
        // Let go: the next writer gets it, and the record names it alone.
        try FolderLock.with(folder, .exclusive, for: "vrender takes rm", wait: .zero) {
            let record = try String(contentsOfFile: folder + "/" + FolderLock.fileName, encoding: .utf8)
            #expect(record == "pid \(getpid()): vrender takes rm\n")
        }
    }

    @Test func readersShareTheFolderAndKeepAWriterOut() throws {
        try FolderLock.with(folder, .exclusive, for: "vrender capture", wait: .zero) {}   // makes the file
        try FolderLock.with(folder, .shared, for: "vrender concat", wait: .zero) {
            try FolderLock.with(folder, .shared, for: "vrender concat", wait: .zero) {
                let refused = error { try FolderLock.acquire(folder, .exclusive, for: "vrender capture", wait: .zero) }
                #expect(refused?.reason.hasPrefix("is in use by another process reading it") == true,
                        "\(String(describing: refused))")
            }
        }
        #expect(try FolderLock.with(folder, .exclusive, for: "vrender capture", wait: .zero) { 7 } == 7)
    }

    /// An attempt that outlasts its wait is an answer naming the holder, not an error; a brief
    /// wait says so in tenths.
    @Test func anAttemptOnAHeldLockAnswersBusy() throws {
        try FolderLock.with(folder, .exclusive, for: "vrender takes recover") {
            let folderHandle = try FolderHandle.open(folder)
            guard case .busy(let holder, let refusal) = try FolderLock.attempt(folderHandle, .exclusive, for: "vrender capture",
                                                                                wait: .init(FolderLock.briefWait)) else {
                Issue.record("a held lock was had twice")
                return
            }
            #expect(holder == "pid \(getpid()): vrender takes recover")
            #expect(refusal.reason.contains("(waited 0.2 s)"), "\(refusal)")
        }
        #expect(try FolderLock.attempt(FolderHandle.open(folder), .exclusive, for: "vrender capture", wait: .init(.zero)).lock != nil)
    }

    /// A studio request gives another process's holder `briefWait` (here none), but waits for a
    /// holder in this process (its own capture listing a take or saving a check, slow on a busy
    /// disk), which lets go by itself.
    @Test func aRequestWaitsForAHolderInThisProcessOnly() throws {
        let handle = try FolderHandle.open(folder)
        let request = FolderLock.Patience(others: .zero, thisProcess: .seconds(60))
        try FolderLock.with(folder, .exclusive, for: "vrender capture") {
            // Another process's record: refused at once, naming it.
            try "pid 1: vrender takes recover\n".write(toFile: folder + "/" + FolderLock.fileName, atomically: false, encoding: .utf8)
            guard case .busy(let holder, let refusal) = try FolderLock.attempt(handle, .exclusive, for: "vrender studio", wait: request) else {
                Issue.record("a held lock was had twice")
                return
            }
            #expect(holder == "pid 1: vrender takes recover")
            #expect(refusal.reason.contains("(waited 0 s)"), "\(refusal)")
        }
        // This process's own: with no wait for it, refused; with one, had once it lets go.
        let held = Mutex<FolderLock?>(try FolderLock.acquire(handle, .exclusive, for: "vrender capture"))
        #expect(try FolderLock.attempt(handle, .exclusive, for: "vrender studio", wait: .init(.zero)).lock == nil)
        let attempting = DispatchSemaphore(value: 0)
        let releaser = Thread {
            attempting.wait()
            held.withLock { $0 = nil }
        }
        releaser.start()
        attempting.signal()
        #expect(try FolderLock.attempt(handle, .exclusive, for: "vrender studio", wait: request).lock != nil)
    }

    /// The lock file is 0600: another user who could open it could hold the folder's lock as
    /// long as they liked (`flock -s` on the 0644 file stopped a recording).
    @Test func theLockFileIsTheOwnersAlone() throws {
        try FolderLock.with(folder, .exclusive, for: "vrender capture", wait: .zero) {}
        #expect(try mode(of: folder + "/" + FolderLock.fileName) == 0o600)
    }

    /// An older vrender's 0644 lock file of ours is tightened by the next command to open it,
    /// a reader included; it is the same file (its inode), never replaced.
    @Test func anOlderWorldReadableLockFileIsTightened() throws {
        let path = folder + "/" + FolderLock.fileName
        #expect(FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0o644]))
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        try FolderLock.with(folder, .shared, for: "vrender concat", wait: .zero) {}
        #expect(try mode(of: path) == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)
    }

    private func mode(of path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// A reader of a folder no writer has locked (a phone's videos) writes nothing into it.
    @Test func aReaderMakesNoLockFile() throws {
        try FolderLock.with(folder, .shared, for: "vrender concat", wait: .zero) {}
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// A lock file planted as a link is not followed: the file it points to is not created,
    /// truncated or written.
    @Test func aLinkInPlaceOfTheLockFileIsRefused() throws {
        let outside = scratch.path + "-outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try "precious".write(toFile: outside + "/precious", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + FolderLock.fileName, withDestinationPath: outside + "/precious")
        let refused = error { try FolderLock.acquire(folder, .exclusive, for: "vrender capture", wait: .zero) }
        #expect(refused?.subject == folder + "/" + FolderLock.fileName)
        #expect(refused?.reason.contains("is a symbolic link") == true, "\(String(describing: refused))")
        #expect(try String(contentsOfFile: outside + "/precious", encoding: .utf8) == "precious")

        try FileManager.default.removeItem(atPath: folder + "/" + FolderLock.fileName)
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + FolderLock.fileName, withDestinationPath: outside + "/new")
        #expect(error { try FolderLock.acquire(folder, .exclusive, for: "vrender capture", wait: .zero) } != nil)
        #expect(!FileManager.default.fileExists(atPath: outside + "/new"))
    }
}
