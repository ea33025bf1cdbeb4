import VRenderCore

/// Mixes two pictures of the same size (a cross-dissolve), or one picture with black (a dip),
/// on the CPU, in bands of rows (`RowBands.yuv420`), for 8-bit and high-bit-depth 4:2:0 frames.
///
/// Weights are fixed point (`scale` = 256): `destination = (a·(256−w) + b·w + 128) >> 8`, so a
/// weight of 128 gives the average of the two, rounded, and the same inputs give the same
/// bytes on every machine and in every band split (chunked exports compare by framemd5).
/// Black is limited-range black: 16 and 128 at 8 bits, scaled by the bit depth above.
package enum PictureBlend {
    package static let scale = 256

    /// The fixed-point weight of `fraction` (0...1).
    package static func weight(_ fraction: Double) -> Int {
        Swift.min(scale, Swift.max(0, Int((fraction * Double(scale)).rounded())))
    }

    /// `destination = a·(1−w) + b·w`, with `b` nil meaning black. `destination` may be `a` or `b`.
    package static func blend(_ a: YUVImage, _ b: YUVImage?, weight: Int, into destination: YUVImage, threads: Int) {
        let planes: [(PlaneView, PlaneView?, PlaneView, Int)] = [
            (a.luma, b?.luma, destination.luma, 16), (a.cb, b?.cb, destination.cb, 128), (a.cr, b?.cr, destination.cr, 128)
        ]
        let geometry = ChromaGeometry(lumaWidth: a.luma.width, lumaHeight: a.luma.height,
                                      chromaWidth: a.cb.width, chromaHeight: a.cb.height)
        RowBands.yuv420.run(rows: a.luma.height, threads: threads) { band in
            for (index, (first, second, out, black)) in planes.enumerated() {
                let rows = index == 0 ? band : geometry.chromaRows(covering: band).clamped(to: 0..<first.height)
                for y in rows {
                    let (x, o) = (first.row(y), out.row(y))
                    let other = second?.row(y)
                    for column in 0..<first.width {
                        let mixed = Int(x[column]) * (scale - weight) + Int(other?[column] ?? UInt8(black)) * weight
                        o[column] = UInt8((mixed + scale / 2) >> 8)
                    }
                }
            }
        }
    }

    /// The high-bit-depth form of `blend` (10- or 12-bit samples in 16-bit words).
    package static func blend(_ a: YUVImage16, _ b: YUVImage16?, weight: Int, into destination: YUVImage16, threads: Int) {
        let shift = a.bitDepth - 8
        let planes: [(PlaneView16, PlaneView16?, PlaneView16, Int)] = [
            (a.luma, b?.luma, destination.luma, 16 << shift), (a.cb, b?.cb, destination.cb, 128 << shift),
            (a.cr, b?.cr, destination.cr, 128 << shift)
        ]
        let geometry = ChromaGeometry(lumaWidth: a.luma.width, lumaHeight: a.luma.height,
                                      chromaWidth: a.cb.width, chromaHeight: a.cb.height)
        RowBands.yuv420.run(rows: a.luma.height, threads: threads) { band in
            for (index, (first, second, out, black)) in planes.enumerated() {
                let rows = index == 0 ? band : geometry.chromaRows(covering: band).clamped(to: 0..<first.height)
                for y in rows {
                    let (x, o) = (first.row(y), out.row(y))
                    let other = second?.row(y)
                    for column in 0..<first.width {
                        let mixed = Int(x[column]) * (scale - weight) + Int(other?[column] ?? UInt16(black)) * weight
                        o[column] = UInt16((mixed + scale / 2) >> 8)
                    }
                }
            }
        }
    }
}
