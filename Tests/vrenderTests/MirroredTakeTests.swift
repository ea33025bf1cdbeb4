import Foundation
import Testing
import VRenderTestSupport

/// Issue 21, item 4: a selfie whose display matrix flips it left-right (a = -1) was taken for a
/// half turn and came out upside down. The mirrored inputs are ffmpeg clips with their 'tkhd'
/// matrix patched (FFmpeg 5.1 cannot write a flip); the right picture is ffmpeg's own
/// `hflip` / `transpose` of the unpatched clip, and the wrong one its half turn.
@Suite struct MirroredTakeTests {
    let folder = ScratchFolder()
    var directory: String { folder.path }
    static let frames = 12

    /// The unpatched source: moving pictures, 320x180, 12 frames.
    func source() -> String {
        let path = directory + "/source.mp4"
        GeometryJudge.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=0.48", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// `source` as ffmpeg turns it with `filter`, losslessly.
    func reference(_ source: String, _ filter: String, _ name: String) -> String {
        let path = directory + "/" + name + ".mkv"
        GeometryJudge.ffmpeg(["-i", source, "-vf", filter, "-c:v", "ffv1", path])
        return path
    }

    /// An ordinary clip of `size` to join with.
    func plainClip(size: String) -> String {
        let path = directory + "/plain.mp4"
        GeometryJudge.ffmpeg(["-f", "lavfi", "-i", "smptebars=s=\(size):r=25:d=0.4", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuv420p", path])
        return path
    }

    func export(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let run = GeometryJudge.vrender(["concat"] + arguments)
        #expect(run.status == 0, "\(run.standardError)", sourceLocation: sourceLocation)
        return run.standardOutput + run.standardError
    }

    /// A mirrored selfie (a = -1, tx = width: the picture stays in place), alone into .mp4 (the
    /// matrix kept), alone into .mkv (no matrix there: flipped in pixels), and joined after an
    /// unrotated clip (flipped in pixels).
    @Test(arguments: ["alone.mp4", "alone.mkv", "joined.mp4"])
    func mirroredSelfieShowsMirroredNotUpsideDown(output name: String) throws {
        let source = source(), mirrored = directory + "/selfie.mp4"
        try GeometryJudge.withDisplayMatrix(source, to: mirrored, a: -1, b: 0, c: 0, d: 1, tx: 320, ty: 0)
        let output = directory + "/" + name
        let inputs = name.hasPrefix("joined") ? [mirrored, plainClip(size: "320x180")] : [mirrored]
        let plan = export(inputs + ["-o", output, "--preset", "ultrafast"]
                          + (name.hasPrefix("joined") ? ["--codec", "h264"] : []))
        if name.hasPrefix("joined") { #expect(plan.contains("turned upright in pixels"), "\(plan)") }
        let right = GeometryJudge.psnr(output, against: reference(source, "hflip", "mirrored"), frames: Self.frames)
        let upsideDown = GeometryJudge.psnr(output, against: reference(source, "hflip,vflip", "half-turn"), frames: Self.frames)
        #expect(right >= 30, "against the mirrored picture: \(right) dB")
        #expect(upsideDown < 20, "against the upside-down picture: \(upsideDown) dB")
    }

    /// Mirrored and turned: the transpose matrix (a = d = 0, b = c = 1) is a quarter turn
    /// clockwise, then the flip. Joined before an unrotated landscape clip, so the pixels turn.
    @Test(arguments: ["alone.mkv", "joined.mp4"])
    func mirroredAndTurnedSelfieIsTurnedThenFlipped(output name: String) throws {
        let source = source(), turned = directory + "/selfie.mp4"
        try GeometryJudge.withDisplayMatrix(source, to: turned, a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        let output = directory + "/" + name
        let inputs = name.hasPrefix("joined") ? [turned, plainClip(size: "320x180")] : [turned]
        _ = export(inputs + ["-o", output, "--preset", "ultrafast", "--codec", "h264"])
        let shape = GeometryJudge.shape(output)
        #expect(shape.width == 180 && shape.height == 320, "\(shape)")
        let right = GeometryJudge.psnr(output, against: reference(source, "transpose=clock,hflip", "right"), frames: Self.frames)
        let unflipped = GeometryJudge.psnr(output, against: reference(source, "transpose=clock", "unflipped"), frames: Self.frames)
        #expect(right >= 30, "against the turned and mirrored picture: \(right) dB")
        #expect(unflipped < 20, "against the picture turned without the flip: \(unflipped) dB")
    }

    /// A mirrored take and an unmirrored one cannot be copied together: the flip is one matrix
    /// for the whole output.
    @Test func mirroredAndPlainTakesAreNotCopiedTogether() throws {
        let source = source(), mirrored = directory + "/selfie.mp4"
        try GeometryJudge.withDisplayMatrix(source, to: mirrored, a: -1, b: 0, c: 0, d: 1, tx: 320, ty: 0)
        let plan = export([mirrored, source, "-o", directory + "/out.mp4", "--preset", "ultrafast"])
        #expect(plan.contains("source.mp4 has rotation 0°, the first take a mirror flip"), "\(plan)")
    }
}
