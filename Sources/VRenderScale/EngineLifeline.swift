import Foundation
import VRenderCore

/// Ties the local engine's chunk workers to it: the engine gives every worker the read end of
/// a pipe as its standard input and keeps the write end, never writing to it. When the engine
/// goes, however it goes (SIGKILL included), the kernel closes the write end, each worker reads
/// end-of-file and stops (its temporary file removed), so none renders on for nobody.
///
/// A pipe rather than prctl(PR_SET_PDEATHSIG): that signal fires when the *thread* that started
/// the child exits, which with Foundation's Process is not the engine's end, and it cannot be
/// called from Swift (a variadic C function). A worker started after the engine died reads
/// end-of-file at once: no race to close.
final class EngineLifeline: Sendable {
    /// Set in a worker's environment when its standard input is the lifeline.
    static let variable = "VRENDER_ENGINE_LIFELINE"

    /// What the workers get as standard input.
    let readEnd: FileHandle
    /// The engine's end, open as long as this value lives; close-on-exec, so no worker holds it.
    private let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        // pipe2 is not in Swift's Glibc; nothing else starts processes while the engine makes it.
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw VRenderError(.runtime, subject: "chunk workers", reason: SystemError.last.reason("cannot make a pipe"))
        }
        readEnd = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        writeEnd = ends[1]
    }

    deinit { close(writeEnd) }

    /// The environment a worker runs with.
    static var workerEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging([variable: "stdin"]) { $1 }
    }

    /// In a worker the engine started (the variable is set): calls `stop` once the engine's end
    /// of the pipe is closed. Elsewhere (a Slurm task, by hand) it does nothing.
    static func watch(stop: @escaping @Sendable () -> Void) {
        guard ProcessInfo.processInfo.environment[variable] == "stdin" else { return }
        StageGroup.detach("vrender-lifeline") {
            var byte: UInt8 = 0
            // Nobody writes (a byte would be ignored): the read ends at end of file, or with a
            // broken descriptor, when the engine is gone.
            while withUnsafeMutableBytes(of: &byte, { (try? Syscall.read(0, into: $0)) ?? 0 }) > 0 {}
            stop()
        }
    }
}
