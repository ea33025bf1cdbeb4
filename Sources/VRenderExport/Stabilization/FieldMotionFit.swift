import VRenderCore

/// One measurement field's motion between two frames: where its centre lies relative to the
/// picture's centre, how far its content moved from the previous frame to this one, and how
/// well the field can tell that motion in each direction.
struct FieldShift: Equatable {
    var x: Double
    var y: Double
    var dx: Double
    var dy: Double
    /// How sharply the match's difference rises around its minimum, per direction: half its
    /// Hessian per pixel of the field, [[xx, xy], [xy, yy]]. A field on a vertical edge places x
    /// well and y not at all (the aperture problem), one on a diagonal edge neither axis alone;
    /// the fit weighs each field's disagreement by this.
    var information = Information(xx: 1, xy: 0, yy: 1)

    struct Information: Equatable {
        var xx: Double
        var xy: Double
        var yy: Double
    }
}

/// What vrender adds to libvidstab's motion detection. libvidstab matches each field to a whole
/// pixel on a blurred picture and combines the fields with a cleaned mean: measured against the
/// true shake of the synthetic camera, its frame-to-frame motion was off by 0.36 px (standard
/// deviation), and the camera path, a running sum of those motions, wandered by about as much as
/// a third of the shake it was meant to take away. Refining each field's match to a fraction of
/// a pixel on the unblurred pictures and fitting one translation and rotation to all fields by
/// least squares, each weighed by what it can tell and without those that disagree, leaves a
/// few percent of the shake (Benchmarks/stabilize-vs-ffmpeg.sh measures the result).
enum FieldMotionFit {
    /// The sub-pixel displacement of a field whose centre is (`centreX`, `centreY`) in `current`
    /// and whose content was found `shift` pixels away in `previous` (libvidstab's match:
    /// current(p) ≈ previous(p + shift)). The squared difference is minimised over whole pixels
    /// from `shift` (a few steps: libvidstab matched blurred pictures), then a quadratic surface
    /// through the minimum and its eight neighbours places it between pixels. Returns the
    /// content's motion from `previous` to `current` (the opposite of the match) and the
    /// surface's curvature, or nil when the field or its neighbourhood leaves the picture or
    /// the minimum is not clear.
    static func refine(current: PlaneView, previous: PlaneView, centreX: Int, centreY: Int, size: Int,
                       shift: (x: Int, y: Int)) -> (dx: Double, dy: Double, information: FieldShift.Information)? {
        let left = centreX - size / 2, top = centreY - size / 2
        guard size > 0, left >= 0, top >= 0, left + size <= current.width, top + size <= current.height else { return nil }
        // A step's neighbourhood shares up to six of the last one's shifts: each is summed once.
        var summed: [SIMD2<Int>: Double] = [:]
        func difference(_ dx: Int, _ dy: Int) -> Double? {
            guard left + dx >= 0, top + dy >= 0, left + dx + size <= previous.width, top + dy + size <= previous.height
            else { return nil }
            if let known = summed[SIMD2(dx, dy)] { return known }
            var sum = 0
            for row in 0..<size {
                let a = current.row(top + row) + left, b = previous.row(top + dy + row) + left + dx
                for column in 0..<size {
                    let d = Int(a[column]) - Int(b[column])
                    sum += d * d
                }
            }
            summed[SIMD2(dx, dy)] = Double(sum)
            return Double(sum)
        }
        // The 3x3 differences around (x, y), row by row (dy -1, 0, 1), each dx -1, 0, 1.
        func neighbourhood(_ x: Int, _ y: Int) -> [Double]? {
            var values: [Double] = []
            for dy in -1...1 {
                for dx in -1...1 {
                    guard let value = difference(x + dx, y + dy) else { return nil }
                    values.append(value)
                }
            }
            return values
        }
        var (x, y) = shift
        for step in 0...maximumSteps {
            guard let around = neighbourhood(x, y) else { return nil }
            // Ties stay at the centre: along an edge every step looks the same.
            let lowest = around.indices.min { around[$0] < around[$1] }!
            guard around[lowest] < around[4] else { return surfaceMinimum(around, at: (x, y), pixels: Double(size * size)) }
            // Still moving after its last step: the match is not where libvidstab found it.
            guard step < maximumSteps else { return nil }
            x += lowest % 3 - 1
            y += lowest / 3 - 1
        }
        return nil
    }

    /// Whole-pixel steps `refine` may take from libvidstab's match.
    static let maximumSteps = 3

