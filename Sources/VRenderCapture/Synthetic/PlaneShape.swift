/// A moving shape placed on one plane of one frame: position and size in that plane's pixels,
/// in Q8 fixed point (256 = one pixel; pixel i's centre is at 256·i + 128), and the sample
/// value it paints there (exposure and torch already applied).
///
/// Shapes are drawn into lens-resolution rows, before any digital-zoom enlargement, so a zoomed
/// shape softens exactly like the rest of the lens image. Edges are antialiased from the
/// distance to the outline (discs) or the pixel's overlap with the box, in integer arithmetic.
struct PlaneShape: Sendable {
    private enum Outline: Sendable {
        case disc(radius: Int, radiusSquared: Int, innerSquared: Int, outerSquared: Int, inverseTwoRadius: Int)
        case box(halfWidth: Int, halfHeight: Int)
    }

    private let outline: Outline
    private let centreX: Int
    private let centreY: Int
    private let value: Int32
    /// Plane rows the shape can touch, inclusive.
    let top: Int
    let bottom: Int

    /// `shape` at `time` on a plane `planeWidth`×`planeHeight` showing a lens of
    /// `magnification` (twice its native factor): pixels per world unit = width·magnification/2.
    init(_ shape: MovingShape, at time: Double, planeWidth: Int, planeHeight: Int, magnification: Int, value: UInt8) {
        let (worldX, worldY) = shape.centre(at: time)
        let perUnitQ8 = planeWidth * magnification * 128
        func scaled(_ world: Int) -> Int { (world * perUnitQ8) >> 24 }
        centreX = planeWidth * 128 + scaled(worldX)
        centreY = planeHeight * 128 + scaled(worldY)
        self.value = Int32(value)
        switch shape.kind {
        case .disc:
            let radius = Swift.max(scaled(shape.size), 1)
            let inner = radius > 128 ? (radius - 128) * (radius - 128) : -1
            outline = .disc(radius: radius, radiusSquared: radius * radius, innerSquared: inner,
                            outerSquared: (radius + 128) * (radius + 128), inverseTwoRadius: (1 << 32) / (2 * radius))
            top = (centreY - radius - 128) >> 8
            bottom = (centreY + radius + 128) >> 8
        case .box(let halfHeight):
            let halfWidth = Swift.max(scaled(shape.size), 1), halfHeightQ8 = Swift.max(scaled(halfHeight), 1)
            outline = .box(halfWidth: halfWidth, halfHeight: halfHeightQ8)
            top = (centreY - halfHeightQ8) >> 8
            bottom = (centreY + halfHeightQ8) >> 8
        }
    }

    /// Paints the shape's part of plane row `row` into `destination` (indexed by plane column),
    /// within `span`. Fully covered runs are filled at memset speed; only edge pixels compute a
    /// coverage, with the same formula whichever way a pixel is reached, so the result is exact.
    func draw(row: Int, into destination: UnsafeMutablePointer<UInt8>, span: Range<Int>) {
        guard row >= top, row <= bottom, !span.isEmpty else { return }
        switch outline {
        case .disc(_, let radiusSquared, let innerSquared, let outerSquared, let inverseTwoRadius):
            drawDisc(row: row, into: destination, span: span, radiusSquared: radiusSquared, innerSquared: innerSquared,
                     outerSquared: outerSquared, inverseTwoRadius: inverseTwoRadius)
        case .box(let halfWidth, let halfHeight):
            drawBox(row: row, into: destination, span: span, halfWidth: halfWidth, halfHeight: halfHeight)
        }
    }

