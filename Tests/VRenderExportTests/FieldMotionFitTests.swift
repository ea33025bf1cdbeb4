import Foundation
import Testing
import VRenderCore
@testable import VRenderExport

/// `--stabilize`'s motion measurement on top of libvidstab's matches: sub-pixel refinement of
/// one field, and the weighted, outlier-free fit of all fields, on pictures and fields whose
/// true motion is known.
@Suite struct FieldMotionFitTests {
    /// A grey plane owning its samples, drawn from `shade(x, y)`.
    final class Plane {
        let samples: UnsafeMutablePointer<UInt8>
        let view: PlaneView

        init(width: Int, height: Int, shade: (Double, Double) -> Double) {
            samples = .allocate(capacity: width * height)
            view = PlaneView(base: samples, stride: width, width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    samples[y * width + x] = UInt8(max(0, min(255, shade(Double(x), Double(y)).rounded())))
                }
            }
        }

        deinit { samples.deallocate() }
    }

    /// Smooth texture with detail on both axes (no two terms share a frequency).
    static func texture(_ x: Double, _ y: Double) -> Double {
        128 + 40 * sin(0.21 * x + 0.5) * cos(0.17 * y) + 30 * sin(0.13 * y + 0.33 * sin(0.05 * x)) + 20 * cos(0.29 * x + 0.23 * y)
    }

    @Test("a field's match is refined to within a tenth of a pixel of the true motion, from libvidstab's whole-pixel guess or two pixels off it")
    func refinesToSubPixel() throws {
        for (moveX, moveY) in [(1.3, -0.6), (-2.45, 0.2), (0.0, 3.7)] {
            let before = Plane(width: 160, height: 120) { Self.texture($0, $1) }
            // The content moved by (moveX, moveY): what was at p is now at p + move.
            let after = Plane(width: 160, height: 120) { Self.texture($0 - moveX, $1 - moveY) }
            for guess in [(Int((-moveX).rounded()), Int((-moveY).rounded())),
                          (Int((-moveX).rounded()) + 2, Int((-moveY).rounded()) - 1)] {
                let found = try #require(FieldMotionFit.refine(current: after.view, previous: before.view, centreX: 80,
                                                               centreY: 60, size: 32, shift: guess))
                #expect(abs(found.dx - moveX) < 0.1 && abs(found.dy - moveY) < 0.1,
                        "moved (\(moveX), \(moveY)), guess \(guess): found (\(found.dx), \(found.dy))")
                #expect(found.information.xx > 0 && found.information.yy > 0)
            }
        }
    }

    @Test("vertical stripes say nothing about vertical motion; a field at the edge or a match far off gives nothing")
    func apertureAndEdges() throws {
        let before = Plane(width: 120, height: 90) { x, _ in 128 + 60 * sin(0.4 * x) }
        let after = Plane(width: 120, height: 90) { x, _ in 128 + 60 * sin(0.4 * (x - 1)) }
        let found = try #require(FieldMotionFit.refine(current: after.view, previous: before.view, centreX: 60, centreY: 45,
                                                       size: 24, shift: (-1, 0)))
        #expect(abs(found.dx - 1) < 0.1)
        #expect(found.information.xx > 100 * found.information.yy, "\(found.information)")
        #expect(FieldMotionFit.refine(current: after.view, previous: before.view, centreX: 8, centreY: 45,
                                      size: 24, shift: (0, 0)) == nil, "field leaves the picture")
        #expect(FieldMotionFit.refine(current: after.view, previous: before.view, centreX: 60, centreY: 45,
                                      size: 24, shift: (0, 40)) == nil, "the search leaves the picture")
    }

    /// Fields on a grid that moved by `motion` (translation, then rotation about the centre).
    static func fields(_ motion: CameraMotion) -> [FieldShift] {
        stride(from: -150.0, through: 150, by: 50).flatMap { x in
            stride(from: -90.0, through: 90, by: 45).map { y in
                FieldShift(x: x, y: y, dx: motion.x - motion.alpha * y, dy: motion.y + motion.alpha * x)
            }
        }
    }

    @Test("translation and rotation are recovered with a quarter of the fields on moving things")
    func fitIgnoresOutliers() throws {
        let truth = CameraMotion(x: 2.5, y: -1.25, alpha: 0.004)
        var fields = Self.fields(truth)
        for index in stride(from: 0, to: fields.count, by: 4) {
            fields[index].dx += Double(5 + index % 7)
            fields[index].dy -= 3
        }
        let found = try #require(FieldMotionFit.fit(fields))
        #expect(abs(found.x - truth.x) < 1e-9 && abs(found.y - truth.y) < 1e-9 && abs(found.alpha - truth.alpha) < 1e-12,
                "\(found)")
    }

    @Test("a field that cannot see an axis does not move it; too few fields give no fit")
    func fitWeighsEachAxis() throws {
        var fields = Self.fields(CameraMotion(x: 1, y: 2))
        // Fields on vertical edges: x well placed, y whatever the noise made of it.
        for index in fields.indices where index % 2 == 0 {
            fields[index].dy = Double(index % 5) * 3 - 6
            fields[index].information = FieldShift.Information(xx: 1, xy: 0, yy: 0)
        }
        let found = try #require(FieldMotionFit.fit(fields))
        #expect(abs(found.x - 1) < 1e-9 && abs(found.y - 2) < 1e-9, "\(found)")
        #expect(FieldMotionFit.fit(Array(fields.prefix(2))) == nil)
        let blind = fields.map { field -> FieldShift in
            var copy = field
            copy.information = FieldShift.Information(xx: 0, xy: 0, yy: 0)
            return copy
        }
        #expect(FieldMotionFit.fit(blind) == nil)
    }

    /// The 3x3 neighbourhood `refine` samples of a quadratic bowl.
    static func bowl(_ f: (Double, Double) -> Double) -> [Double] {
        (-1...1).flatMap { dy in (-1...1).map { dx in f(Double(dx), Double(dy)) } }
    }

    @Test("the surface's minimum lies where the samples say (a tilted bowl too), within half a pixel; an edge's flat direction stays put")
    func surfaceMinimum() {
        // A bowl tilted 30°, its minimum at (0.2, -0.3) in the match; the motion is its opposite.
        let (cosine, sine) = (cos(Double.pi / 6), sin(Double.pi / 6))
        let tilted = FieldMotionFit.surfaceMinimum(Self.bowl { x, y in
            let u = (x - 0.2) * cosine + (y + 0.3) * sine, v = -(x - 0.2) * sine + (y + 0.3) * cosine
            return 50 + 9 * u * u + v * v
        }, at: (2, -1), pixels: 1)
        #expect(abs(tilted.dx - -2.2) < 0.01 && abs(tilted.dy - 1.3) < 0.01, "\(tilted)")
        #expect(tilted.information.xy != 0)
        let far = FieldMotionFit.surfaceMinimum(Self.bowl { x, y in 9 * (x - 3) * (x - 3) + y * y }, at: (0, 0), pixels: 1)
        #expect(far.dx == -0.5, "clamped to half a pixel: \(far)")
        let edge = FieldMotionFit.surfaceMinimum(Self.bowl { x, _ in 4 * (x + 0.25) * (x + 0.25) }, at: (0, 0), pixels: 16)
        #expect(abs(edge.dx - 0.25) < 1e-3 && abs(edge.dy) < 1e-6 && edge.information.yy == 0, "\(edge)")
    }
}
