import Foundation
import Testing
import VRenderTestSupport

/// Judges an export's timing the way a player shows it, with FFmpeg's own tools: which pictures
/// come out in order, when they are shown, when a sound starts. For the edit-list and
/// variable-frame-rate tests; inputs are made with the ffmpeg CLI in each test.
enum TimingJudge {
    /// Runs `ffmpeg -v error -y ARGUMENTS`, expecting success (test media).
    static func ffmpeg(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments)
        #expect(run.status == 0, "ffmpeg \(arguments.joined(separator: " ")): \(run.standardError)",
                sourceLocation: sourceLocation)
    }

    /// Every picture ffmpeg decodes from `file` (as a player shows them, none repeated or
    /// dropped), as 8-bit luma at 160x90; `filter` (e.g. "fps=30") runs first.
    static func pictures(_ file: String, filter: String? = nil) -> [[UInt8]] {
        let chain = (filter.map { $0 + "," } ?? "") + "scale=160:90,format=gray"
        let run = ProgramRun.runBinary("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-vf", chain,
                                                            "-fps_mode", "passthrough", "-f", "rawvideo", "-"])
        let size = 160 * 90
        return stride(from: 0, to: run.count - size + 1, by: size).map { Array(run[$0..<$0 + size]) }
    }

    /// Peak signal-to-noise ratio of two equal-sized 8-bit pictures, in dB (infinity: equal).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        let squared = zip(a, b).reduce(0.0) { sum, pair in
            let difference = Double(pair.0) - Double(pair.1)
            return sum + difference * difference
        }
        let mean = squared / Double(a.count)
        return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }

    /// Presentation times (seconds) of the frames ffprobe decodes from the video of `file`.
    static func frameTimes(_ file: String) -> [Double] {
        let run = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                      "frame=pts_time", "-of", "csv=p=0", file])
        return run.standardOutput.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
    }

    /// Times in `file` (its audio stream's start plus the decoded samples before) where each
    /// sound starts: a sample over 0.1 after at least 0.1 s of quiet (mono, 48 kHz).
    static func soundOnsets(_ file: String) -> [Double] {
        let start = Double(ProgramRun.ffprobe(file, stream: "a:0", entries: "stream=start_time")) ?? 0
        let raw = ProgramRun.runBinary("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:a:0", "-ac", "1",
                                                            "-ar", "48000", "-f", "f32le", "-"])
        let samples: [Float] = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        var onsets: [Double] = []
        var quiet = 4800
        for (index, sample) in samples.enumerated() {
            if abs(sample) > 0.1 {
                if quiet >= 4800 { onsets.append(start + Double(index) / 48_000) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        return onsets
    }

    /// The "N frames" vrender's summary line reports, nil when there is none.
    static func reportedFrames(_ run: ProgramRun) -> Int? {
        let text = run.standardOutput + run.standardError
        guard let range = text.range(of: #"s, ([0-9]+) frames,"#, options: .regularExpression) else { return nil }
        return Int(text[range].dropFirst(3).prefix { $0.isNumber })
    }
}

extension ProgramRun {
    /// Runs a program and returns its standard output's bytes (standard error is discarded).
    static func runBinary(_ executable: String, _ arguments: [String]) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return Data() }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : Data()
    }
}
