import Foundation
import Glibc

/// The one place vrender calls `open`, `openat`, `read`, `write`, `pread` and `pwrite`
/// itself (`scripts/check-imports.sh` fails on a call anywhere else), so that each is retried
/// when a signal interrupts it (`EINTR`) and reads and writes are carried on until done.
/// Everything here throws the call's `errno` as a `SystemError` for the caller to put into its
/// own words ("cannot read (…)" about the file it knows), except `readAll`, which also has a
/// limit to report and throws a `VRenderError` naming the file.
///
/// A file inside a folder vrender works in is opened through `FolderHandle` / `HeldFile`,
/// which are built on these.
public enum Syscall {
    /// `call` (a system call returning -1 and setting `errno` on failure) again while a signal
    /// interrupts it before it did anything; its result, or its failure.
    @discardableResult
    public static func retrying<Result: BinaryInteger>(_ call: () -> Result) throws(SystemError) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let failure = SystemError.last   // before anything else can change errno
            if failure.code != EINTR { throw failure }
        }
    }

    /// `open(path, flags, mode)`: a descriptor the caller closes.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> Int32 {
        try retrying { FileNames.withPlatformPath(path) { Glibc.open($0, flags, mode) } }
    }

    /// `openat(folder, name, flags, mode)`: `name` resolved from the folder's descriptor.
    public static func openat(_ folder: Int32, _ name: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> Int32 {
        try retrying { FileNames.withPlatformPath(name) { Glibc.openat(folder, $0, flags, mode) } }
    }

    /// One `read` into `buffer`: what it read (0 at the end), however little. For a terminal or
    /// a pipe, where what one read returns is what there is now.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try retrying { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Fills `buffer` from `offset` on (`pread` again after a short read); fewer bytes only at
    /// the end of the file. The descriptor's own position is left alone.
    public static func pread(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
                             at offset: Int64) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return try repeated(buffer.count, untilEnd: true) { done in
            Glibc.pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
        }
    }

    /// Writes all of `bytes`, at the descriptor's position, or at `offset` (`pwrite`, the
    /// position left alone) when given.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) throws(SystemError) {
        guard let offset else { return try writeAll(descriptor, bytes, through: writeOnce) }
        guard let base = bytes.baseAddress else { return }
        try repeated(bytes.count, untilEnd: false) { done in
            Glibc.pwrite(descriptor, base + done, bytes.count - done, off_t(offset) + off_t(done))
        }
    }

    /// One `write`, as the C call returns: the step `writeAll` repeats, replaceable where tests
    /// simulate a full disk (`AtomicFile`).
    typealias WriteStep = @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int
    static let writeOnce: WriteStep = { descriptor, bytes, count in Glibc.write(descriptor, bytes, count) }

    /// `writeAll` with each `write` done by `step`.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, through step: WriteStep) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        try repeated(bytes.count, untilEnd: false) { done in step(descriptor, base + done, bytes.count - done) }
    }

    /// Everything left to read from `descriptor` (a regular file, a pipe), at most `limit`
    /// bytes: one more and it throws `VRenderError.input` naming `file`, having read no more
    /// than `limit + 1` (a crafted file or an endless pipe must not make vrender read
    /// gigabytes). A failed read throws naming `file` too.
    public static func readAll(_ descriptor: Int32, limit: Int, file: String) throws -> Data {
        var data = Data(count: Swift.min(limit, 64 * 1024) + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= limit else {
                    throw VRenderError.input(file, "is more than the \(limit) bytes a file of its kind may have")
                }
                data.count = Swift.min(limit + 1, data.count * 2)
            }
            let outcome = data.withUnsafeMutableBytes { space in
                Result { () throws(SystemError) in try read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: space[filled...])) }
            }
            switch outcome {
            case .success(0): return data.prefix(filled)
            case .success(let count): filled += count
            case .failure(let failure): throw VRenderError.input(file, failure.reason("cannot read"))
            }
        }
    }

    /// Calls `step(done)` until `total` bytes are done, each call doing some of the rest, or
    /// (`untilEnd`, a read) until one does none: the end of the file. A write that writes
    /// nothing and reports nothing would loop for good: it fails as `EIO`.
    @discardableResult
    private static func repeated(_ total: Int, untilEnd: Bool, _ step: (_ done: Int) -> Int) throws(SystemError) -> Int {
        var done = 0
        while done < total {
            let count = try retrying { step(done) }
            if count == 0 {
                if untilEnd { break }
                throw SystemError(code: EIO)
            }
            done += count
        }
        return done
    }
}
