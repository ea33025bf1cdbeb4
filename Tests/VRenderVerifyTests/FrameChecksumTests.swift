import Foundation
import Testing
import VRenderTestSupport
@testable import VRenderVerify

/// frames.txt's hashes are FFmpeg's framemd5: checked against the ffmpeg CLI on every kind of
/// picture layout a decoder hands out (4:2:0, full-range 4:2:2, odd sizes in 10 bits, packed
/// RGB, a palette).
@Suite struct FrameChecksumTests {
    let scratch = ScratchFolder()

    /// Files made here by the ffmpeg CLI, for layouts the shared test media lack.
    private func make(_ name: String, _ arguments: [String]) -> String {
        let path = scratch.path + "/" + name
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments + [path])
        precondition(made.status == 0, made.standardError)
        return path
    }

    /// The md5 column of `ffmpeg -i FILE -map 0:v:0 -f framemd5 -`.
    private func ffmpegFrameMD5s(_ file: String) -> [String] {
        ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-f", "framemd5", "-"])
            .standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { String($0.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)) }
    }

    private func goldenLines(_ file: String, threads: Int = 1) throws -> [GoldenFrame] {
        let decoded = try DecodedFrames(path: file, threads: threads)
        var lines: [GoldenFrame] = []
        while let frame = try decoded.next() { lines.append(try decoded.describe(frame, index: lines.count)) }
        return lines
    }

    @Test(arguments: ["small_a.mov", "mjpeg_422_full.mkv", "hevc_640x480_25_aac44k_mono.mp4", "mpeg4_854x480_24_noaudio.mkv"])
    func hashesAreFFmpegsFrameMD5(_ name: String) throws {
        let lines = try goldenLines(TestMedia.path(name))
        let expected = ffmpegFrameMD5s(TestMedia.path(name))
        #expect(lines.count == expected.count)
        #expect(lines.map(\.md5) == expected)
    }

    @Test func oddSizesPackedRGBAndPalettesHashAsFFmpegDoes() throws {
        let files = [
            make("odd10.mkv", ["-f", "lavfi", "-i", "testsrc2=size=100x68:rate=10:duration=0.5", "-vf", "scale=99:67",
                               "-pix_fmt", "yuv420p10le", "-c:v", "ffv1"]),
            make("rgb.mkv", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=0.5", "-pix_fmt", "rgb24", "-c:v", "ffv1"]),
            make("pal.nut", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=0.5", "-pix_fmt", "pal8", "-c:v", "rawvideo"]),
        ]
        for file in files {
            let lines = try goldenLines(file)
            #expect(lines.count == 5, "\(file)")
            #expect(lines.map(\.md5) == ffmpegFrameMD5s(file), "\(file)")
        }
        let odd = try goldenLines(files[0])
        #expect(odd.first?.size == "99x67")
        #expect(odd.first?.pixelFormat == "yuv420p10le")
    }

    @Test func decoderThreadsChangeNothing() throws {
        let file = TestMedia.path("hevc_640x480_25_aac44k_mono.mp4")
        #expect(try goldenLines(file, threads: 1) == goldenLines(file, threads: 3))
    }

    @Test func timestampsAreTheStreamsInItsTimeBase() throws {
        let decoded = try DecodedFrames(path: TestMedia.path("small_a.mov"), threads: 1)
        #expect(decoded.timeBase.doubleValue > 0)
        var lines: [GoldenFrame] = []
        while let frame = try decoded.next() { lines.append(try decoded.describe(frame, index: lines.count)) }
        // 30 fps: each frame 1/30 s after the last, with its duration stated.
        let step = Int64((1 / 30.0 / decoded.timeBase.doubleValue).rounded())
        #expect(lines.first?.pts == 0)
        #expect(zip(lines, lines.dropFirst()).allSatisfy { ($1.pts ?? 0) - ($0.pts ?? 0) == step })
        #expect(lines.allSatisfy { $0.duration == step })
        #expect(Set(lines.map(\.md5)).count == lines.count, "a moving picture: every frame hashes differently")
    }
}