    /// The minimum of the quadratic through a 3x3 neighbourhood of differences whose centre,
    /// the lowest, lies at whole-pixel shift `at`, as `refine` returns it. Along a direction in
    /// which the surface is flat (an edge) the offset stays near zero and the information says
    /// that it tells nothing there.
    static func surfaceMinimum(_ s: [Double], at shift: (x: Int, y: Int), pixels: Double)
        -> (dx: Double, dy: Double, information: FieldShift.Information) {
        let gx = (s[5] - s[3]) / 2, gy = (s[7] - s[1]) / 2
        let hxx = max(0, s[5] - 2 * s[4] + s[3]), hyy = max(0, s[7] - 2 * s[4] + s[1])
        var hxy = (s[8] - s[6] - s[2] + s[0]) / 4
        // Keep the surface a bowl (a saddle's cross term is noise); a little damping keeps the
        // step small along a flat direction.
        hxy = max(-0.95 * (hxx * hyy).squareRoot(), min(0.95 * (hxx * hyy).squareRoot(), hxy))
        let damping = 1e-3 * (hxx + hyy) + 1e-9
        let a = hxx + damping, c = hyy + damping, determinant = a * c - hxy * hxy
        let offsetX = min(0.5, max(-0.5, -(c * gx - hxy * gy) / determinant))
        let offsetY = min(0.5, max(-0.5, -(a * gy - hxy * gx) / determinant))
        let information = FieldShift.Information(xx: hxx / (2 * pixels), xy: hxy / (2 * pixels), yy: hyy / (2 * pixels))
        return (-(Double(shift.x) + offsetX), -(Double(shift.y) + offsetY), information)
    }

    /// The camera's motion that best explains the fields: a translation and a small rotation
    /// about the picture's centre, each field's motion ≈ (tx − α·y, ty + α·x), fitted by least
    /// squares with each field's disagreement weighed by its information, then fitted again
    /// without the fields (moving things in the scene, false matches) whose weighed
    /// disagreement exceeds nine times the median one (three times in distance), until the
    /// fields kept stop changing (at most `rounds` fits). Nil with fewer than three fields or
    /// nothing to weigh.
    static func fit(_ fields: [FieldShift]) -> CameraMotion? {
        guard fields.count >= 3, var motion = leastSquares(fields) else { return nil }
        var kept = Array(fields.indices)
        for _ in 1..<rounds {
            let errors = fields.map { disagreement(of: $0, with: motion) }
            let limit = 9 * median(kept.map { errors[$0] })
            let next = fields.indices.filter { errors[$0] <= limit }
            guard next.count >= 3, next != kept, let refitted = leastSquares(next.map { fields[$0] }) else { break }
            kept = next
            motion = refitted
        }
        return motion
    }

    /// Fits `fit` may make: the first, then refits without the fields that disagree.
    static let rounds = 5

    /// The field's disagreement with `motion`'s prediction, weighed by its information.
    private static func disagreement(of field: FieldShift, with motion: CameraMotion) -> Double {
        let ex = field.dx - (motion.x - motion.alpha * field.y), ey = field.dy - (motion.y + motion.alpha * field.x)
        let w = field.information
        return w.xx * ex * ex + 2 * w.xy * ex * ey + w.yy * ey * ey
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Solves the weighted normal equations of the three-parameter fit; the translation alone
    /// when the fields cannot tell a rotation (all at one point), nil when they tell nothing.
    private static func leastSquares(_ fields: [FieldShift]) -> CameraMotion? {
        // Each field: J = [[1, 0, -y], [0, 1, x]], weighed by W = its information; sum JᵀWJ and JᵀWd.
        var m = [[Double]](repeating: [0, 0, 0, 0], count: 3)
        for f in fields {
            let w = f.information
            let u = w.xx * f.dx + w.xy * f.dy, v = w.xy * f.dx + w.yy * f.dy
            let rx = -w.xx * f.y + w.xy * f.x, ry = -w.xy * f.y + w.yy * f.x
            m[0][0] += w.xx; m[0][1] += w.xy; m[0][2] += rx; m[0][3] += u
            m[1][1] += w.yy; m[1][2] += ry; m[1][3] += v
            m[2][2] += -f.y * rx + f.x * ry; m[2][3] += -f.y * u + f.x * v
        }
        m[1][0] = m[0][1]; m[2][0] = m[0][2]; m[2][1] = m[1][2]
        if let solved = solve(m) { return CameraMotion(x: solved[0], y: solved[1], alpha: solved[2]) }
        guard let translation = solve([Array(m[0][0...1]) + [m[0][3]], Array(m[1][0...1]) + [m[1][3]]]) else { return nil }
        return CameraMotion(x: translation[0], y: translation[1], alpha: 0)
    }

    /// Gaussian elimination with partial pivoting on an augmented n×(n+1) matrix; nil when it
    /// is (nearly) singular.
    private static func solve(_ matrix: [[Double]]) -> [Double]? {
        var m = matrix
        let n = m.count
        let scale = max(1e-300, (0..<n).map { abs(m[$0][$0]) }.max() ?? 0)
        for column in 0..<n {
            let pivot = (column..<n).max { abs(m[$0][column]) < abs(m[$1][column]) }!
            m.swapAt(column, pivot)
            guard abs(m[column][column]) > 1e-9 * scale else { return nil }
            for row in 0..<n where row != column {
                let factor = m[row][column] / m[column][column]
                for k in column...n { m[row][k] -= factor * m[column][k] }
            }
        }
        return (0..<n).map { m[$0][n] / m[$0][$0] }
    }
}
