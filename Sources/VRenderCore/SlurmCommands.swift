import Foundation

/// The Slurm commands `--engine slurm` runs, looked up on PATH. In VRenderCore, not beside the
/// Slurm engine, because `vrender doctor` names them too, and a PATH search should not make the
/// doctor link the exporter and the chunk engines (libebur128, libvidstab, libcrypto).
package enum SlurmCommands {
    package static let names = ["sbatch", "scontrol", "scancel"]

    /// Those of `names` not found on PATH (`vrender doctor` names them).
    package static func missing() -> [String] {
        names.filter { find($0) == nil }
    }

    /// The executable `command` runs as, or nil when no folder on PATH has it.
    package static func find(_ command: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(command)" }.first { access($0, X_OK) == 0 }
    }
}
