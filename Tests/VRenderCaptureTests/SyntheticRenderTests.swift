import Testing
import VRenderCore
import VRenderMedia
@testable import VRenderCapture

/// What the synthetic scene looks like through the camera: torch, exposure, mirroring, lens
/// sharpness, determinism. Small pictures keep the debug build fast.
@Suite struct SyntheticRenderTests {
    static let width = 256, height = 144

    /// Renders one picture of `seed` at `time` through `camera`.
    static func render(_ camera: CameraSnapshot, seed: UInt64 = 1, frame: Int = 30, time: Double = 1,
                       threads: Int = 1, renderer: SceneRenderer? = nil) throws -> Frame {
        let picture = try Frame.picture(width: width, height: height)
        let renderer = renderer ?? SceneRenderer(seed: seed, threads: threads)
        renderer.render(frameIndex: frame, time: time, camera: camera, into: picture.yuvImage())
        return picture
    }

    static func snapshot(_ position: CameraPosition = .back, zoom: Double = 1, torch: Double = 0,
                         pointOfInterest: PointOfInterest = .centre) -> CameraSnapshot {
        CameraSnapshot(position: position, lens: CameraModel.lens(forZoom: zoom, position: position), zoom: zoom,
                       torch: torch, pointOfInterest: pointOfInterest)
    }

    /// Luma rows above the timecode strip.
    static var sceneRows: Range<Int> { 0..<(height - TimecodeStrip.height(width: width, height: height)) }

    static func mean(_ plane: PlaneView, rows: Range<Int>) -> Double {
        var sum = 0
        for y in rows {
            let row = plane.row(y)
            for x in 0..<plane.width { sum += Int(row[x]) }
        }
        return Double(sum) / Double(rows.count * plane.width)
    }

    static func means(_ frame: Frame) -> (y: Double, cb: Double, cr: Double) {
        let image = frame.yuvImage()
        let chromaRows = 0..<(sceneRows.upperBound / 2)
        return (mean(image.luma, rows: sceneRows), mean(image.cb, rows: chromaRows), mean(image.cr, rows: chromaRows))
    }

    static func bytes(_ frame: Frame) -> [UInt8] {
        let image = frame.yuvImage()
        var bytes: [UInt8] = []
        for plane in [image.luma, image.cb, image.cr] {
            for y in 0..<plane.height { bytes.append(contentsOf: UnsafeBufferPointer(start: plane.row(y), count: plane.width)) }
        }
        return bytes
    }

    @Test func backTorchBrightensAndWarms() throws {
        let off = Self.means(try Self.render(Self.snapshot(.back)))
        let on = Self.means(try Self.render(Self.snapshot(.back, torch: 1)))
        #expect(on.y > off.y + 10)
        #expect(on.cr > off.cr + 3)
        #expect(on.cb < off.cb - 3)
        let half = Self.means(try Self.render(Self.snapshot(.back, torch: 0.5)))
        #expect(half.y > off.y && half.y < on.y)
    }

    @Test func frontScreenTorchBrightensSoftlyAndCools() throws {
        let off = Self.means(try Self.render(Self.snapshot(.front)))
        let on = Self.means(try Self.render(Self.snapshot(.front, torch: 1)))
        #expect(on.y > off.y + 10)
        #expect(on.cb > off.cb + 3)
        #expect(on.cr < off.cr - 3)
    }

    @Test func frontFramesMirrorTheBackCamerasView() throws {
        // Keep the frames alive: the images only view their memory.
        let backFrame = try Self.render(Self.snapshot(.back)), frontFrame = try Self.render(Self.snapshot(.front))
        let back = backFrame.yuvImage(), front = frontFrame.yuvImage()
        func isMirror(_ a: PlaneView, _ b: PlaneView, rows: Range<Int>) -> Bool {
            for y in rows {
                let left = a.row(y), right = b.row(y)
                for x in 0..<a.width where left[x] != right[a.width - 1 - x] { return false }
            }
            return true
        }
        let chromaRows = 0..<(Self.sceneRows.upperBound / 2)
        #expect(isMirror(back.luma, front.luma, rows: Self.sceneRows))
        #expect(isMirror(back.cb, front.cb, rows: chromaRows))
        #expect(isMirror(back.cr, front.cr, rows: chromaRows))
        // ... and the scene is not symmetric, so this is not trivially true.
        #expect(!isMirror(back.luma, back.luma, rows: Self.sceneRows))
        // The strip is drawn after mirroring: the same text, not reversed.
        let strip = Self.sceneRows.upperBound..<Self.height
        #expect(!isMirror(back.luma, front.luma, rows: strip))
        withExtendedLifetime((backFrame, frontFrame)) {}
    }

