import Testing
import VRenderCore
import VRenderMedia
@testable import VRenderCapture

/// The camera's side of the clapper: flash frames only with a microphone attached and only at
/// clap instants; the `clap` and `audio-gap` script actions; cameras that cannot clap.
@Suite struct ClapperTests {
    static let size = (width: 96, height: 54)

    static func camera(fps: Rational = Rational(30, 1)) throws -> SyntheticCamera {
        try SyntheticCamera(specification: "synthetic:seed=7", request: CaptureRequest(frameRate: fps, size: size))
    }

    static func frames(_ camera: SyntheticCamera, count: Int) throws -> [[UInt8]] {
        camera.start()
        defer { camera.stop() }
        let frame = try Frame.picture(width: size.width, height: size.height)
        return try (0..<count).map { _ in
            _ = try camera.nextFrame(into: frame)
            return SyntheticRenderTests.bytes(frame)
        }
    }

    /// The luma of the top-left 8x8 square (a sixth of 54, rounded to even) when it is all one
    /// value, else nil.
    static func patch(_ frame: Frame) -> UInt8? {
        let luma = frame.yuvImage().luma
        let values = Set((0..<8).flatMap { y in (0..<8).map { luma.row(y)[$0] } })
        return values.count == 1 ? values.first : nil
    }

    @Test func flashesOnlyWithAClapperAndOnlyAtClapInstants() throws {
        let plainCamera = try Self.camera()
        plainCamera.start()
        let camera = try Self.camera()
        _ = camera.attachClapper()
        #expect(camera.apply(.clap, at: 1.5) == .applied)
        camera.start()
        let frame = try Frame.picture(width: Self.size.width, height: Self.size.height)
        let plain = try Frame.picture(width: Self.size.width, height: Self.size.height)
        var flashing: [Int] = []
        for index in 0..<62 {
            _ = try camera.nextFrame(into: frame)
            _ = try plainCamera.nextFrame(into: plain)
            let flash = Self.patch(frame) == 235
            if flash { flashing.append(index) } else { #expect(Self.patch(frame) == 16, "frame \(index)") }
            // Outside the patch every frame is byte for byte the camera's without sound.
            Clapper.drawPatch(into: plain.yuvImage(), flash: flash)
            #expect(SyntheticRenderTests.bytes(frame) == SyntheticRenderTests.bytes(plain), "frame \(index)")
        }
        #expect(flashing == [0, 30, 45, 60])
    }

    @Test func aCameraWithoutAMicrophoneNeitherFlashesNorClaps() throws {
        let camera = try Self.camera()
        #expect(camera.apply(.clap, at: 0.5) == .unsupported(
            "clap: no synthetic microphone is recording (record with --audio synthetic)"))
        guard case .unsupported = camera.apply(.audioGap(seconds: 0.2), at: 0.5) else {
            Issue.record("an audio gap without a microphone was applied")
            return
        }
        let frames = try Self.frames(camera, count: 31)
        #expect(frames == (try Self.frames(Self.camera(), count: 31)))
    }

    @Test func eachClapIsTheFrameNearestItsInstantAndSoundsAtThatFramesTime() throws {
        let clapper = Clapper(frameRate: Rational(30_000, 1001))
        clapper.clap(at: 2.26)
        clapper.clap(at: 3.0) // the whole second's frame already: one clap, not two
        // Whole seconds 0...3 and the clap at 2.26 s, each on its nearest frame at 29.97 fps.
        #expect((0..<100).filter { clapper.flashes(frame: $0) } == [0, 30, 60, 68, 90])
        #expect(clapper.clapFrames(from: 0.5, to: 3.5) == [30, 60, 68, 90])
        // The click follows the flash, not the whole second: 1.001 s, not 1 s.
        let camera = try SyntheticCamera(specification: "synthetic",
                                         request: CaptureRequest(frameRate: Rational(30_000, 1001), size: (32, 18)))
        #expect(clapper.claps(from: 0.5, to: 2.1) == [camera.time(ofFrame: 30), camera.time(ofFrame: 60)])
        #expect(clapper.claps(from: 0.5, to: 2.1) == [30_030.0 / 30_000, 60_060.0 / 30_000])
    }

    @Test func thePatchIsASixthOfTheHeightEvenAligned() throws {
        let frame = try Frame.picture(width: 64, height: 100)
        try frame.makeWritable()
        let image = frame.yuvImage()
        for y in 0..<100 { image.luma.row(y).update(repeating: 50, count: 64) }
        Clapper.drawPatch(into: image, flash: true)
        #expect(image.luma.row(15)[15] == 235)
        #expect(image.luma.row(16)[0] == 50 && image.luma.row(0)[16] == 50)
        #expect(image.cb.row(7)[7] == 128 && image.cr.row(7)[7] == 128)
    }

    @Test func scriptParsesClapAndAudioGap() throws {
        let script = try ActionScript(text: "at 1s clap\nat 2.5s audio-gap 200ms\nat 3s stop\n", source: "s.actions")
        #expect(script.actions.map(\.command) == [.control(.clap), .control(.audioGap(seconds: 0.2)), .stop])
        #expect(script.actions.map(\.time) == [1, 2.5, 3])
        for (text, message) in [("at 1s clap now", "usage: at <time> clap"),
                                ("at 1s audio-gap", "usage: at <time> audio-gap <duration>"),
                                ("at 1s audio-gap 0ms", "audio-gap length '0ms' is not a positive duration"),
                                ("at 1s audio-gap soon", "audio-gap length 'soon' is not a positive duration")] {
            do {
                _ = try ActionScript(text: text, source: "s.actions")
                Issue.record("'\(text)' was accepted")
            } catch let error as VRenderError {
                #expect(error.subject == "s.actions:1")
                #expect(error.reason.hasPrefix(message), "\(error.reason)")
            }
        }
    }

    @Test func aV4L2CameraCannotClap() {
        #expect(V4L2Camera.soundActionOutcome(.clap, path: "/dev/video0")
                == .unsupported("clap: /dev/video0 cannot clap; the clapper belongs to the synthetic camera"))
        guard case .unsupported(let message) = V4L2Camera.soundActionOutcome(.audioGap(seconds: 1), path: "/dev/video0") else {
            Issue.record("an audio gap was applied to a V4L2 camera")
            return
        }
        #expect(message.hasPrefix("audio-gap: /dev/video0"))
    }

    @Test func theCameraModelHasNoClapper() {
        var model = CameraModel(position: .back)
        let before = model
        guard case .unsupported = model.apply(.clap, at: 1) else {
            Issue.record("the model took a clap")
            return
        }
        #expect(model.state(at: 1) == before.state(at: 1))
    }
}