    /// `draw` for a disc: a solid run between two anti-aliased edges.
    @inline(__always)
    private func drawDisc(row: Int, into destination: UnsafeMutablePointer<UInt8>, span: Range<Int>, radiusSquared: Int,
                          innerSquared: Int, outerSquared: Int, inverseTwoRadius: Int) {
        let dy = row * 256 + 128 - centreY
        let dy2 = dy * dy
        guard let (first, last) = columns(within: outerSquared - dy2, span: span) else { return }
        @inline(__always) func distanceSquared(_ x: Int) -> Int {
            let dx = x &* 256 &+ 128 &- centreX
            return dx &* dx &+ dy2
        }
        @inline(__always) func paintEdge(_ x: Int) {
            let d2 = distanceSquared(x)
            if d2 <= innerSquared {
                destination[x] = UInt8(truncatingIfNeeded: value)
            } else if d2 < outerSquared {
                let coverage = 128 &+ (((radiusSquared &- d2) &* inverseTwoRadius) >> 32)
                blend(destination + x, coverage: Int32(Swift.min(Swift.max(coverage, 0), 256)))
            }
        }
        // The solid run: pixels whose centre is within radius − ½ pixel of the centre. The
        // square root only guesses its ends; the integer test settles them exactly.
        var solidFirst = last + 1, solidLast = last
        if let (guessFirst, guessLast) = columns(within: innerSquared - dy2, span: first..<(last + 1)) {
            solidFirst = guessFirst
            solidLast = guessLast
            while solidFirst <= solidLast && distanceSquared(solidFirst) > innerSquared { solidFirst += 1 }
            while solidFirst > first && distanceSquared(solidFirst - 1) <= innerSquared { solidFirst -= 1 }
            while solidLast >= solidFirst && distanceSquared(solidLast) > innerSquared { solidLast -= 1 }
            while solidLast < last && distanceSquared(solidLast + 1) <= innerSquared { solidLast += 1 }
        }
        if solidFirst > solidLast {
            for x in first...last { paintEdge(x) }
            return
        }
        for x in first..<solidFirst { paintEdge(x) }
        (destination + solidFirst).update(repeating: UInt8(truncatingIfNeeded: value), count: solidLast - solidFirst + 1)
        if solidLast < last {
            for x in (solidLast + 1)...last { paintEdge(x) }
        }
    }

    /// `draw` for a box: whole columns filled (or blended on a partly covered row), edges blended.
    @inline(__always)
    private func drawBox(row: Int, into destination: UnsafeMutablePointer<UInt8>, span: Range<Int>,
                         halfWidth: Int, halfHeight: Int) {
        let rowTop = row * 256
        let coverageY = Swift.min(Swift.min(rowTop + 256, centreY + halfHeight) - Swift.max(rowTop, centreY - halfHeight), 256)
        guard coverageY > 0 else { return }
        let left = centreX - halfWidth, right = centreX + halfWidth
        let first = Swift.max(span.lowerBound, left >> 8)
        let last = Swift.min(span.upperBound - 1, (right - 1) >> 8)
        guard first <= last else { return }
        // Columns wholly inside the box horizontally: x·256 ≥ left and x·256 + 256 ≤ right.
        let fullFirst = Swift.max(first, (left + 255) >> 8), fullLast = Swift.min(last, (right >> 8) - 1)
        @inline(__always) func paintEdge(_ x: Int) {
            let columnLeft = x * 256
            let coverageX = Swift.min(columnLeft + 256, right) - Swift.max(columnLeft, left)
            blend(destination + x, coverage: Int32((coverageX * coverageY) >> 8))
        }
        guard fullFirst <= fullLast else {
            for x in first...last { paintEdge(x) }
            return
        }
        for x in first..<fullFirst { paintEdge(x) }
        if coverageY == 256 {
            (destination + fullFirst).update(repeating: UInt8(truncatingIfNeeded: value), count: fullLast - fullFirst + 1)
        } else {
            for x in fullFirst...fullLast { blend(destination + x, coverage: Int32(coverageY)) }
        }
        if fullLast < last {
            for x in (fullLast + 1)...last { paintEdge(x) }
        }
    }

    /// Columns of `span` whose pixel centres may lie within √`reach` of the centre horizontally
    /// (a slightly generous guess from an IEEE square root, which is correctly rounded and so the
    /// same everywhere); nil when none can.
    private func columns(within reach: Int, span: Range<Int>) -> (Int, Int)? {
        guard reach >= 0 else { return nil }
        let half = Double(reach).squareRoot()
        let first = Swift.max(span.lowerBound, Int(((Double(centreX) - half - 128) / 256).rounded(.down)))
        let last = Swift.min(span.upperBound - 1, Int(((Double(centreX) + half - 128) / 256).rounded(.up)))
        return first <= last ? (first, last) : nil
    }

    @inline(__always)
    private func blend(_ pixel: UnsafeMutablePointer<UInt8>, coverage: Int32) {
        if coverage >= 256 {
            pixel.pointee = UInt8(truncatingIfNeeded: value)
        } else if coverage > 0 {
            let background = Int32(pixel.pointee)
            pixel.pointee = UInt8(truncatingIfNeeded: background + (((value - background) * coverage) >> 8))
        }
    }
}
