import Foundation
import Testing
import VRenderTestSupport

/// Sizes, frame rates and times on the command line: each read once, while the command line is
/// parsed (before any `validate()`), and a bad one refused in the same words by every option of
/// its syntax, naming the option, with the usage exit status 2 and the help hint.
@Suite struct OptionValueTests {
    let directory = TestMedia.scratchDirectory()

    /// Runs `arguments` and checks it is refused as a usage error whose message is `message`.
    private func expectRefused(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let run = ProgramRun.run(CommandLineTests.binary, arguments)
        let lines = run.standardError.split(separator: "\n").map(String.init)
        #expect(run.status == 2, "\(arguments): \(run.standardError)", sourceLocation: sourceLocation)
        #expect(lines.first == "vrender: error: \(message)", "\(arguments)", sourceLocation: sourceLocation)
        #expect(lines.count == 2 && lines[1].hasPrefix("see 'vrender "), "\(run.standardError)", sourceLocation: sourceLocation)
    }

    /// Each command with what it needs besides the value, and a value of its own that fails
    /// `validate()`: were the value under test accepted, the command stops there, never running.
    private var sizeCommands: [[String]] {
        [["capture", "--device", "synthetic", "--out", directory + "/c", "--takes", "0"],
         ["studio", "--device", "synthetic", "--out", directory + "/s", "--port", "70000"],
         ["demo", "--out", directory + "/d"],
         ["bench", "capture", "--frames", "0"], ["bench", "filter", "--frames", "0"], ["bench", "soak", "--rounds", "1"],
         ["concat"], ["bench", "concat"]]
    }

    @Test func aBadSizeIsRefusedInOneWordingByEveryCommand() {
        for command in sizeCommands {
            expectRefused(command + ["--size", "13x7"], "--size '13x7' is not WxH with even, positive sides (e.g. 1280x720)")
        }
    }

    @Test func aBadFrameRateIsRefusedInOneWordingByEveryCommand() {
        let message = "--fps 'fast' is not a frame rate between 0 and 1000 (e.g. 30, 29.97, 30000/1001)"
        for command in [sizeCommands[0], sizeCommands[1], sizeCommands[3], sizeCommands[6]] {
            expectRefused(command + ["--fps", "fast"], message)
        }
    }

    @Test func badTimesAreRefusedInOneWording() {
        let capture = sizeCommands[0]
        expectRefused(capture + ["--preroll", "x"], "--preroll 'x' is not a time (e.g. 0.5, 0.5s, 500ms, 1:02.5)")
        expectRefused(["filters", "--at", "soon"], "--at 'soon' is not a time (e.g. 0.5, 0.5s, 500ms, 1:02.5)")
        expectRefused(capture + ["--duration", "0s"], "--duration '0s' is not a positive time (e.g. 0.5, 0.5s, 500ms, 1:02.5)")
        expectRefused(["bench", "capture", "--seconds", "0"], "--seconds '0' is not a positive time (e.g. 0.5, 0.5s, 500ms, 1:02.5)")
        expectRefused(["concat", "--trim-silence", "--cut-pauses", "-1s"], "--cut-pauses '-1s' is not a positive time (e.g. 0.5, 0.5s, 500ms, 1:02.5)")
    }

    /// Codecs by their other names, and a near miss told what it probably meant (once, the
    /// generic "'h266' is not one of auto, hevc, ..." from ArgumentParser, with no hint).
    @Test func codecsAreReadByTheirOtherNamesWithAHintForANearMiss() {
        expectRefused(["concat", "--codec", "h266"], "--codec 'h266' is not one of auto, hevc, h264, ffv1, vp9, av1, copy; "
                      + "did you mean 'h264'?")
        expectRefused(sizeCommands[0] + ["--codec", "vp9"], "--codec 'vp9' is not one of auto, hevc, h264, ffv1")
        expectRefused(sizeCommands[0] + ["--codec", "libvpx-vp9"], "--codec 'libvpx-vp9' is not one of auto, hevc, h264, ffv1 "
                      + "(vp9 is not one of them)")
        // Accepted: the run reaches validate(), which refuses the zero takes instead.
        for name in ["h265", "H.265", "libx264", "HEVC"] {
            let run = ProgramRun.run(CommandLineTests.binary, sizeCommands[0] + ["--codec", name])
            #expect(run.status == 2 && run.standardError.contains("--takes"), "\(name): \(run.standardError)")
        }
    }

    /// The value is read while parsing, so it is refused before `validate()` looks at the
    /// options together: `concat` without inputs names the bad size, not the missing inputs.
    @Test func aBadValueIsRefusedBeforeValidation() {
        expectRefused(["concat", "--size", "1281x720"], "--size '1281x720' is not WxH with even, positive sides (e.g. 1280x720)")
    }

    /// Good values reach the command as they were typed: the preview's past-the-end warning
    /// quotes --at as given, and the defaults still apply.
    @Test func goodValuesReachTheCommand() {
        let output = directory + "/p.png"
        let run = ProgramRun.run(CommandLineTests.binary, ["filters", "--preview", TestMedia.path("small_a.mov"), "-o", output,
                                                          "--at", "1m", "--gpu", "cpu"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.hasPrefix("vrender: warning: --at 1m is past the end of "))
        #expect(run.standardOutput.contains(" filters on "))
        let help = ProgramRun.run(CommandLineTests.binary, ["bench", "capture", "--help"])
        #expect(help.standardOutput.contains("default 1920x1080") && help.standardOutput.contains("default 30"))
    }
}
