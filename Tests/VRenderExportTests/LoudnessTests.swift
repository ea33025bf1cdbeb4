import Foundation
import Testing
import VRenderCore
import VRenderFilters
import VRenderMedia
import VRenderTestSupport
@testable import VRenderExport

/// `--loudness`: exports of takes of different loudness (made by ffmpeg), judged by ffmpeg's
/// own EBU R128 meter (`-af ebur128=peak=true`), and the limiter on a synthetic signal.
@Suite struct LoudnessTests {
    let directory = TestMedia.scratchDirectory()

    /// A take of `seconds` of 160x120 H.264 at 25 fps with stereo AAC made by `audio` (an
    /// ffmpeg source), every take coded alike (so that they can be stream-copied).
    private func take(_ name: String, seconds: Double, audio: String?) -> String {
        let path = directory + "/" + name
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=\(seconds)"]
        if let audio { arguments += ["-f", "lavfi", "-i", audio, "-ac", "2", "-c:a", "aac", "-b:a", "128k", "-shortest"] }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", path]
        let result = ProgramRun.run("/usr/bin/ffmpeg", arguments)
        precondition(result.status == 0, "ffmpeg: \(result.standardError)")
        return path
    }

    /// Three takes: a sine at -35 dBFS, pink noise near -20 dBFS, and a quiet tone with short
    /// bursts at -6 dBFS whose inter-sample peaks lie above their samples (11 kHz).
    private func takesOfDifferentLoudness() -> [String] {
        [take("quiet.mov", seconds: 1, audio: "aevalsrc=0.0178*sin(2*PI*440*t):s=48000:d=1"),
         take("noise.mov", seconds: 2, audio: "anoisesrc=d=2:c=pink:r=48000:a=0.1"),
         take("peaks.mov", seconds: 1,
              audio: "aevalsrc=0.05*sin(2*PI*1000*t)+0.5*sin(2*PI*11000*t+0.7)*lt(mod(t\\,0.5)\\,0.005):s=48000:d=1")]
    }

    private func export(_ inputs: [String], loudness: Double?, codec: ExportOptions.CodecRequest = .auto,
                        filter: String = "none", output: String = "out.mov") throws -> (ExportPlan, ExportSummary, String) {
        var options = ExportOptions(inputs: inputs, output: directory + "/" + output, filter: try FilterRegistry.chain(filter),
                                    codec: codec, preset: codec == .auto ? nil : "ultrafast")
        options.loudness = loudness
        var plan: ExportPlan?
        let summary = try Exporter(options: options).export { plan = $0 }
        return (try #require(plan), summary, options.output)
    }

    /// ffmpeg's reading of a file: integrated loudness (LUFS) and true peak (dBTP).
    private func ebur128(_ path: String) -> (integrated: Double, truePeak: Double) {
        let log = ProgramRun.run("/usr/bin/ffmpeg", ["-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"])
            .standardError
        let summary = log.components(separatedBy: "Summary:").last ?? ""
        func value(after label: String) -> Double {
            guard let line = summary.split(separator: "\n").first(where: { $0.contains(label) }) else { return .nan }
            return Double(line.split(separator: " ").dropFirst().first { Double($0) != nil } ?? "") ?? .nan
        }
        return (value(after: "I:"), value(after: "Peak:"))
    }

    /// The video packets of a file, as ffmpeg copies them (one MD5 per packet).
    private func videoPackets(_ path: String) -> [String] {
        ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
            .standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }

    @Test(arguments: [-16.0, -23.0])
    func videoCopyReachesTheTargetUnderTheTruePeakLimit(target: Double) throws {
        let takes = takesOfDifferentLoudness()
        let (plan, summary, path) = try export(takes, loudness: target)
        #expect(plan.mode == .copyVideo)
        #expect(plan.reason.contains("--loudness"))
        let reading = ebur128(path)
        #expect(abs(reading.integrated - target) <= 0.5, "ffmpeg reads \(reading.integrated) LUFS")
        #expect(reading.truePeak <= -1, "ffmpeg reads a true peak of \(reading.truePeak) dBTP")
        #expect(summary.loudness?.target == target && summary.loudness?.tracks.first?.gain != nil)
        // The video is the takes' packets unchanged: those of a plain stream copy.
        let (_, _, copy) = try export(takes, loudness: nil, output: "copy.mov")
        #expect(videoPackets(path) == videoPackets(copy))
        #expect(videoPackets(path).count == 100)
    }

    @Test func transcodeWithAFilterReachesTheTarget() throws {
        let (plan, _, path) = try export(takesOfDifferentLoudness(), loudness: -16, codec: .encode(.h264), filter: "mono")
        #expect(plan.mode == .transcode)
        let reading = ebur128(path)
        #expect(abs(reading.integrated + 16) <= 0.5, "ffmpeg reads \(reading.integrated) LUFS")
        #expect(reading.truePeak <= -1, "ffmpeg reads a true peak of \(reading.truePeak) dBTP")
    }

    @Test func theMeasurementIsWhatAPlainExportEncodes() throws {
        // Takes without limiting (no peaks): the measured loudness is ffmpeg's reading of the
        // same export without --loudness, and the gain is target minus it.
        let takes = [take("a.mov", seconds: 2, audio: "aevalsrc=0.0178*sin(2*PI*440*t):s=48000:d=2"),
                     take("b.mov", seconds: 1, audio: "anoisesrc=d=1:c=pink:r=48000:a=0.1")]
        let (plan, _, _) = try export(takes, loudness: -23)
        let (_, _, plain) = try export(takes, loudness: nil, codec: .encode(.h264), output: "plain.mov")
        let track = try #require(plan.loudness?.tracks.first)
        let measured = try #require(track.measured)
        #expect(abs(measured - ebur128(plain).integrated) <= 0.2)
        #expect(abs((track.gain ?? 0) - (-23 - measured)) < 1e-9)
    }

    @Test func silenceIsNotAmplified() throws {
        let takes = [take("silent.mov", seconds: 1, audio: "anullsrc=r=48000:cl=stereo")]
        let (plan, _, path) = try export(takes, loudness: -16)
        let track = try #require(plan.loudness?.tracks.first)
        #expect(track.measured == nil && track.gain == nil)
        #expect(plan.loudness?.lines.first?.contains("silence is not amplified") == true)
        let volume = ProgramRun.run("/usr/bin/ffmpeg", ["-i", path, "-af", "volumedetect", "-f", "null", "-"]).standardError
        #expect(volume.contains("max_volume: -91"))
    }

    @Test func takesWithoutSoundAreLeftAsTheyAre() throws {
        let takes = [take("mute.mov", seconds: 1, audio: nil)]
        let (plan, summary, _) = try export(takes, loudness: -16)
        #expect(plan.mode == .streamCopy && plan.loudness == nil && summary.loudness == nil)
        #expect(plan.notices.contains { $0.contains("--loudness") && $0.contains("no sound") })
    }

    @Test func codecCopyRefusesLoudness() throws {
        let takes = [take("a.mov", seconds: 1, audio: "anoisesrc=d=1:c=pink:r=48000:a=0.1")]
        #expect {
            _ = try export(takes, loudness: -16, codec: .copy)
        } throws: { error in
            let error = error as? VRenderError
            return error?.kind == .option && error?.subject == "--codec copy" && error?.reason.contains("--loudness") == true
        }
    }
}

