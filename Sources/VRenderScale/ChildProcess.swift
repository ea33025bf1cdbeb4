import Foundation

/// Starting a child process: the one home for both engines' children (the local engine's
/// chunk workers, the Slurm engine's `sbatch`, `scontrol` and `scancel`).
enum ChildProcess {
    /// Starts `executable` with its stdout and stderr both into `output` and its stdin from
    /// `input`; `environment` nil inherits this process's. `onExit` is called on another thread.
    static func start(_ executable: String, arguments: [String], environment: [String: String]? = nil,
                      input: FileHandle = .nullDevice, output: FileHandle,
                      onExit: (@Sendable (Process) -> Void)? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        process.terminationHandler = onExit
        try process.run()
        return process
    }

    /// Runs `executable` to its end; its exit status and all it wrote (stdout and stderr together).
    static func run(_ executable: String, arguments: [String]) throws -> (status: Int32, output: String) {
        let pipe = Pipe()
        let process = try start(executable, arguments: arguments, output: pipe.fileHandleForWriting)
        // The child has its own copy: ours closed, the read below ends when the child's does.
        try? pipe.fileHandleForWriting.close()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
