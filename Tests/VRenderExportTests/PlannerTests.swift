import Testing
import VRenderCore
import VRenderFilters
@testable import VRenderMedia
@testable import VRenderExport

/// A probed take described in code: planning needs no files.
private func take(_ path: String, codec: String = "h264", width: Int = 1280, height: Int = 720,
                  rotation: Rotation = .none, rate: Int = 30, extradata: [UInt8] = [1, 2, 3],
                  audioRate: Int? = 48_000, duration: Double = 2) -> MediaInfo {
    MediaInfo(
        path: path, container: "mov,mp4,m4a,3gp,3g2,mj2",
        video: VideoStreamInfo(index: 0, codecName: codec, width: width, height: height, pixelFormat: "yuv420p",
                               timeBase: Rational(1, 15360), frameRate: Rational(rate, 1), rotation: rotation,
                               displayMatrix: rotation == .none ? nil : [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30],
                               extradata: extradata, startTime: 0, duration: duration),
        audio: audioRate.map { AudioStreamInfo(index: 1, codecName: "aac", sampleRate: $0, channels: 1, sampleFormat: "fltp",
                                               timeBase: Rational(1, $0), extradata: [9], startTime: 0, duration: duration) })
}

private func options(_ filter: String = "none", codec: ExportOptions.CodecRequest = .auto,
                     size: (Int, Int)? = nil) throws -> ExportOptions {
    ExportOptions(inputs: [], output: "out.mov", filter: try FilterRegistry.chain(filter), codec: codec,
                  size: size.map { (width: $0.0, height: $0.1) })
}

@Suite struct PlannerTests {
    @Test func matchingTakesAreStreamCopied() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov"), take("c.mov")], options: try options())
        #expect(plan.mode == .streamCopy)
        #expect(plan.timeline.totalSlots == 180)
    }

    @Test(arguments: [
        (take("b.mov", codec: "hevc"), "b.mov is hevc"),
        (take("b.mov", width: 640, height: 480), "b.mov is 640x480"),
        (take("b.mov", rate: 25), "b.mov runs at 25 fps"),
        (take("b.mov", extradata: [7]), "b.mov has different h264 codec settings"),
        (take("b.mov", audioRate: nil), "b.mov has no audio"),
        (take("b.mov", audioRate: 44_100), "b.mov has audio aac 44100 Hz"),
        (take("b.mov", rotation: .clockwise90), "b.mov is rotated 90°"),
    ])
    func anyDifferenceMeansTranscodeAndSaysWhy(second: MediaInfo, reason: String) throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), second], options: try options())
        #expect(plan.mode == .transcode)
        #expect(plan.reason.contains(reason), "\(plan.reason)")
    }

    @Test func aFilterForcesTranscode() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov")], options: try options("mono"))
        #expect(plan.mode == .transcode)
        #expect(plan.reason.contains("mono"))
    }

    @Test func copyIsRefusedWhenTakesDiffer() throws {
        #expect(throws: VRenderError.option("--codec copy", "cannot stream-copy: b.mov is hevc, the first take is h264")) {
            try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov", codec: "hevc")], options: try options(codec: .copy))
        }
    }

    @Test func uniformRotationStaysMetadata() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov", rotation: .clockwise90), take("b.mov", rotation: .clockwise90)],
                                          options: try options("mono"))
        guard case .keepMetadata(.clockwise90, let matrix) = plan.rotation else {
            Issue.record("rotation should be kept as metadata, got \(plan.rotation)")
            return
        }
        #expect(matrix != nil)
        #expect(plan.canvasWidth == 1280 && plan.canvasHeight == 720)  // stored orientation
        #expect(plan.pixelRotation(ofTake: 1) == .none)
    }

    @Test func mixedRotationsAreTurnedUprightInPixels() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("p.mov", rotation: .clockwise90)], options: try options())
        #expect(plan.rotation == .uprightPixels)
        #expect(plan.canvasWidth == 1280 && plan.canvasHeight == 720)
        #expect(plan.pixelRotation(ofTake: 1) == .clockwise90)
        // A portrait first take sets a portrait canvas.
        let portraitFirst = try ExportPlanner.plan(takes: [take("p.mov", rotation: .clockwise90), take("a.mov")], options: try options())
        #expect(portraitFirst.canvasWidth == 720 && portraitFirst.canvasHeight == 1280)
    }

    @Test func sizeOptionSetsTheCanvas() throws {
        let plan = try ExportPlanner.plan(takes: [take("a.mov"), take("b.mov")], options: try options(size: (640, 360)))
        #expect(plan.mode == .transcode)
        #expect(plan.canvasWidth == 640 && plan.canvasHeight == 360)
    }
}
