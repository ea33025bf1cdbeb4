import Testing
import VRenderCore
import VRenderMedia
@testable import VRenderCapture

/// The synthetic camera as a `CaptureSource`: specifications, sizes, timestamps, controls and
/// bit-exact frames.
@Suite struct SyntheticCameraTests {
    static func camera(_ specification: String = "synthetic:seed=7", size: (width: Int, height: Int)? = (128, 72),
                       frameRate: Rational = Rational(30, 1), zoom: Double? = nil, torch: Bool = false,
                       position: CameraPosition = .back, realtime: Bool = false) throws -> SyntheticCamera {
        try SyntheticCamera(specification: specification,
                            request: CaptureRequest(frameRate: frameRate, size: size, position: position, zoom: zoom,
                                                    torch: torch, realtime: realtime))
    }

    /// Frames 0..<count of `camera`, as bytes, with a ramp and a torch change along the way.
    static func frames(_ camera: SyntheticCamera, count: Int) throws -> [[UInt8]] {
        _ = camera.apply(.rampZoom(to: 3, rate: 4), at: 0.1)
        _ = camera.apply(.torch(level: 0.7), at: 0.2)
        camera.start()
        defer { camera.stop() }
        let frame = try Frame.picture(width: camera.format.width, height: camera.format.height)
        return try (0..<count).map { _ in
            _ = try camera.nextFrame(into: frame)
            return SyntheticRenderTests.bytes(frame)
        }
    }

    @Test func specifications() throws {
        #expect(SyntheticCamera.isSynthetic("synthetic"))
        #expect(SyntheticCamera.isSynthetic("synthetic:seed=3"))
        #expect(!SyntheticCamera.isSynthetic("/dev/video0"))
        #expect(try Self.camera("synthetic").name == "synthetic seed=1")
        #expect(try Self.camera("synthetic:seed=42").seed == 42)
        for bad in ["synthetic:seed=", "synthetic:seed=-1", "synthetic:seed=x", "synthetic:size=2x2", "synth"] {
            #expect(throws: VRenderError.self) { try Self.camera(bad) }
            do {
                _ = try Self.camera(bad)
            } catch let error as VRenderError {
                #expect(error.kind == .input && error.subject == bad)
                #expect(error.reason.contains("synthetic:seed=N"))
            }
        }
    }

    @Test func sizes() throws {
        let standard = try Self.camera(size: nil)
        #expect(standard.format == NegotiatedFormat(pixelFormat: .yuv420p, width: 1280, height: 720,
                                                    frameRate: Rational(30, 1),
                                                    reason: "synthetic camera renders any size and rate"))
        #expect(try Self.camera(size: (16, 16)).format.width == 16)
        #expect(try Self.camera(size: (7680, 4320)).format.height == 4320)
        for bad in [(15, 16), (14, 16), (7682, 16), (640, 481), (0, 0)] {
            #expect(throws: VRenderError.option("--size", "the synthetic camera renders even sizes from 16x16 to 7680x7680, "
                                                + "not \(bad.0)x\(bad.1)")) { try Self.camera(size: bad) }
        }
    }

    @Test func frameKIsAtExactlyKOverTheRate() throws {
        let camera = try Self.camera()
        let frame = try Frame.picture(width: 128, height: 72)
        var infos: [CapturedFrameInfo] = []
        for _ in 0..<60 { infos.append(try #require(try camera.nextFrame(into: frame))) }
        #expect(infos.map(\.sequence) == Array(0..<60))
        #expect(infos.allSatisfy { $0.droppedBefore == 0 })
        #expect(infos.last?.time == 59.0 / 30.0)
        #expect(infos.allSatisfy { $0.time == Double($0.sequence) / 30 })
        let ntsc = try Self.camera(frameRate: Rational(30000, 1001))
        #expect(ntsc.time(ofFrame: 30000) == 1001)
    }

    @Test func realtimeDeadlinesAreExactAndNeverDrift() throws {
        let pacer = RealtimePacer(firstFrame: 10, frameRate: Rational(30000, 1001))
        #expect(pacer.offset(ofFrame: 10) == 0)
        #expect(pacer.offset(ofFrame: 30010) == 1_001_000_000_000)
        #expect(pacer.offset(ofFrame: 5) == 0)
        #expect(try Self.camera(realtime: true).isLive)
        #expect(try !Self.camera().isLive)
    }

    @Test func theRequestIsAppliedAtTimeZero() throws {
        let camera = try Self.camera(zoom: 10, torch: true, position: .front)
        #expect(camera.state == CameraState(position: .front, lens: 1, zoom: 6, torch: 1))
        #expect(camera.initialOutcomes == [
            InitialControlOutcome(option: "--zoom", outcome: .clamped("zoom 10 → 6.0 (the quality limit)")),
            InitialControlOutcome(option: "--torch", outcome: .applied),
        ])
        #expect(camera.initialOutcomes.compactMap(\.notice) == ["--zoom: zoom 10 → 6.0 (the quality limit)"])
    }

    @Test func theStartingLensComesBeforeTheZoom() throws {
        let camera = try SyntheticCamera(specification: "synthetic:seed=7",
                                         request: CaptureRequest(size: (128, 72), lens: 2, zoom: 3))
        #expect(camera.initialOutcomes.map(\.option) == ["--lens", "--zoom"])
        #expect(camera.state.zoom == 3)
        let lensOnly = try SyntheticCamera(specification: "synthetic", request: CaptureRequest(size: (128, 72), lens: 0.5))
        #expect(lensOnly.state == CameraState(position: .back, lens: 0.5, zoom: 0.5, torch: 0))
    }

    @Test func stateFollowsTheLastRenderedFrame() throws {
        let camera = try Self.camera()
        #expect(camera.apply(.rampZoom(to: 4, rate: 2), at: 0) == .applied)
        let frame = try Frame.picture(width: 128, height: 72)
        for _ in 0...15 { _ = try camera.nextFrame(into: frame) }   // frame 15: 0.5 s
        #expect(camera.state == CameraState(position: .back, lens: 2, zoom: 2, torch: 0))
        #expect(camera.apply(.zoom(100), at: 0.5) == .clamped("zoom 100 → 6.0 (the quality limit)"))
    }

    @Test func theSameSeedAndControlsGiveTheSameBytes() throws {
        let first = try Self.frames(try Self.camera(), count: 12)
        let second = try Self.camera()
        second.renderThreads = 3
        #expect(try Self.frames(second, count: 12) == first)
        #expect(Set(first).count == first.count)   // every frame differs: motion, ramp, timecode
        #expect(try Self.frames(try Self.camera("synthetic:seed=8"), count: 12) != first)
    }
}
