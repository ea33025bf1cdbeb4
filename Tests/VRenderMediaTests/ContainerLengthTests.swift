import Foundation
import Testing
import VRenderCore
@testable import VRenderMedia
import VRenderTestSupport

/// Export correctness 3, item 1: a take's length is where its last video frame ends, in every
/// container, so that it holds exactly its frames: not ASF's length (its preroll added), nor
/// FLV's or Matroska's (the whole file's, audio longer than the video), nor MPEG-PS's (one
/// frame short), and a raw elementary stream's, which has none, is its frames counted.
@Suite struct ContainerLengthTests {
    let folder = ScratchFolder()

    /// One second of pictures at `rate`, and of a tone lasting `sound` seconds.
    func sources(rate: Int, sound: Double? = 1, sampleRate: Int = 48_000, size: String = "160x120") -> [String] {
        ["-f", "lavfi", "-i", "testsrc2=s=\(size):r=\(rate):d=1"]
            + (sound.map { ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(sampleRate):duration=\($0)"] } ?? [])
    }

    @Test func everyContainerLastsExactlyItsFrames() throws {
        let kinds: [(String, frames: Int, [String])] = [
            ("wmv2.wmv", 25, sources(rate: 25) + ["-c:v", "wmv2", "-c:a", "wmav2"]),
            ("h264_aac.flv", 30, sources(rate: 30) + ["-c:v", "libx264", "-c:a", "aac"]),
            ("h264_aac44.flv", 25, sources(rate: 25, sampleRate: 44_100) + ["-c:v", "libx264", "-c:a", "aac"]),
            ("long_audio.flv", 30, sources(rate: 30, sound: 1.5) + ["-c:v", "libx264", "-c:a", "aac"]),
            ("flv1_mp3.flv", 30, sources(rate: 30, sampleRate: 44_100) + ["-c:v", "flv", "-c:a", "libmp3lame"]),
            // At 320x240 the MPEG-PS header's length leaves out the last frame (0.96 s).
            ("mpeg2.mpg", 25, sources(rate: 25, size: "320x240") + ["-c:v", "mpeg2video", "-c:a", "mp2"]),
            ("mpeg2.vob", 25, sources(rate: 25, size: "320x240") + ["-c:v", "mpeg2video", "-c:a", "mp2"]),
            ("raw.h264", 25, sources(rate: 25, sound: nil) + ["-c:v", "libx264"]),
            ("raw.hevc", 25, sources(rate: 25, sound: nil) + ["-c:v", "libx265", "-x265-params", "log-level=error"]),
            ("long_audio.mkv", 25, sources(rate: 25, sound: 1.5) + ["-c:v", "libx264", "-c:a", "aac"]),
            ("mpeg4_pcm.avi", 25, sources(rate: 25) + ["-c:v", "mpeg4", "-c:a", "pcm_s16le"]),
            ("mpeg4_pcm.nut", 25, sources(rate: 25) + ["-c:v", "mpeg4", "-c:a", "pcm_s16le"]),
            ("mpeg2.ts", 25, sources(rate: 25) + ["-c:v", "mpeg2video", "-c:a", "mp2"]),
            ("long_audio.mov", 30, sources(rate: 30, sound: 1.5) + ["-c:v", "libx264", "-c:a", "aac"]),
        ]
        for (name, frames, arguments) in kinds {
            let path = try folder.ffmpeg(name, arguments)
            let counted = ProgramRun.ffprobe(path, stream: "v", entries: "stream=nb_read_frames", countFrames: true)
            #expect(counted.hasPrefix("\(frames)"), "\(name): ffprobe counts \(counted) frames")
            do {
                let video = try Probe.probe(path).video
                let length = video.duration * video.frameRate.doubleValue
                #expect(abs(length - Double(frames)) < 0.05, "\(name): \(video.duration) s at \(video.frameRate) fps is \(length) frames")
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
    }
}