    @Test func rowReversalHandlesAnyLength() {
        for count in 1...21 {
            let source = (0..<count).map { UInt8($0) }
            var target = [UInt8](repeating: 0, count: count)
            source.withUnsafeBufferPointer { source in
                target.withUnsafeMutableBufferPointer { target in
                    PlaneComposer.reverse(source.baseAddress!, into: target.baseAddress!, count: count)
                }
            }
            #expect(target == source.reversed(), "\(count) bytes")
        }
    }

    @Test func meteringABrightRegionDarkensTheFrameAndADarkOneBrightensIt() throws {
        let centre = Self.means(try Self.render(Self.snapshot(.back)))
        let sky = Self.means(try Self.render(Self.snapshot(.back, pointOfInterest: PointOfInterest(x: 0.5, y: 0.1))))
        let ground = Self.means(try Self.render(Self.snapshot(.back, pointOfInterest: PointOfInterest(x: 0.5, y: 0.9))))
        #expect(sky.y < centre.y - 5)
        #expect(ground.y > centre.y + 5)
    }

    @Test func theDefaultCameraMetersInsideTheDeadBand() throws {
        for lens in CameraModel.lenses(of: .back) {
            let layer = LensLayer(lens: lens, width: Self.width, height: Self.height, scene: StaticScene(), threads: 1)
            #expect(Exposure.gain(layer: layer, camera: Self.snapshot(.back, zoom: lens)) == 1, "lens \(lens)")
        }
    }

    /// Fine detail a digital crop of the wide lens cannot show appears once the tele lens takes
    /// over at the same field of view.
    @Test func aLensSwitchIsSharperThanTheDigitalCropBeforeIt() throws {
        func detail(_ frame: Frame) -> Int {
            let luma = frame.yuvImage().luma
            var energy = 0
            for y in (Self.height / 4)..<(Self.height / 2) {
                let row = luma.row(y)
                for x in (Self.width / 4)..<(3 * Self.width / 4) {
                    let step = Int(row[x + 1]) - Int(row[x])
                    energy += step * step
                }
            }
            return energy
        }
        let crop = detail(try Self.render(Self.snapshot(.back, zoom: 1.99)))
        let tele = detail(try Self.render(Self.snapshot(.back, zoom: 2)))
        #expect(tele > crop * 3 / 2, "tele \(tele) vs crop \(crop)")
    }

    @Test func framesAreIdenticalAtAnyThreadCount() throws {
        for camera in [Self.snapshot(.back), Self.snapshot(.back, zoom: 2.7, torch: 0.4),
                       Self.snapshot(.front, zoom: 1.3, pointOfInterest: PointOfInterest(x: 0.2, y: 0.8))] {
            let one = Self.bytes(try Self.render(camera, threads: 1))
            for threads in [2, 3, 8] {
                #expect(Self.bytes(try Self.render(camera, threads: threads)) == one, "\(threads) threads")
            }
        }
    }

    @Test func seedsAndTimesChangeTheMotion() throws {
        let camera = Self.snapshot(.back, zoom: 0.5)
        let reference = Self.bytes(try Self.render(camera, seed: 1))
        #expect(Self.bytes(try Self.render(camera, seed: 1)) == reference)
        #expect(Self.bytes(try Self.render(camera, seed: 2)) != reference)
        #expect(Self.bytes(try Self.render(camera, seed: 1, frame: 30, time: 1.5)) != reference)
    }

    @Test func aRendererFollowsSizeChanges() throws {
        let renderer = SceneRenderer(seed: 3, threads: 2)
        let small = try Frame.picture(width: 64, height: 36)
        renderer.render(frameIndex: 0, time: 0, camera: Self.snapshot(), into: small.yuvImage())
        let large = Self.bytes(try Self.render(Self.snapshot(), seed: 3, frame: 0, time: 0, renderer: renderer))
        #expect(large == Self.bytes(try Self.render(Self.snapshot(), seed: 3, frame: 0, time: 0)))
    }

    @Test func theStripSaysWhichFrameThisIs() {
        let text = TimecodeStrip.text(frameIndex: 59, time: 59.0 / 30, camera: Self.snapshot(.back, zoom: 2.345, torch: 0.5))
        #expect(text == "#000059  00:00:01.967  BACK  2.35X  TORCH 0.50")
        #expect(TimecodeStrip.text(frameIndex: 1_234_567, time: 3725.5, camera: Self.snapshot(.front))
                == "#1234567  01:02:05.500  FRONT  1.00X")
        #expect(TimecodeStrip.height(width: 1920, height: 1080) == 44)
    }

    @Test func tinyPicturesRender() throws {
        let picture = try Frame.picture(width: 16, height: 16)
        SceneRenderer(seed: 0).render(frameIndex: 0, time: 0, camera: Self.snapshot(.back, zoom: 6),
                                      into: picture.yuvImage())
        SceneRenderer(seed: 0).render(frameIndex: 0, time: 0, camera: Self.snapshot(.front, zoom: 6, torch: 1),
                                      into: picture.yuvImage())
    }
}
