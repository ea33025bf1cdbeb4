import Testing
@testable import VRenderCore

/// Display matrices read as rotation + mirror, and pictures turned and flipped the way a player
/// shows them. The expected answers come from point maps written here (how each of the 8
/// orientations moves a pixel), not from `Orientation` itself.
@Suite struct OrientationTests {
    /// Where the pixel (x, y) of a `width`×`height` picture lands when a player turns it
    /// clockwise by `quarters` quarter turns and then, if `mirrored`, flips it left-right.
    static func display(_ x: Int, _ y: Int, width: Int, height: Int, quarters: Int, mirrored: Bool) -> (Int, Int) {
        var (px, py, w, h) = (x, y, width, height)
        for _ in 0..<quarters {
            (px, py) = (h - 1 - py, px)  // clockwise, y down: the left column becomes the top row
            (w, h) = (h, w)
        }
        return mirrored ? (w - 1 - px, py) : (px, py)
    }

    /// The display matrix (16.16 linear part; translation left out, as a reader ignores it) of
    /// that map: row 0 is where the x axis goes, row 1 where the y axis goes.
    static func matrix(quarters: Int, mirrored: Bool) -> [Int32] {
        let origin = display(0, 0, width: 9, height: 9, quarters: quarters, mirrored: mirrored)
        let xAxis = display(1, 0, width: 9, height: 9, quarters: quarters, mirrored: mirrored)
        let yAxis = display(0, 1, width: 9, height: 9, quarters: quarters, mirrored: mirrored)
        let one: Int32 = 1 << 16
        return [Int32(xAxis.0 - origin.0) * one, Int32(xAxis.1 - origin.1) * one, 0,
                Int32(yAxis.0 - origin.0) * one, Int32(yAxis.1 - origin.1) * one, 0,
                0, 0, 1 << 30]
    }

    static let all: [(Int, Bool)] = (0..<4).flatMap { quarters in [(quarters, false), (quarters, true)] }

    @Test(arguments: all)
    func everyMatrixReadsAsItsTurnAndFlip(quarters: Int, mirrored: Bool) {
        let orientation = Orientation(displayMatrix: Self.matrix(quarters: quarters, mirrored: mirrored))
        #expect(orientation == Orientation(rotation: Rotation(rawValue: quarters * 90)!, mirrored: mirrored))
    }

    /// The matrices FFmpeg and phones write: `av_display_matrix_flip(hflip)` of the identity is a
    /// mirror, not the half turn `av_display_rotation_get` alone reports (issue 21).
    @Test func knownMatricesFromFilesAndFFmpeg() {
        let one: Int32 = 1 << 16, w: Int32 = 1 << 30
        #expect(Orientation(displayMatrix: [-one, 0, 0, 0, one, 0, 320 * one, 0, w]) == Orientation(mirrored: true))
        #expect(Orientation(displayMatrix: [one, 0, 0, 0, -one, 0, 0, 180 * one, w])
                == Orientation(rotation: .upsideDown, mirrored: true))
        #expect(Orientation(displayMatrix: [0, one, 0, one, 0, 0, 0, 0, w]) == Orientation(rotation: .clockwise90, mirrored: true))
        // An iPhone portrait clip: turned 90° clockwise, no flip.
        #expect(Orientation(displayMatrix: [0, one, 0, -one, 0, 0, 720 * one, 0, w]) == Orientation(rotation: .clockwise90))
        #expect(Orientation(displayMatrix: [-one, 0, 0, 0, -one, 0, 0, 0, w]) == Orientation(rotation: .upsideDown))
        #expect(Orientation(displayMatrix: [Int32](repeating: 0, count: 9)) == .upright)
        #expect(Orientation(displayMatrix: [one, 0]) == .upright)
    }

    @Test func describesAsFFprobeNamesRotation() {
        #expect(Orientation(rotation: .clockwise90).description == "rotation -90°")
        #expect(Orientation.upright.description == "rotation 0°")
        #expect(Orientation(mirrored: true).description == "a mirror flip")
        #expect(Orientation(rotation: .clockwise270, mirrored: true).description == "a mirror flip and rotation 90°")
    }

    /// A 4x2 plane with every sample distinct, placed at (2, 1) of a larger plane: each pixel
    /// must land where the point map says.
    @Test(arguments: all)
    func picturesAreTurnedThenFlipped(quarters: Int, mirrored: Bool) {
        let (width, height) = (4, 2)
        let source = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        let target = UnsafeMutablePointer<UInt8>.allocate(capacity: 8 * 8)
        defer { source.deallocate(); target.deallocate() }
        for index in 0..<(width * height) { source[index] = UInt8(index + 1) }
        target.update(repeating: 0, count: 64)
        let rotation = Rotation(rawValue: quarters * 90)!
        ImageOps.rotatePlane(PlaneView(base: source, stride: width, width: width, height: height), rotation, mirrored,
                             PlaneView(base: target, stride: 8, width: 8, height: 8), 2, 1)
        for y in 0..<height {
            for x in 0..<width {
                let (u, v) = Self.display(x, y, width: width, height: height, quarters: quarters, mirrored: mirrored)
                #expect(target[(1 + v) * 8 + 2 + u] == source[y * width + x], "(\(x), \(y)) -> (\(u), \(v))")
            }
        }
        #expect((0..<64).filter { target[$0] != 0 }.count == width * height)  // nothing outside
    }

    @Test func sampleAspectRatiosWidenThePicture() {
        #expect(Rational.sampleAspect(64, 45).displayWidth(720) == 1024)  // DV PAL 16:9
        #expect(Rational.sampleAspect(16, 15).displayWidth(720) == 768)  // DV PAL 4:3
        #expect(Rational.sampleAspect(4, 3).displayWidth(1440) == 1920)  // HDV
        #expect(Rational.sampleAspect(0, 1) == .square)
        #expect(Rational.sampleAspect(0, 0) == .square)
        #expect(Rational.sampleAspect(2, 2) == .square)
        #expect(Rational.sampleAspect(1000, 1) == .square)  // a damaged header, not a camera
    }
}
