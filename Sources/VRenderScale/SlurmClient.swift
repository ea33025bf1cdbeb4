import Foundation
import VRenderCore

/// Slurm's commands as the Slurm engine uses them: `sbatch` to submit, `scontrol` to follow a
/// job, `scancel` to stop one. Every call is a short child process whose output is read whole.
struct SlurmClient: Sendable {
    /// A task of a job array (or a plain job: task nil) and where it stands.
    struct TaskState: Sendable, Equatable {
        var task: Int?
        var state: String
        var exitCode: String

        /// Slurm's states after which nothing more happens to the task.
        var isFinished: Bool {
            ["COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL",
             "DEADLINE", "REVOKED"].contains(state)
        }
        var succeeded: Bool { state == "COMPLETED" && exitCode == "0:0" }
    }

    /// Submits `script` with `arguments` (before the script, as sbatch wants them); returns the
    /// job's id (`--parsable` prints "ID" or "ID;cluster").
    func submit(_ script: String, arguments: [String]) throws -> String {
        let result = try run("sbatch", ["--parsable"] + arguments + [script])
        let id = result.output.split(separator: ";").first.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        guard result.status == 0, !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw VRenderError(.runtime, subject: "sbatch", reason: "could not submit \(script): \(Self.oneLine(result.output))")
        }
        return id
    }

    /// Every task of job `id` as `scontrol -o show job` lists them (pending tasks may share a
    /// record: "ArrayTaskId=3-6"); nil when Slurm no longer knows the job (finished long ago).
    func states(ofJob id: String) throws -> [TaskState]? {
        let result = try run("scontrol", ["-o", "show", "job", id])
        guard result.status == 0 else {
            if result.output.contains("Invalid job id") { return nil }
            throw VRenderError(.runtime, subject: "scontrol", reason: "cannot show job \(id): \(Self.oneLine(result.output))")
        }
        return result.output.split(separator: "\n").flatMap { Self.parse(record: String($0)) }
    }

    /// Cancels jobs (a job array's id cancels all its tasks); a job already gone is no error.
    func cancel(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        _ = try? run("scancel", ids)
    }

    /// One record of `scontrol -o show job`: one task, or one per task of a pending range.
    static func parse(record: String) -> [TaskState] {
        var fields: [String: String] = [:]
        for token in record.split(separator: " ") {
            guard let equals = token.firstIndex(of: "=") else { continue }
            let key = String(token[..<equals])
            if fields[key] == nil { fields[key] = String(token[token.index(after: equals)...]) }
        }
        guard let state = fields["JobState"] else { return [] }
        let exitCode = fields["ExitCode"] ?? ""
        guard let tasks = fields["ArrayTaskId"] else { return [TaskState(task: nil, state: state, exitCode: exitCode)] }
        return taskNumbers(tasks).map { TaskState(task: $0, state: state, exitCode: exitCode) }
    }

    /// "3", "3-6", "1,4-5", "2-9%4" (at most 4 at once) as task numbers.
    static func taskNumbers(_ text: String) -> [Int] {
        let list = text.split(separator: "%").first.map(String.init) ?? text
        return list.split(separator: ",").flatMap { part -> [Int] in
            let bounds = part.split(separator: "-").compactMap { Int($0) }
            switch bounds.count {
            case 1: return [bounds[0]]
            case 2 where bounds[0] <= bounds[1]: return Array(bounds[0]...bounds[1])
            default: return []
            }
        }
    }

    /// Throws unless Slurm's commands are here: checked before anything is planned or written.
    func checkAvailable() throws {
        if let command = SlurmCommands.missing().first { throw Self.missing(command) }
    }

    private static func missing(_ command: String) -> VRenderError {
        VRenderError(.runtime, subject: command, reason: "not found on PATH: --engine slurm runs where Slurm's commands are (a login node); --engine local runs here")
    }

    /// Runs a Slurm command; a missing one is the user's to know of.
    private func run(_ command: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let executable = SlurmCommands.find(command) else { throw Self.missing(command) }
        return try ChildProcess.run(executable, arguments: arguments)
    }

    static func oneLine(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " | ")
    }
}
