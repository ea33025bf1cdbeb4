import ArgumentParser
import VRenderCore
import VRenderVerify
import VRenderWorkerCommands

extension VRender {
    /// `vrender sync`: sound against picture from the synthetic clapper. The logic lives in
    /// VRenderVerify (`SyncCheck`).
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure sound against picture in takes or exports of the synthetic camera and microphone.",
            discussion: """
                The synthetic camera lights a square in the picture's top-left corner on each clap \
                (every whole second, and at a script's 'clap') while the synthetic microphone \
                clicks. sync decodes each file as a player would (edit lists and start times \
                applied), finds the flashes and the clicks' onsets, pairs each flash with the \
                nearest click within half a second and prints offset = click - flash (positive: \
                the sound is late): the median and largest |offset| per file. Clicks are found \
                against the file's own level, so levelled sound (concat --loudness) is judged \
                as the take was. A flash blended by a dissolve or fade, and one with no sound \
                around it (a take's first frame, whose click falls before its sound starts), \
                are skipped and counted apart.

                PATH is a file, or a folder of takes: those its takes.json lists, else its \
                video files by name.

                Exit status: 0 when every file's offsets are within --limit-ms; 1 when one is \
                over, when a flash with sound around it has no click, or when a file has \
                nothing to judge (no sound, no flashes); 1 with an error line for a file that \
                cannot be read.
                """)

        @Argument(help: ArgumentHelp("A video file, or a folder of takes.", valueName: "path"))
        var path: String

        @Option(name: .customLong("limit-ms"), help: ArgumentHelp("Largest |offset| allowed, in milliseconds.", valueName: "ms"))
        var limitMs = SyncCheck.defaultLimitMs

        @Flag(help: "Print the result as JSON (one document: limitMs, ok, files).")
        var json = false

        func validate() throws {
            if !(limitMs > 0 && limitMs.isFinite) { throw ValidationError("--limit-ms must be a positive number of milliseconds, got \(limitMs)") }
        }

        func run() throws {
            let summary = try SyncCheck.check(path, limitMs: limitMs)
            if json {
                try JSONOutput.print(summary)
            } else {
                summary.files.forEach { print($0.summary) }
            }
            if !summary.ok { throw ExitCode(1) }
        }
    }
}