/// The true-peak limiter alone, on signals whose peaks are known.
@Suite struct TruePeakLimiterTests {
    /// A sine at a quarter of the rate, 45 degrees off: every sample is 0.707 of the wave's
    /// peak, so a sample-peak limiter sees 3 dB less than is there.
    private func quarterRateSine(amplitude: Float, count: Int) -> [Float] {
        (0..<count).flatMap { index -> [Float] in
            let value = amplitude * Float(sin(Double.pi / 2 * Double(index) + Double.pi / 4))
            return [value, value]
        }
    }

    @Test func holdsInterSamplePeaksUnderTheCeilingWithoutMovingTheSound() throws {
        // 0.2 s quiet, 0.2 s of a 0 dBTP wave whose samples read -3 dBFS, 1 s quiet.
        let rate = 48_000
        let quiet = quarterRateSine(amplitude: 0.1, count: rate / 5)
        let input = quiet + quarterRateSine(amplitude: 1, count: rate / 5) + quarterRateSine(amplitude: 0.1, count: rate)
        var shaper = LoudnessShaper(gainDecibels: 0, sampleRate: rate)
        var output: [Float] = []
        for start in stride(from: 0, to: input.count, by: 2048) {
            output += shaper.process(Array(input[start..<Swift.min(start + 2048, input.count)]))
        }
        output += shaper.finish()
        #expect(output.count == input.count)
        // libebur128's true peak of the output (its own 4x interpolation).
        let meter = try LoudnessMeter(sampleRate: rate)
        try meter.add(output)
        let peak = try #require(try meter.truePeak())
        #expect(peak <= LoudnessShaper.limiterCeiling + 0.1, "true peak \(peak) dBTP")
        // Before and long after the loud part the sound is untouched, in place (no delay).
        let changedBefore = (0..<(2 * rate / 10)).filter { output[$0] != input[$0] }.count
        let changedAfter = ((input.count - 2 * rate / 5)..<input.count).filter { output[$0] != input[$0] }.count
        #expect(changedBefore == 0 && changedAfter == 0, "\(changedBefore) and \(changedAfter) samples changed")
        // The gain moves smoothly: between neighbouring samples by far less than a step
        // (a click) would; the samples here are all +-0.707 of the wave.
        let gains = stride(from: 0, to: output.count, by: 2).map { abs(output[$0] / input[$0]) }
        let largestStep = zip(gains, gains.dropFirst()).map { abs($0 - $1) }.max() ?? 0
        #expect(largestStep < 0.01, "the gain jumps by \(largestStep) between samples")
        #expect(gains.min() ?? 1 > 0.5)
    }

    @Test func appliesTheGainExactly() {
        var shaper = LoudnessShaper(gainDecibels: 6.0206, sampleRate: 48_000)
        let input = quarterRateSine(amplitude: 0.1, count: 4800)
        let output = shaper.process(input) + shaper.finish()
        #expect(output.count == input.count)
        #expect(zip(output, input).allSatisfy { abs($0 - 2 * $1) < 1e-5 })
    }
}

/// The plan's loudness lines.
@Suite struct LoudnessPlanLineTests {
    @Test func linesSayMeasuredTargetAndGain() {
        let plain = LoudnessPlan(target: -16, measured: [(-27.3, -9.1)], gains: [11.3], measureSeconds: 0)
        #expect(plain.lines == ["loudness: measured -27.3 LUFS, true peak -9.1 dBTP -> target -16.0 LUFS (gain +11.3 dB, limiter at -1 dBTP)"])
        let limited = LoudnessPlan(target: -16, measured: [(-24.4, -2.9), (nil, nil)], gains: [13.7, nil], measureSeconds: 0)
        #expect(limited.lines == [
            "loudness: track 1: measured -24.4 LUFS, true peak -2.9 dBTP -> target -16.0 LUFS (gain +13.7 dB with +5.3 dB for what the limiter takes, limiter at -1 dBTP)",
            "loudness: track 2: measured silence (below -70 LUFS), true peak none -> left as it is (target -16.0 LUFS: silence is not amplified)",
        ])
    }
}
