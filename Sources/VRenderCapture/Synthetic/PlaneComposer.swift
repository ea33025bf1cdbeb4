import VRenderCore

/// Where each output sample of one plane comes from in the lens image, along one axis: the
/// lens sample to its left/above and the weight (0...256) of the next one. Rebuilt every frame
/// (a zoom ramp changes the crop every frame); a few thousand entries, negligible next to the
/// pixels.
// @unchecked Sendable: filled before a frame is composed, only read by the bands during it.
final class AxisSampling: @unchecked Sendable {
    private(set) var index: UnsafeMutablePointer<Int32>
    private(set) var weight: UnsafeMutablePointer<Int32>
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        index = .allocate(capacity: self.capacity)
        weight = .allocate(capacity: self.capacity)
    }

    deinit {
        index.deallocate()
        weight.deallocate()
    }

    /// Maps `count` output samples onto a lens axis of the same length enlarged `crop` times
    /// about its centre (crop given as its inverse in Q16), optionally mirrored. Returns the lens
    /// samples the map reads, so lens rows are prepared only over that span.
    func build(count: Int, inverseCropQ16: Int, mirrored: Bool) -> Range<Int> {
        if count > capacity {
            index.deallocate()
            weight.deallocate()
            capacity = count
            index = .allocate(capacity: count)
            weight = .allocate(capacity: count)
        }
        var lowest = count, highest = 0
        for output in 0..<count {
            let position = mirrored ? count - 1 - output : output
            // Lens position in pixel-centre coordinates, doubled then halved to stay in integers:
            // 2s = (count − 1) + (2·position + 1 − count) / crop.
            let doubled = (count - 1) * 65536 + (2 * position + 1 - count) * inverseCropQ16
            let q16 = doubled >> 1
            var sample = q16 >> 16, fraction = (q16 >> 8) & 255
            if q16 < 0 {
                sample = 0
                fraction = 0
            } else if sample >= count - 1 {
                sample = count - 2
                fraction = 256
            }
            index[output] = Int32(sample)
            weight[output] = Int32(fraction)
            lowest = Swift.min(lowest, sample)
            highest = Swift.max(highest, sample + 1)
        }
        return lowest..<(highest + 1)
    }
}

/// Per-band scratch rows: one composed lens row and two enlarged rows (the lens rows above and
/// below the output row being blended). Each band owns one, so bands never share memory.
// @unchecked Sendable: each band uses its own scratch, so no two threads touch one.
final class BandScratch: @unchecked Sendable {
    let capacity: Int
    let lensRow: UnsafeMutablePointer<UInt8>
    let upper: UnsafeMutablePointer<UInt8>
    let lower: UnsafeMutablePointer<UInt8>

    init(capacity: Int) {
        self.capacity = capacity
        lensRow = .allocate(capacity: capacity)
        upper = .allocate(capacity: capacity)
        lower = .allocate(capacity: capacity)
    }

    deinit {
        lensRow.deallocate()
        upper.deallocate()
        lower.deallocate()
    }
}

/// Everything needed to produce one plane of one frame, shared read-only by the band workers.
///
/// A lens row is the static layer's row through the tone table, with the moving shapes drawn
/// on it. At the lens's native factor an output row is a lens row (reversed on the front
/// camera). Under digital zoom the lens image is enlarged bilinearly: each needed lens row is
/// composed once and stretched horizontally, then output rows blend the two stretched rows
/// around them. Bilinear enlargement is what makes a digital crop look soft next to the
/// native detail of the following lens.
///
/// `@unchecked Sendable`: the pointers are read-only during the frame, the output planes are
/// written by disjoint row bands.
struct PlaneComposer: @unchecked Sendable {
    var lens: PlaneView
    var output: PlaneView
    var table: [UInt8]
    var tableIsIdentity: Bool
    var shapes: [PlaneShape]
    var mirrored: Bool
    typealias Sampling = (columns: AxisSampling, rows: AxisSampling, lensColumns: Range<Int>)
    /// Nil at the lens's native factor (crop 1): output samples are lens samples.
    var sampling: Sampling?

    func render(rows: Range<Int>, scratch: BandScratch) {
        // Borrow the arrays once per band rather than once per row (each borrow is a retain).
        table.withUnsafeBufferPointer { table in
            shapes.withUnsafeBufferPointer { shapes in
                let rowComposer = LensRowComposer(lens: lens, table: tableIsIdentity ? nil : table, shapes: shapes)
                if let sampling {
                    enlarge(rows: rows, sampling: sampling, composer: rowComposer, scratch: scratch)
                } else {
                    copy(rows: rows, composer: rowComposer, scratch: scratch)
                }
            }
        }
    }

