import Foundation
import Testing
import VRenderTestSupport

/// Runs of the built `vrender` on inputs made to break it, each under `timeout`: a run that hangs
/// is killed after `limit` seconds and reads as status 124 (SIGTERM ignored: 137), one killed by
/// a signal as 128 + the signal. The limit is a hang guard, generous for a debug build on a
/// busy machine, never a timing assertion.
enum GuardedRun {
    static let limit = 120

    /// `vrender ARGUMENTS...` under the hang guard.
    static func vrender(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run("/usr/bin/timeout", ["-k", "10", String(limit), CommandLineTests.binary] + arguments)
    }

    /// `bash -c SCRIPT`, in which `vrender` is the binary under the hang guard and `extra` is in
    /// the environment: for what `Process` cannot do, such as passing file names that are not
    /// UTF-8 (`"$(printf '\377')"`) or lowering a resource limit (`ulimit -f`).
    static func shell(_ script: String, _ extra: [String: String] = [:]) -> ProgramRun {
        var environment = ProcessInfo.processInfo.environment
        environment["VRENDER_BINARY"] = CommandLineTests.binary
        environment.merge(extra) { $1 }
        let guarded = "vrender() { /usr/bin/timeout -k 10 \(limit) \"$VRENDER_BINARY\" \"$@\"; }\n"
        return ProgramRun.run("/bin/bash", ["-c", guarded + script], environment: environment)
    }

    /// The `vrender: error:` lines of a run.
    static func errorLines(_ run: ProgramRun) -> [String] { errorLines(run.standardError) }

    static func errorLines(_ standardError: String) -> [String] {
        standardError.split(separator: "\n").filter { $0.hasPrefix("vrender: error: ") }.map(String.init)
    }

    /// Expects the run to have failed as bad input must: exit status 1 and exactly one error
    /// line, which contains `mentions` (the file's name, and why).
    static func expectFailure(_ run: ProgramRun, mentions: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectFailure(status: run.status, standardError: run.standardError, mentions: mentions, sourceLocation: sourceLocation)
    }

    static func expectFailure(status: Int32, standardError: String, mentions: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == 1, "status \(status): \(standardError)", sourceLocation: sourceLocation)
        let errors = errorLines(standardError)
        #expect(errors.count == 1, "\(standardError)", sourceLocation: sourceLocation)
        #expect(errors.first?.contains(mentions) == true, "expected '\(mentions)' in: \(standardError)",
                sourceLocation: sourceLocation)
    }

    /// What ffprobe finds in an output: decoded video frames, picture size, container duration.
    struct Probed: Equatable, CustomStringConvertible {
        var frames: Int
        var width: Int
        var height: Int
        var seconds: Double

        var description: String { "\(frames) frames, \(width)x\(height), \(seconds) s" }
    }

    static func probe(_ file: String) -> Probed? {
        let run = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                       "-show_entries", "stream=nb_read_frames,width,height:format=duration",
                                                       "-of", "default=nw=1", file])
        var values: [String: String] = [:]
        for line in run.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard run.status == 0, let frames = values["nb_read_frames"].flatMap({ Int($0) }),
              let width = values["width"].flatMap({ Int($0) }), let height = values["height"].flatMap({ Int($0) }),
              let seconds = values["duration"].flatMap({ Double($0) }) else { return nil }
        return Probed(frames: frames, width: width, height: height, seconds: seconds)
    }

    /// A fresh empty folder for one test's outputs; `remove` it when done.
    static func folder() -> String { TestMedia.scratchDirectory() }

    static func remove(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }

    /// Every file in `folder`, hidden ones (a temporary file left behind) included.
    static func contents(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
