import Foundation
import VRenderCore

/// `vrender-worker`, the program chunked exports run for their steps (`render`, `sound`,
/// `join`): the local engine's child processes and the Slurm jobs. It links only what a chunk
/// needs (this module and those below it: no V4L2, ALSA, PulseAudio, web server or studio page),
/// so a worker starts with less to load and a cluster node runs no capture code. `make install`,
/// the .deb and `swift build` all put it beside `vrender`.
public enum WorkerExecutable {
    public static let name = "vrender-worker"

    /// `vrender-worker` in the folder of the running program (/proc/self/exe, its links resolved,
    /// so that a `vrender` reached through a link still finds the worker installed beside it).
    public static var besideThisProgram: String {
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Throws, naming `path` and how to get it, unless it is an executable file: checked before
    /// a plan is made, so that a missing worker costs no work folder and no failed chunk logs.
    static func check(_ path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
              FileManager.default.isExecutableFile(atPath: path) else {
            throw VRenderError(.runtime, subject: path, reason: "no chunk worker there: chunked exports run \(name) from the folder vrender is in; install both (make install, or the .deb), or build it (swift build --product \(name))")
        }
    }
}
