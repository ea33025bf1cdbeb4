import Foundation
import Testing
import VRenderTestSupport

/// `vrender concat` on inputs made to break it (`scripts/make-hostile-media.sh`): each exports
/// to an output ffprobe finds sane (frames, size, length), or fails with exit status 1 and one
/// error line naming the file and why. Never a signal, a hang or a silently wrong output.
/// Every input is exported twice: as a stream copy when one is possible (into .mkv, which holds
/// any codec and size), and transcoded with a filter (every decoder, the normalizer, the filter
/// and the encoder see it).
@Suite struct HostileInputTests {
    enum Outcome: Sendable {
        /// Exit 0 and an output of this many frames, this size and length.
        case exports(frames: ClosedRange<Int>, size: String, seconds: ClosedRange<Double>)
        /// Exit 1 and an error line naming the input with this reason.
        case fails(String)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var copy: Outcome
        /// When transcoding differs from copying (an even canvas, another frame count).
        var transcode: Outcome?

        init(_ file: String, _ copy: Outcome, transcode: Outcome? = nil) {
            self.file = file
            self.copy = copy
            self.transcode = transcode
        }

        var testDescription: String { file }
    }

    static let oneSecond = 0.95...1.05
    /// 30 frames of 320x240 in a second: what most inputs are made of.
    static let ordinary = Outcome.exports(frames: 30...30, size: "320x240", seconds: oneSecond)

    static let cases: [Case] = [
        // Sizes: the codec's own size wins over a container's wrong one; a huge one is refused
        // from the header, before any picture is allocated.
        Case("stsd_65535x65535_h264.mov", ordinary),
        Case("stsd_0x0_h264.mov", ordinary),
        Case("mkv_pixelwidth_65535_h264.mkv", ordinary),
        Case("mkv_pixelwidth_0_h264.mkv", ordinary),
        Case("size_65535x65535_mjpeg.mov", .fails("picture size 65535x65535 is over vrender's limit of 16384 pixels per side")),
        Case("size_20000x12000_mjpeg.mov", .fails("picture size 20000x12000 is over vrender's limit")),
        Case("size_8200x8200_mjpeg.mov", .fails("picture size 8200x8200 (67.2 Mpixels) is over vrender's limit of 35.7 Mpixels")),
        Case("size_16400x16_ffv1.mkv", .fails("picture size 16400x16 is over vrender's limit")),
        Case("size_64x0_mjpeg.mov", .fails("no picture of its mjpeg video could be decoded")),
        Case("tiny_2x2.mkv", .exports(frames: 30...30, size: "2x2", seconds: oneSecond)),
        // Time bases, frame rates and lengths.
        Case("timebase_1e-9.mov", ordinary),
        Case("timebase_1_fps_1e-6.mov", .fails("hours long, over vrender's limit of 24 hours")),
        // 29 frames a microsecond apart, the last one shown 1/30 s: what the file says.
        Case("fps_1e6.mov", .exports(frames: 30...30, size: "320x240", seconds: 0.03...0.04)),
        Case("fps_1e6_all.mov", .fails("frame rate 1000000 fps (a frame every 1e-06 s) is outside what vrender joins")),
        Case("fps_1_per_2h.mov", .fails("frame rate 1/4800 fps (a frame every 4800 s) is outside what vrender joins")),
        Case("mkv_duration_1e9ms.mkv", ordinary),
        Case("mkv_duration_1ms.mkv", ordinary),
        Case("mdhd_duration_huge.mov", ordinary),
        Case("mkv_timescale_1ns.mkv", .fails("s, less than one frame at its 30 fps")),
        Case("one_frame.mov", .exports(frames: 1...1, size: "320x240", seconds: 0.03...0.04)),
        Case("zero_frames.mov", .fails("has no video frames (a take of zero length)")),
        Case("vfr.mkv", .exports(frames: 35...35, size: "320x240", seconds: 0.9...0.95),
             transcode: .exports(frames: 55...55, size: "320x240", seconds: 0.9...0.95)),  // at its 60 fps
        Case("bframes_h264.mp4", ordinary),
        Case("bframes_hevc.mov", ordinary),
        // Pixel formats and odd sizes (a transcode's canvas is even).
        Case("hevc_10bit.mov", ordinary),
        Case("h264_422.mov", ordinary),
        Case("h264_444.mp4", ordinary),
        Case("prores_422_10bit.mov", ordinary),
        Case("odd_321x241_444.mp4", .exports(frames: 30...30, size: "321x241", seconds: oneSecond), transcode: ordinary),
        Case("odd_321x241_420.webm", .exports(frames: 30...30, size: "321x241", seconds: oneSecond), transcode: ordinary),
        // Not videos, or damaged ones: what is readable is exported, at the length it has.
        Case("audio_only.m4a", .fails("no video stream (only audio)")),
        Case("attachment_only.mkv", .fails("cannot be read as a video")),
        Case("avcc_zeroed.mov", .fails("no picture of its h264 video could be decoded")),
        Case("truncated_no_index.mov", .fails("truncated before its index")),
        Case("truncated_half.mkv", .exports(frames: 14...15, size: "320x240", seconds: 0.45...0.55)),
        Case("truncated_half_frag.mov", .exports(frames: 14...15, size: "320x240", seconds: 0.45...0.55)),
    ]