    /// Native factor: output rows are lens rows, reversed on the front camera.
    private func copy(rows: Range<Int>, composer: LensRowComposer, scratch: BandScratch) {
        let width = output.width
        for y in rows {
            if mirrored {
                composer.compose(lensRow: y, into: scratch.lensRow, span: 0..<width)
                Self.reverse(scratch.lensRow, into: output.row(y), count: width)
            } else {
                composer.compose(lensRow: y, into: output.row(y), span: 0..<width)
            }
        }
    }

    /// `target[x] = source[count − 1 − x]`, eight bytes at a time: a byte swap of a 64-bit word
    /// reverses its bytes, several times faster than a byte loop (SSE2 has no byte shuffle).
    static func reverse(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, count: Int) {
        var x = 0
        while x + 8 <= count {
            let word = UnsafeRawPointer(source + count - 8 - x).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(target + x).storeBytes(of: word.byteSwapped, as: UInt64.self)
            x += 8
        }
        while x < count {
            target[x] = source[count - 1 - x]
            x += 1
        }
    }

    /// Digital zoom: bilinear enlargement of the composed lens rows.
    private func enlarge(rows: Range<Int>, sampling: Sampling, composer: LensRowComposer, scratch: BandScratch) {
        let width = output.width
        // Which lens row each scratch row holds (−1: none yet).
        var upperRow = -1, lowerRow = -1
        var upper = scratch.upper, lower = scratch.lower
        for y in rows {
            let top = Int(sampling.rows.index[y]), weight = sampling.rows.weight[y]
            let bottom = top + 1
            if upperRow != top {
                if lowerRow == top {
                    // Moving down one lens row: the previous lower row is the new upper one.
                    swap(&upper, &lower)
                    swap(&upperRow, &lowerRow)
                } else {
                    stretch(lensRow: top, into: upper, sampling: sampling, composer: composer, scratch: scratch)
                    upperRow = top
                }
            }
            let target = output.row(y)
            if weight == 0 {
                target.update(from: upper, count: width)
                continue
            }
            if lowerRow != bottom {
                stretch(lensRow: bottom, into: lower, sampling: sampling, composer: composer, scratch: scratch)
                lowerRow = bottom
            }
            // a·(256 − w) + b·w fits 16 bits, so this vectorizes to 16-bit lanes; shifted right by
            // 8 it equals floor(a + (b − a)·w / 256), the same rounding as the horizontal pass.
            let forward = UInt16(weight), backward = UInt16(256 - weight)
            for x in 0..<width {
                target[x] = UInt8(truncatingIfNeeded: (UInt16(upper[x]) &* backward &+ UInt16(lower[x]) &* forward) &>> 8)
            }
        }
    }

    /// Lens row `lensRow` composed over the needed columns, then stretched to output width.
    private func stretch(lensRow: Int, into target: UnsafeMutablePointer<UInt8>, sampling: Sampling,
                         composer: LensRowComposer, scratch: BandScratch) {
        let source = scratch.lensRow
        composer.compose(lensRow: lensRow, into: source, span: sampling.lensColumns)
        let index = sampling.columns.index, weight = sampling.columns.weight
        for x in 0..<output.width {
            let at = Int(index[x])
            let a = Int32(source[at]), b = Int32(source[at + 1])
            target[x] = UInt8(truncatingIfNeeded: a &+ (((b &- a) &* weight[x]) >> 8))
        }
    }
}

/// Composes lens rows: the static layer's row through the tone table (nil: identity), with
/// the shapes on top.
struct LensRowComposer {
    let lens: PlaneView
    let table: UnsafeBufferPointer<UInt8>?
    let shapes: UnsafeBufferPointer<PlaneShape>

    /// Writes lens row `lensRow` to `destination[span]` (indexed by lens column).
    func compose(lensRow: Int, into destination: UnsafeMutablePointer<UInt8>, span: Range<Int>) {
        let source = lens.row(lensRow)
        if let table {
            for x in span { destination[x] = table[Int(source[x])] }
        } else {
            (destination + span.lowerBound).update(from: source + span.lowerBound, count: span.count)
        }
        for shape in shapes {
            shape.draw(row: lensRow, into: destination, span: span)
        }
    }
}
