import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat --loudness`: the plan line, option errors, and a chunked export, whose join
/// measures the whole export's sound (not a chunk's) and so writes the sound a one-pass export
/// writes.
@Suite struct LoudnessCommandTests {
    let directory = TestMedia.scratchDirectory()
    /// 5 s in all: a take with stereo sound, one with mono sound at 44.1 kHz, one without.
    let takes = ["small_a.mov", "hevc_640x480_25_aac44k_mono.mp4", "mpeg4_854x480_24_noaudio.mkv"].map(TestMedia.path)

    func concat(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run(CommandLineTests.binary, ["concat"] + arguments + ["--progress", "none"])
    }

    func readings(_ file: String) -> (integrated: Double, truePeak: Double) {
        let log = ProgramRun.run("/usr/bin/ffmpeg", ["-nostats", "-i", file, "-af", "ebur128=peak=true", "-f", "null", "-"])
            .standardError.components(separatedBy: "Summary:").last ?? ""
        func value(_ label: String) -> Double {
            let line = log.split(separator: "\n").first { $0.contains(label) } ?? ""
            return Double(line.split(separator: " ").first { Double($0) != nil } ?? "") ?? .nan
        }
        return (value("I:"), value("Peak:"))
    }

    func audioMD5(_ file: String) -> String {
        ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:a", "-f", "md5", "-"]).standardOutput
    }

    @Test func chunkedExportSoundsAsOnePass() throws {
        let whole = directory + "/whole.mkv", chunked = directory + "/chunked.mkv"
        let one = concat(takes + ["--codec", "ffv1", "--loudness", "-23", "-o", whole])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardError.contains("plan: loudness: measured "), "\(one.standardError)")
        #expect(one.standardError.contains("-> target -23.0 LUFS"), "\(one.standardError)")
        let run = concat(takes + ["--codec", "ffv1", "--loudness", "-23", "-o", chunked, "--engine", "local", "--chunks", "3",
                                  "--workers", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!audioMD5(whole).isEmpty && audioMD5(chunked) == audioMD5(whole))
        let reading = readings(chunked)
        #expect(abs(reading.integrated + 23) <= 0.5 && reading.truePeak <= -1, "ffmpeg reads \(reading)")
    }

    @Test(arguments: [["--loudness", "-80"], ["--loudness", "-3"], ["--loudness", "loud"],
                      ["--loudness", "-16", "--codec", "copy"]])
    func badLoudnessIsAnErrorNamingTheOption(arguments: [String]) {
        let output = directory + "/out.mov"
        let run = concat([TestMedia.path("small_a.mov"), "-o", output] + arguments)
        #expect(run.status == 2)
        #expect(run.standardError.contains("--loudness"), "\(run.standardError)")
        if arguments.contains("copy") {
            #expect(run.standardError.contains("--codec copy"))
        } else {
            // Refused while parsing, in ValueSyntaxError's words: the option, the value, what it must be.
            #expect(run.standardError.contains("vrender: error: --loudness '\(arguments[1])' is not a loudness in LUFS from -70 to -5"),
                    "\(run.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
