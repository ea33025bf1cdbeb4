import Testing
import VRenderCore
import VRenderFilters
@testable import VRenderMedia
@testable import VRenderExport

/// Planning with non-square pixels and mirrored takes (issue 21, items 1 and 4), without files.
@Suite struct GeometryPlanTests {
    static let one: Int32 = 1 << 16

    /// A probed H.264 take of `width`×`height` stored pixels of `sar`, with `matrix` as its display matrix.
    static func take(_ path: String, width: Int, height: Int, sar: Rational = .square, matrix: [Int32]? = nil) -> MediaInfo {
        let orientation = matrix.map(Orientation.init(displayMatrix:)) ?? .upright
        var video = VideoStreamInfo(index: 0, codecName: "h264", width: width, height: height, pixelFormat: "yuv420p",
                                    timeBase: Rational(1, 12800), frameRate: Rational(25, 1), rotation: orientation.rotation,
                                    displayMatrix: matrix, extradata: [1], startTime: 0, duration: 2)
        video.mirrored = orientation.mirrored
        video.sampleAspect = sar
        return MediaInfo(path: path, container: "mov,mp4,m4a,3gp,3g2,mj2", video: video, audio: nil)
    }

    static func plan(_ takes: [MediaInfo], output: String = "out.mp4", size: (Int, Int)? = nil) throws -> ExportPlan {
        let options = ExportOptions(inputs: [], output: output, outputIsDefault: false, audioTrack: nil,
                                    filter: try FilterRegistry.chain("none"), codec: .auto,
                                    size: size.map { (width: $0.0, height: $0.1) })
        return try ExportPlanner.plan(takes: takes, options: options, copyCheck: { _, _, _ in nil })
    }

    /// The canvas is the first take's size as a player shows it, in square pixels; `--size`
    /// stays the output's size in square pixels.
    @Test func theCanvasIsTheFirstTakesDisplaySize() throws {
        let square = Self.take("b.mp4", width: 640, height: 360)
        let dv = try Self.plan([Self.take("dv.mov", width: 720, height: 576, sar: Rational(64, 45)), square])
        #expect(dv.mode == .transcode && dv.canvasWidth == 1024 && dv.canvasHeight == 576)
        let hdv = try Self.plan([Self.take("hdv.mov", width: 1440, height: 1080, sar: Rational(4, 3)), square])
        #expect(hdv.canvasWidth == 1920 && hdv.canvasHeight == 1080)
        let dv43 = try Self.plan([Self.take("dv.mov", width: 720, height: 576, sar: Rational(16, 15)), square])
        #expect(dv43.canvasWidth == 768 && dv43.canvasHeight == 576)
        let sized = try Self.plan([Self.take("dv.mov", width: 720, height: 576, sar: Rational(64, 45))], size: (640, 360))
        #expect(sized.canvasWidth == 640 && sized.canvasHeight == 360)
        #expect(dv.notices.contains { $0.contains("pixels of aspect 64:45 shown 1024x576") }, "\(dv.notices)")
    }

    @Test func takesOfDifferentPixelShapesAreTranscoded() throws {
        let plan = try Self.plan([Self.take("a.mp4", width: 720, height: 576, sar: Rational(64, 45)),
                                  Self.take("b.mp4", width: 720, height: 576, sar: Rational(16, 15))])
        #expect(plan.mode == .transcode)
        #expect(plan.reason.contains("b.mp4 has pixels of aspect 16:15, the first take 64:45"), "\(plan.reason)")
        let same = try Self.plan([Self.take("a.mp4", width: 720, height: 576, sar: Rational(64, 45)),
                                  Self.take("b.mp4", width: 720, height: 576, sar: Rational(64, 45))])
        #expect(same.mode == .streamCopy)
    }

    /// A mirrored selfie keeps its matrix where the container holds one, and is flipped in
    /// pixels (not turned) where it does not or where it is joined with an unmirrored take.
    @Test func aMirroredTakeIsFlippedNotTurned() throws {
        let matrix: [Int32] = [-Self.one, 0, 0, 0, Self.one, 0, 640 * Self.one, 0, 1 << 30]
        let selfie = Self.take("selfie.mp4", width: 640, height: 360, matrix: matrix)
        let kept = try Self.plan([selfie])
        #expect(kept.mode == .streamCopy && kept.rotation == .keepMetadata(.none, matrix: matrix))
        let mkv = try Self.plan([selfie], output: "out.mkv")
        #expect(mkv.rotation == .uprightPixels && mkv.pixelOrientation(ofTake: 0) == Orientation(mirrored: true))
        let joined = try Self.plan([selfie, Self.take("plain.mp4", width: 640, height: 360)])
        #expect(joined.mode == .transcode && joined.rotation == .uprightPixels)
        #expect(joined.pixelOrientation(ofTake: 0) == Orientation(mirrored: true))
        #expect(joined.pixelOrientation(ofTake: 1) == .upright)
        #expect(joined.reason.contains("plain.mp4 has rotation 0°, the first take a mirror flip"), "\(joined.reason)")
    }
}
