import Foundation
import Glibc
import Synchronization
import Testing
import VRenderTestSupport
@testable import VRenderCore

/// `Syscall`: EINTR retried (simulated: a signal cannot be made to land mid-call on cue), reads
/// and writes carried on to the end, `readAll`'s limit; and `HeldFile.open(path:)`, the checked
/// open of a file the user names.
@Suite final class SyscallTests {
    private let scratch = ScratchFolder()
    private var root: String { scratch.path }

    /// A pipe's two ends, each closed once: by `closeWrite` (the reader sees the end) or after the test.
    private final class Pipe: Sendable {
        let read: Int32, write: Int32
        private let writeOpen = Mutex(true)
        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw SystemError.last }
            (read, write) = (ends[0], ends[1])
        }
        func closeWrite() {
            if writeOpen.withLock({ open in defer { open = false }; return open }) { close(write) }
        }
        deinit {
            close(read)
            closeWrite()
        }
    }

    private static func failure(_ body: () throws -> Void) -> VRenderError? {
        do {
            try body()
            return nil
        } catch {
            return error as? VRenderError
        }
    }

    @Test func retryingCallsAgainOnEINTRAndThrowsAnyOtherFailure() throws {
        var calls = 0
        let result = try Syscall.retrying { () -> Int in
            calls += 1
            if calls < 3 { errno = EINTR; return -1 }
            return 7
        }
        #expect(result == 7 && calls == 3)
        #expect(throws: SystemError(code: EBADF)) { try Syscall.retrying { close(-1) } }
    }

    /// Short writes and interruptions are carried on; a write that does nothing fails.
    @Test func writeAllCarriesOnThroughShortAndInterruptedWrites() throws {
        let pipe = try Pipe()
        let steps = Mutex(0)
        let bytes = Array("0123456789".utf8)
        try bytes.withUnsafeBytes { buffer in
            try Syscall.writeAll(pipe.write, buffer) { descriptor, base, count in
                let step = steps.withLock { $0 += 1; return $0 }
                if step % 2 == 0 { errno = EINTR; return -1 }
                return Syscall.writeOnce(descriptor, base, Swift.min(count, 3))   // 3 bytes at most
            }
        }
        pipe.closeWrite()
        #expect(try Syscall.readAll(pipe.read, limit: 100, file: "pipe") == Data(bytes))
        #expect(steps.withLock { $0 } == 7)   // 4 writes of 3, 3, 3, 1 and 3 interruptions
        #expect(throws: SystemError(code: EIO)) {
            try bytes.withUnsafeBytes { try Syscall.writeAll(pipe.write, $0) { _, _, _ in 0 } }
        }
    }

    /// 1 MiB through a pipe (which holds 64 KiB at most) arrives whole: the writer's thread
    /// writes it all while this one reads it all.
    @Test func writeAllAndReadAllMoveALargeBufferThroughAPipe() throws {
        let pipe = try Pipe()
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        Thread.detachNewThread {
            // A failed write ends the pipe early: what was read then differs.
            try? bytes.withUnsafeBytes { try Syscall.writeAll(pipe.write, $0) }
            pipe.closeWrite()
        }
        #expect(try Syscall.readAll(pipe.read, limit: 1 << 20, file: "the pipe") == Data(bytes))
    }

    @Test func readAllStopsOneBytePastItsLimitNamingTheFile() throws {
        for (count, fits) in [(0, true), (1000, true), (1001, false), (200_000, false)] {
            let pipe = try Pipe()
            // A pipe holds 4 KiB at least before anyone reads; the rest is never written.
            let written = Swift.min(count, 4096)
            try Array(repeating: UInt8(65), count: written).withUnsafeBytes { try Syscall.writeAll(pipe.write, $0) }
            if count == written { pipe.closeWrite() }
            if fits {
                #expect(try Syscall.readAll(pipe.read, limit: 1000, file: "/x/notes.txt").count == count)
            } else {
                // The endless pipe (its writer still open) ends here too: nothing past the limit is waited for.
                #expect(Self.failure { _ = try Syscall.readAll(pipe.read, limit: 1000, file: "/x/notes.txt") }
                    == VRenderError.input("/x/notes.txt", "is more than the 1000 bytes a file of its kind may have"))
            }
        }
    }

    @Test func preadFillsFromTheOffsetAndStopsAtTheEnd() throws {
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: root + "/ten"))
        let descriptor = try Syscall.open(root + "/ten", O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try buffer.withUnsafeMutableBytes { try Syscall.pread(descriptor, into: $0, at: 6) } == 4)
        #expect(buffer.prefix(4) == Array("6789".utf8)[...])
        #expect(try buffer.withUnsafeMutableBytes { try Syscall.pread(descriptor, into: $0, at: 1) } == 8)
        #expect(buffer == Array("12345678".utf8))
        #expect(throws: SystemError(code: ENOENT)) { try Syscall.open(root + "/missing", O_RDONLY) }
    }

    /// A file the user names by path: links followed (they named it), but a FIFO is refused
    /// without waiting for a writer, and so is a folder; a file over the limit is refused
    /// unread. Every refusal names the file.
    @Test func aFileNamedByPathIsCheckedThroughItsDescriptor() throws {
        try Data("at 1s stop\n".utf8).write(to: URL(fileURLWithPath: root + "/script.txt"))
        try FileManager.default.createSymbolicLink(atPath: root + "/link.txt", withDestinationPath: root + "/script.txt")
        try FileManager.default.createDirectory(atPath: root + "/folder", withIntermediateDirectories: true)
        #expect(mkfifo(root + "/fifo", 0o644) == 0)
        func refusal(_ name: String) -> HeldFile.Refusal? {
            do {
                _ = try HeldFile.open(path: root + "/" + name)
                return nil
            } catch {
                return error
            }
        }
        #expect(try HeldFile.open(path: root + "/link.txt").contents(limit: 100) == Data("at 1s stop\n".utf8))
        #expect(refusal("fifo")?.description == root + "/fifo: is a FIFO, not a regular file")
        #expect(refusal("folder")?.description == root + "/folder: is a folder, not a regular file")
        #expect(refusal("missing")?.error() == VRenderError.input(root + "/missing", "no such file"))
        #expect(Self.failure { _ = try HeldFile.open(path: root + "/script.txt").contents(limit: 10) }
            == VRenderError.input(root + "/script.txt", "is 11 bytes, more than the 10 a file of its kind may have"))
    }
}