    static func input(_ file: String) -> String { TestMedia.path("hostile/" + file) }

    @Test(arguments: cases)
    func streamCopyExportsOrNamesTheFile(_ test: Case) {
        let folder = GuardedRun.folder()
        defer { GuardedRun.remove(folder) }
        let run = GuardedRun.vrender(["concat", Self.input(test.file), "-o", folder + "/out.mkv", "--progress", "none"])
        Self.expect(run, test.copy, input: Self.input(test.file), output: folder + "/out.mkv")
    }

    @Test(arguments: cases)
    func filteredTranscodeExportsOrNamesTheFile(_ test: Case) {
        let folder = GuardedRun.folder()
        defer { GuardedRun.remove(folder) }
        let output = folder + "/out.mp4"
        let run = GuardedRun.vrender(["concat", Self.input(test.file), "-o", output, "--filter", "mono",
                                      "--preset", "ultrafast", "--progress", "none"])
        Self.expect(run, test.transcode ?? test.copy, input: Self.input(test.file), output: output)
    }

    /// A hostile take between ordinary ones takes the length its packets have: a header that
    /// claims a million seconds neither stalls the export nor stretches the output.
    @Test func aLyingTakeBetweenOrdinaryOnesKeepsItsRealLength() {
        let folder = GuardedRun.folder()
        defer { GuardedRun.remove(folder) }
        let output = folder + "/joined.mkv"
        let takes = ["base_h264.mov", "mkv_duration_1e9ms.mkv", "truncated_half_frag.mov"].map(Self.input)
        let run = GuardedRun.vrender(["concat"] + takes + ["-o", output, "--codec", "h264", "--preset", "ultrafast", "--progress", "none"])
        Self.expect(run, .exports(frames: 74...75, size: "320x240", seconds: 2.45...2.56), input: takes[1], output: output)
    }

    static func expect(_ run: ProgramRun, _ outcome: Outcome, input: String, output: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let folder = (output as NSString).deletingLastPathComponent
        switch outcome {
        case .exports(let frames, let size, let seconds):
            #expect(run.status == 0, "status \(run.status): \(run.standardError)", sourceLocation: sourceLocation)
            guard let probed = GuardedRun.probe(output) else {
                Issue.record("ffprobe cannot read \(output): \(run.standardError)", sourceLocation: sourceLocation)
                return
            }
            #expect(frames.contains(probed.frames), "\(probed)", sourceLocation: sourceLocation)
            #expect("\(probed.width)x\(probed.height)" == size, "\(probed)", sourceLocation: sourceLocation)
            #expect(seconds.contains(probed.seconds), "\(probed)", sourceLocation: sourceLocation)
            #expect(GuardedRun.contents(of: folder) == [(output as NSString).lastPathComponent], sourceLocation: sourceLocation)
        case .fails(let reason):
            GuardedRun.expectFailure(run, mentions: "\(input): ", sourceLocation: sourceLocation)
            #expect(GuardedRun.errorLines(run).first?.contains(reason) == true, "\(run.standardError)", sourceLocation: sourceLocation)
            #expect(GuardedRun.contents(of: folder).isEmpty, "nothing is written", sourceLocation: sourceLocation)
        }
    }
}
