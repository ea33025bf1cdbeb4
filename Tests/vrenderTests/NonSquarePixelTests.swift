import Foundation
import Testing
import VRenderTestSupport

/// Issue 21, item 1: camcorder pictures of non-square pixels (DV, HDV) keep the shape a player
/// shows them in: transcodes place them by width × SAR and write square pixels, copies keep the
/// SAR. Inputs are made by ffmpeg here; outputs are judged by ffprobe and ffmpeg.
@Suite struct NonSquarePixelTests {
    let folder = ScratchFolder()
    var directory: String { folder.path }
    /// Fast re-encoding for the transcodes.
    static let fast = ["--codec", "h264", "--preset", "ultrafast"]

    /// A DV PAL take (720x576, always), 10 frames of still bars, with `sar` pixels.
    func dv(_ name: String, sar: String) -> String {
        let path = directory + "/" + name
        GeometryJudge.ffmpeg(["-f", "lavfi", "-i", "smptehdbars=s=720x576:r=25:d=0.4", "-vf", "setsar=\(sar)",
                              "-c:v", "dvvideo", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// An ordinary H.264 clip of square pixels (or `sar`), 10 frames.
    func clip(_ name: String, size: String = "320x180", sar: String = "1") -> String {
        let path = directory + "/" + name
        GeometryJudge.ffmpeg(["-f", "lavfi", "-i", "smptehdbars=s=\(size):r=25:d=0.4", "-vf", "setsar=\(sar)",
                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path])
        return path
    }

    func export(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> ProgramRun {
        let run = GeometryJudge.vrender(["concat"] + arguments)
        #expect(run.status == 0, "\(run.standardError)", sourceLocation: sourceLocation)
        return run
    }

    @Test(arguments: [("64/45", 16.0 / 9), ("16/15", 4.0 / 3)])
    func dvAloneKeepsItsDisplayAspect(sar: String, aspect: Double) {
        let input = dv("take.dv", sar: sar), output = directory + "/out.mp4"
        _ = export([input, "-o", output] + Self.fast)
        let shape = GeometryJudge.shape(output)
        #expect(abs(GeometryJudge.displayAspect(output) / aspect - 1) < 0.01, "\(shape)")
        #expect(shape.sar == 1, "square pixels out: \(shape)")
        #expect(shape.height == 576, "\(shape)")  // 1024x576 or 768x576: nothing thrown away
    }

    /// The second take, DV 16:9, on a square 16:9 canvas: it fills the canvas (a pillarbox at
    /// 1.25:1 before) and looks like ffmpeg's own squaring of the same pictures.
    @Test func dvWideJoinedAfterASquareClipFillsTheCanvas() {
        let first = clip("first.mp4"), second = dv("second.dv", sar: "64/45"), output = directory + "/out.mp4"
        _ = export([first, second, "-o", output] + Self.fast)
        #expect(GeometryJudge.shape(output).width == 320 && GeometryJudge.shape(output).height == 180)
        // 0.6 s: the middle of the DV take. Bars are limited-range black (16); the picture's
        // left and right edges are grey and blue-ish bars, far brighter.
        let left = GeometryJudge.stripLuma(output, atSeconds: 0.6, x: 2)
        let right = GeometryJudge.stripLuma(output, atSeconds: 0.6, x: 314)
        #expect(left > 40 && right > 40, "left \(left), right \(right): a pillarbox?")
        let reference = directory + "/reference.mkv"
        GeometryJudge.ffmpeg(["-i", second, "-vf", "scale=320:180,setsar=1", "-c:v", "ffv1", reference])
        let shifted = directory + "/second-part.mkv"
        GeometryJudge.ffmpeg(["-ss", "0.4", "-i", output, "-c:v", "ffv1", shifted])
        #expect(GeometryJudge.psnr(shifted, against: reference, frames: 8) >= 30)
    }

    /// HDV-shaped (anamorphic 4:3 pixels, 4:3 stored, 16:9 shown), as the first take: the canvas
    /// is 16:9 and the square 16:9 clip after it fills it.
    @Test func anamorphicFirstTakeMakesAWideCanvas() {
        let hdv = directory + "/hdv.ts"
        GeometryJudge.ffmpeg(["-f", "lavfi", "-i", "smptehdbars=s=360x270:r=25:d=0.4", "-vf", "setsar=4/3",
                              "-c:v", "mpeg2video", "-q:v", "2", hdv])
        let output = directory + "/out.mp4"
        _ = export([hdv, clip("second.mp4"), "-o", output] + Self.fast)
        let shape = GeometryJudge.shape(output)
        #expect(abs(GeometryJudge.displayAspect(output) / (16.0 / 9) - 1) < 0.01, "\(shape)")
        #expect(shape.width == 480 && shape.height == 270 && shape.sar == 1, "\(shape)")
        #expect(GeometryJudge.stripLuma(output, atSeconds: 0.6, x: 2) > 40, "the square clip is pillarboxed")
    }

    /// A stream copy keeps the pixels' shape: in the codec's header (H.264) and in the
    /// container's alone (DV in QuickTime).
    @Test func copyKeepsTheSampleAspectRatio() {
        let take = clip("wide.mp4", size: "240x180", sar: "4/3"), output = directory + "/copy.mov"
        let run = export([take, take, "-o", output])
        #expect(run.standardOutput.contains("stream copy") || run.standardError.contains("stream copy"))
        #expect(GeometryJudge.sarText(output) == "4:3")
        #expect(abs(GeometryJudge.displayAspect(output) / (16.0 / 9) - 1) < 0.01)
        let dvTake = directory + "/dv.mov", dvCopy = directory + "/dv-copy.mov"
        GeometryJudge.ffmpeg(["-i", dv("wide.dv", sar: "64/45"), "-c", "copy", dvTake])
        _ = export([dvTake, dvTake, "-o", dvCopy])
        #expect(GeometryJudge.sarText(dvCopy) == "64:45")
    }

    /// A DV .avi whose container states another pixel shape (NTSC 10:11) than its bitstream's
    /// (8:9): a copy into Matroska took the codec's, shown 4:3 where ffmpeg's own copy keeps 15:11.
    @Test func copyKeepsTheContainersPixelShapeOverTheCodecs() {
        let take = directory + "/ntsc.avi", output = directory + "/ntsc.mkv"
        GeometryJudge.ffmpeg(["-f", "lavfi", "-i", "smptehdbars=s=720x480:r=30000/1001:d=0.4", "-vf", "setsar=10/11",
                              "-c:v", "dvvideo", "-pix_fmt", "yuv411p", take])
        #expect(GeometryJudge.sarText(take) == "10:11")
        let run = export([take, "-o", output])
        #expect(run.standardOutput.contains("stream-copy"), "\(run.standardOutput)")
        #expect(GeometryJudge.sarText(output) == "10:11")
    }

    /// Takes of one size but different pixel shapes cannot be joined packet for packet: the
    /// plan names why, and the join shows both in their own shape.
    @Test func differentPixelShapesAreNotCopiedTogether() {
        let wide = clip("wide.mp4", size: "240x180", sar: "4/3"), square = clip("square.mp4", size: "240x180")
        let output = directory + "/out.mp4"
        let run = export([wide, square, "-o", output, "--preset", "ultrafast"])
        #expect((run.standardOutput + run.standardError).contains("square.mp4 has pixels of aspect 1:1, the first take 4:3"))
        let shape = GeometryJudge.shape(output)
        #expect(shape.width == 320 && shape.height == 180 && shape.sar == 1, "\(shape)")
        // The square 4:3 take is pillarboxed in the 16:9 canvas: 240 of 320 columns.
        #expect(GeometryJudge.stripLuma(output, atSeconds: 0.6, x: 2) < 20)
        #expect(GeometryJudge.stripLuma(output, atSeconds: 0.2, x: 2) > 40)
    }
}
