import Foundation
import Testing
import VRenderTestSupport

/// README "What vrender guarantees": a capture killed at any moment keeps its take up to at
/// most half a second before the kill, with either codec. Real processes, real SIGKILL.
@Suite struct CrashLossTests {
    let directory = TestMedia.scratchDirectory()

    /// The bound the README states.
    static let maximumLoss = 0.5

    @Test(arguments: ["hevc", "h264"])
    func aKilledTakeKeepsAllButItsLastHalfSecond(codec: String) throws {
        let out = directory + "/" + codec
        let errors = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTests.binary)
        process.arguments = ["capture", "--device", "synthetic", "--out", out, "--duration", "30s", "--realtime",
                             "--size", "320x240", "--codec", codec]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // The take starts when its line arrives (a log, not a terminal, gets one per take).
        var printed = ""
        while !printed.contains("take 1: recording") {
            let chunk = errors.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "capture ended before its take began: \(printed)")
            printed += String(decoding: chunk, as: UTF8.self)
        }
        let started = Date()
        // Kill mid-take, at a moment unrelated to fragment boundaries.
        usleep(2_370_000)
        kill(process.processIdentifier, SIGKILL)
        let elapsed = Date().timeIntervalSince(started)
        process.waitUntilExit()

        let take = out + "/" + (try #require(TestMedia.files(in: out, containing: ".mov").first))
        // The end of the last frame that decodes, from the frames' own capture timestamps.
        let frames = ProgramRun.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries",
                                                         "frame=pts_time,pkt_duration_time", "-of", "csv=p=0", take])
        let last = try #require(frames.standardOutput.split(separator: "\n").last)
        let times = last.split(separator: ",").compactMap { Double($0) }
        try #require(times.count == 2, "\(last)")
        let kept = times[0] + times[1]
        #expect(elapsed - kept <= Self.maximumLoss, "lost \(elapsed - kept) s of \(elapsed) s")
        #expect(frames.standardError.isEmpty, "\(frames.standardError)")
        let decodeErrors = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", take, "-f", "null", "-"]).standardError
        #expect(decodeErrors.isEmpty, "\(decodeErrors)")
        // The sound (`--audio auto`: the synthetic microphone) is kept as far, on the file's clock
        // (both streams start at the video's first frame).
        let video = try #require(ProgramRun.streamSpan(take, "v"))
        let audio = try #require(ProgramRun.streamSpan(take, "a"), "the take has no sound")
        #expect(elapsed - (audio.end - video.start) <= Self.maximumLoss, "lost \(elapsed - (audio.end - video.start)) s of sound")
        #expect(elapsed - (video.end - video.start) <= Self.maximumLoss)
    }
}
