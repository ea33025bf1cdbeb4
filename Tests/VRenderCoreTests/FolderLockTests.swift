import Foundation
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
                #expect(refused?.reason.hasPrefix("is in use by another vrender command reading it") == true,
                        "\(String(describing: refused))")
            }
        }
        #expect(try FolderLock.with(folder, .exclusive, for: "vrender capture", wait: .zero) { 7 } == 7)
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
