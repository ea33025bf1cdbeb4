import Foundation
import Testing
import VRenderTestSupport

/// Issue 21, item 5: damaged and truncated takes. A stream copy checks what it copies; a take
/// with damage is transcoded instead, with a warning naming it and where, and the sound after
/// the damage keeps its time. Inputs are made by ffmpeg here; outputs are judged by ffmpeg.
@Suite struct DamagedExportTests {
    let folder = TestMedia.scratchDirectory()

    func vrender(_ arguments: [String]) -> ProgramRun {
        GuardedRun.vrender(["concat"] + arguments + ["--progress", "none"])
    }

    /// Runs ffmpeg, expecting success.
    func ffmpeg(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments)
        #expect(run.status == 0, "ffmpeg \(arguments): \(run.standardError)", sourceLocation: sourceLocation)
    }

    /// A 320x180 30 fps H.264 + AAC take of `seconds`, silent but for 0.1 s beeps starting at
    /// `beeps` (seconds into the take).
    func take(_ name: String, seconds: Int, beeps: [Double], extra: [String] = []) -> String {
        let path = folder + "/" + name
        let gate = beeps.map { "between(t,\($0),\($0 + 0.1))" }.joined(separator: "+")
        ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=\(seconds)",
                "-f", "lavfi", "-i", "sine=f=1000:d=\(seconds):sample_rate=48000,volume='6*gt(\(gate),0)':eval=frame",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-c:a", "aac"] + extra + [path])
        return path
    }

    /// `count` bytes from `offset` replaced by ones from a fixed-seed generator.
    func scramble(_ path: String, at offset: Int, count: Int) throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var state: UInt64 = 0x5EED
        for index in offset..<Swift.min(offset + count, bytes.count) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func expectOnset(_ onsets: [Double], near expected: Double, within tolerance: Double = 0.025,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(onsets.contains { abs($0 - expected) <= tolerance }, "no beep at \(expected) s: onsets \(onsets)",
                sourceLocation: sourceLocation)
    }

    /// The warning of a take transcoded because of damage.
    func expectFallbackWarning(_ run: ProgramRun, naming path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let line = run.standardError.split(separator: "\n").first { $0.contains("transcoded instead of stream-copied") }
        #expect(line?.contains("\(path): damaged data at ") == true, "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardOutput.contains("(transcode)"), "\(run.standardOutput)", sourceLocation: sourceLocation)
    }

    /// A .ts with 4 KiB scrambled mid-way: was refused or copied silently, and the sound after
    /// the damage ran early when transcoded.
    func damagedTransportStream() throws -> String {
        let path = take("damaged.ts", seconds: 4, beeps: [0.5, 1.5, 2.5, 3.5], extra: ["-f", "mpegts"])
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        try scramble(path, at: size / 2 / 188 * 188 + 17, count: 4096)
        // FFmpeg notices: lost pieces ("Packet corrupt" warnings) and frames short of 120.
        let check = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "warning", "-i", path, "-f", "null", "-"])
        #expect(check.standardError.contains("Packet corrupt"), "the scrambled take should be damaged: \(check.standardError)")
        return path
    }

    @Test func damagedTransportStreamAloneIsTranscodedAndSaysWhere() throws {
        let input = try damagedTransportStream()
        let output = folder + "/alone.mp4"
        let run = vrender([input, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        expectFallbackWarning(run, naming: input)
        #expect(ProgramRun.decodeErrors(output) == "")
        #expect(ProgramRun.decodedFrames(output) == 120)
        // The beep after the damage at its own time (the one in the hole, if any, is lost).
        let onsets = ProgramRun.beepOnsets(output, scratch: folder)
        expectOnset(onsets, near: 3.5)
        for onset in onsets {
            #expect([0.5, 1.5, 2.5, 3.5].contains { abs($0 - onset) <= 0.025 }, "a beep out of place: \(onsets)")
        }
    }

    @Test func damagedTransportStreamJoinedKeepsTheNextTakeInTime() throws {
        let input = try damagedTransportStream()
        let next = take("next.ts", seconds: 2, beeps: [0.25], extra: ["-f", "mpegts"])
        let output = folder + "/joined.mp4"
        let run = vrender([input, next, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        expectFallbackWarning(run, naming: input)
        #expect(ProgramRun.decodeErrors(output) == "")
        #expect(ProgramRun.decodedFrames(output) == 180)
        let onsets = ProgramRun.beepOnsets(output, scratch: folder)
        expectOnset(onsets, near: 3.5)
        expectOnset(onsets, near: 4.25)
    }

    /// Joined with a take whose audio differs (44.1 kHz), the video alone would be copied: the
    /// damaged video stops that copy too.
    @Test func damagedTransportStreamStopsAVideoCopy() throws {
        let input = try damagedTransportStream()
        let next = take("next.ts", seconds: 2, beeps: [0.25], extra: ["-ar", "44100", "-f", "mpegts"])
        let output = folder + "/joined.mp4"
        let run = vrender([input, next, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("plan: video copied, audio re-encoded"), "\(run.standardError)")
        expectFallbackWarning(run, naming: input)
        #expect(ProgramRun.decodeErrors(output) == "")
        #expect(ProgramRun.decodedFrames(output) == 180)
        let onsets = ProgramRun.beepOnsets(output, scratch: folder)
        expectOnset(onsets, near: 3.5)
        expectOnset(onsets, near: 4.25)
    }

    /// A faststart .mp4 cut at 60% of its size: was copied without a word, with a corrupt last
    /// AAC packet, and the next take's sound started 67 ms early.
    func truncatedTake() throws -> String {
        let whole = take("whole.mp4", seconds: 1, beeps: [0.2], extra: ["-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let path = folder + "/cut.mp4"
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func truncatedTakeIsTranscodedAndTheNextTakeSoundsAtItsVideo() throws {
        let input = try truncatedTake()
        let frames = ProgramRun.decodedFrames(input)
        #expect(frames > 10 && frames < 30, "the cut take keeps part of its 30 frames: \(frames)")

        let alone = folder + "/alone.mp4"
        let single = vrender([input, "-o", alone])
        #expect(single.status == 0, "\(single.standardError)")
        expectFallbackWarning(single, naming: input)
        #expect(ProgramRun.decodeErrors(alone) == "")
        // The take is as long as a player shows it: its index still lists the 30 frames it was
        // meant to have, and the lost ones were a frozen picture.
        let aloneFrames = ProgramRun.decodedFrames(alone)
        #expect(aloneFrames == frames, "\(aloneFrames) frames from \(frames)")

        let next = take("next.mp4", seconds: 1, beeps: [0.25], extra: ["-movflags", "+faststart"])
        let joined = folder + "/joined.mp4"
        let run = vrender([input, next, "-o", joined])
        #expect(run.status == 0, "\(run.standardError)")
        expectFallbackWarning(run, naming: input)
        #expect(ProgramRun.decodeErrors(joined) == "")
        let joinedFrames = ProgramRun.decodedFrames(joined)
        #expect(joinedFrames == aloneFrames + 30)
        // Within one AAC frame (21 ms) of where the next take's video puts it.
        expectOnset(ProgramRun.beepOnsets(joined, scratch: folder), near: Double(joinedFrames - 30) / 30 + 0.25, within: 0.021)
    }

    @Test func truncatedTakeUnderCodecCopyIsAnErrorNamingIt() throws {
        let input = try truncatedTake()
        let output = folder + "/copy.mp4"
        let run = vrender([input, "-o", output, "--codec", "copy"])
        #expect(run.status == 1)
        GuardedRun.expectFailure(run, mentions: input + ": damaged data at ")
        #expect(run.standardError.contains("leave out --codec copy"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(GuardedRun.contents(of: folder) == ["cut.mp4", "whole.mp4"], "nothing is written")
    }

    /// Bytes overwritten inside one AAC packet of an .mp4: the container is intact, so only
    /// decoding the audio on the way finds it. The copy carried it silently.
    /// Scrambles the first AAC packet of `path` from `seconds` on (all but its first byte), so
    /// that it does not decode; returns its time.
    @discardableResult
    func scrambleAudioPacket(_ path: String, from seconds: Double) throws -> Double {
        let packets = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries",
                                                          "packet=pts_time,pos,size", "-of", "csv=p=0", path])
        let target = packets.standardOutput.split(separator: "\n").map { $0.split(separator: ",") }
            .first { ($0.first.flatMap { Double($0) } ?? 0) >= seconds }
        // ffprobe prints its own field order: pts_time, size, pos.
        let time = try #require(target.flatMap { Double($0[0]) })
        let size = try #require(target.flatMap { Int($0[1]) }), position = try #require(target.flatMap { Int($0[2]) })
        try scramble(path, at: position + 1, count: size - 1)
        #expect(!ProgramRun.decodeErrors(path).isEmpty, "the scrambled packet should not decode")
        return time
    }

    @Test func scrambledAudioInsideAnMP4IsFoundByDecodingIt() throws {
        let input = take("scrambled.mp4", seconds: 3, beeps: [0.5, 2.5])
        try scrambleAudioPacket(input, from: 1.5)

        let output = folder + "/out.mp4"
        let run = vrender([input, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        expectFallbackWarning(run, naming: input)
        #expect(run.standardError.contains("audio that does not decode"), "\(run.standardError)")
        #expect(ProgramRun.decodeErrors(output) == "")
        #expect(ProgramRun.decodedFrames(output) == 90)
        let onsets = ProgramRun.beepOnsets(output, scratch: folder)
        expectOnset(onsets, near: 0.5)
        expectOnset(onsets, near: 2.5)
    }

    /// Takes alike decode their audio with one decoder, flushed between them (and on a thread
    /// of its own, the verdict trailing the copy): damage in the third take, whose decoder
    /// decoded the second, is still that take's, at its own time; healthy takes raise no alarm.
    @Test func scrambledAudioAmongAlikeTakesIsBlamedOnItsTake() throws {
        let one = take("one.mp4", seconds: 2, beeps: [0.5]), two = take("two.mp4", seconds: 2, beeps: [0.5])
        let healthy = folder + "/healthy.mp4"
        let clean = vrender([one, two, one, two, "-o", healthy, "--codec", "copy"])
        #expect(clean.status == 0, "\(clean.standardError)")
        #expect(!clean.standardError.contains("warning"), "\(clean.standardError)")

        let damaged = take("damaged.mp4", seconds: 2, beeps: [0.5])
        let time = try scrambleAudioPacket(damaged, from: 1.2)
        let output = folder + "/copy.mp4"
        let run = vrender([one, two, damaged, one, "-o", output, "--codec", "copy"])
        GuardedRun.expectFailure(run, mentions: damaged + ": damaged data at \(String(format: "%.1f", time)) s (audio that does not decode)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A hole in a take's audio timestamps (0.4 s of AAC frames missing, as damage leaves it):
    /// the transcode lays silence in it, so the beep after it keeps its time. It came 0.4 s
    /// early when every frame after the first was laid end to end.
    @Test func soundAfterAHoleKeepsItsTime() {
        let input = folder + "/hole.mkv"
        ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=3", "-f", "lavfi",
                "-i", "sine=f=1000:d=3:sample_rate=48000,volume='6*gt(between(t,0.5,0.6)+between(t,2.0,2.1),0)':eval=frame,"
                    + "aselect='not(between(t,1.0,1.4))'",
                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", input])
        let output = folder + "/out.mp4"
        let run = vrender([input, "-o", output, "--codec", "h264", "--preset", "ultrafast"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(ProgramRun.decodeErrors(output) == "")
        let onsets = ProgramRun.beepOnsets(output, scratch: folder)
        expectOnset(onsets, near: 0.5)
        expectOnset(onsets, near: 2.0)
        #expect(onsets.count == 2, "\(onsets)")
    }

    /// The checks cost no false alarm: a healthy .ts is still copied, without a warning.
    @Test func healthyTakeIsStillCopied() throws {
        let input = take("healthy.ts", seconds: 2, beeps: [0.5], extra: ["-f", "mpegts"])
        let output = folder + "/out.mp4"
        let run = vrender([input, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("(stream-copy)"), "\(run.standardOutput)")
        #expect(!run.standardError.contains("warning"), "\(run.standardError)")
    }
}
