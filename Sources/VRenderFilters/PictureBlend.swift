import VRenderCore

/// Mixes two pictures of the same size (a cross-dissolve), or one picture with black (a dip),
/// on the CPU, in bands of rows (`RowBands.yuv420`), for 8-bit and high-bit-depth 4:2:0 frames.
///
/// Weights are fixed point (`scale` = 256): `destination = (a·(256−w) + b·w + 128) >> 8`, so a
/// weight of 128 gives the average of the two, rounded, and the same inputs give the same
/// bytes on every machine and in every band split (chunked exports compare by framemd5).
/// Black is limited-range black: 16 and 128 at 8 bits, scaled by the bit depth above.
public enum PictureBlend {
    public static let scale = 256

    /// The fixed-point weight of `fraction` (0...1).
    public static func weight(_ fraction: Double) -> Int {
        Swift.min(scale, Swift.max(0, Int((fraction * Double(scale)).rounded())))
    }

    /// `destination = a·(1−w) + b·w`, with `b` nil meaning black. `destination` may be `a` or `b`.
    package static func blend(_ a: YUVImage, _ b: YUVImage?, weight: Int, into destination: YUVImage, threads: Int) {
        blend(a, b, black: (16, 128), weight: weight, into: destination, threads: threads)
    }

    /// The high-bit-depth form of `blend` (10- or 12-bit samples in 16-bit words).
    package static func blend(_ a: YUVImage16, _ b: YUVImage16?, weight: Int, into destination: YUVImage16, threads: Int) {
        let shift = a.bitDepth - 8
        blend(a, b, black: (16 << shift, 128 << shift), weight: weight, into: destination, threads: threads)
    }

    /// The one kernel for every sample size, `black` being limited-range black at its depth;
    /// each public form calls it with its own picture type, so it is compiled for each.
    static func blend<Image: PlanarYUV>(_ a: Image, _ b: Image?, black: (luma: Int, chroma: Int), weight: Int,
                                        into destination: Image, threads: Int)
    where Image.Plane: Sendable, Image.Plane.Sample: FixedWidthInteger {
        let planes: [(Image.Plane, Image.Plane?, Image.Plane, Int)] = [
            (a.luma, b?.luma, destination.luma, black.luma), (a.cb, b?.cb, destination.cb, black.chroma),
            (a.cr, b?.cr, destination.cr, black.chroma)
        ]
        let geometry = a.chroma
        RowBands.yuv420.run(rows: a.luma.height, threads: threads) { band in
            for (index, (first, second, out, black)) in planes.enumerated() {
                let rows = index == 0 ? band : geometry.chromaRows(covering: band).clamped(to: 0..<first.height)
                for y in rows {
                    let (x, o) = (first.row(y), out.row(y))
                    let other = second?.row(y)
                    for column in 0..<first.width {
                        let mixed = Int(x[column]) * (scale - weight) + Int(other?[column] ?? Image.Plane.Sample(black)) * weight
                        o[column] = Image.Plane.Sample((mixed + scale / 2) >> 8)
                    }
                }
            }
        }
    }
}
