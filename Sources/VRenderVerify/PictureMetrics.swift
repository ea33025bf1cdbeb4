import Glibc
import VRenderCore
import VRenderImaging

/// PSNR and SSIM of two RGB pictures of one size, written from their definitions.
///
/// - PSNR: 10·log10(255² / MSE), the mean squared error taken over every R, G and B sample;
///   +infinity for identical pictures.
/// - SSIM (Wang, Bovik, Sheikh and Simoncelli, 2004): on 8×8 windows stepped by 4 pixels (as
///   FFmpeg's `ssim` filter places them), each window's
///   (2·μa·μb + C1)(2·σab + C2) / ((μa² + μb² + C1)(σa² + σb² + C2)) with C1 = (0.01·255)²,
///   C2 = (0.03·255)², averaged over the windows of each channel, then over R, G and B.
///
/// Rows are split across threads; the result is the same bits at any thread count, because
/// integer sums are exact and floating-point ones are added in row order once the bands are
/// done. Work buffers are kept between calls, so comparing every frame of a video allocates
/// once. Confined to one thread (it uses others inside each call).
package final class PictureMetrics {
    /// Threads each call uses.
    package let threads: Int
    /// Sums of each 4×4 block, per channel: what overlapping windows share.
    private var blocks: [BlockSums] = []
    private var rowScores: [Double] = []
    private var rowErrors: [UInt64] = []

    /// `threads` 0: one per processor, at most 8 (`ThreadBudget.machine.pictureBands`).
    package init(threads: Int = 0) {
        self.threads = threads > 0 ? threads : ThreadBudget.machine.pictureBands
    }

    /// Bands of at least 8 rows: a row of sums is cheap, a thinner band costs more than it saves.
    private static let bands = RowBands(minimumRows: 8)

    static let c1 = (0.01 * 255) * (0.01 * 255)
    static let c2 = (0.03 * 255) * (0.03 * 255)

    /// PSNR in dB over the RGB samples; `.infinity` when the pictures are identical.
    package func psnr(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height, "PSNR compares pictures of one size")
        let rowLength = a.width * 3
        Self.resize(&rowErrors, to: a.height, with: 0)
        withSamples(a, b) { samples in
            Self.bands.run(rows: a.height, threads: threads) { rows in
                for row in rows {
                    var sum: UInt64 = 0
                    let start = row * rowLength
                    for index in start..<(start + rowLength) {
                        let difference = Int(samples.a[index]) - Int(samples.b[index])
                        sum &+= UInt64(difference * difference)
                    }
                    samples.errors[row] = sum
                }
            }
        }
        let total = rowErrors.reduce(0, &+)
        guard total > 0 else { return .infinity }
        let meanSquaredError = Double(total) / Double(a.pixels.count)
        return 10 * log10(255 * 255 / meanSquaredError)
    }

    /// SSIM, 1 for identical pictures. Pictures under 8 pixels on a side are one window.
    package func ssim(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height, "SSIM compares pictures of one size")
        let blockColumns = a.width / 4, blockRows = a.height / 4
        guard blockColumns >= 2, blockRows >= 2 else { return wholePictureSSIM(a, b) }
        // Every entry is written before it is read: the buffers only need the right size.
        Self.resize(&blocks, to: blockColumns * blockRows * 3, with: BlockSums())
        Self.resize(&rowScores, to: blockRows - 1, with: 0)
        let width = a.width
        withSamples(a, b) { samples in
            Self.bands.run(rows: blockRows, threads: threads) { rows in
                for blockRow in rows { samples.sumBlocks(row: blockRow, columns: blockColumns, width: width) }
            }
            Self.bands.run(rows: blockRows - 1, threads: threads) { rows in
                for windowRow in rows { samples.scoreWindows(row: windowRow, blockColumns: blockColumns) }
            }
        }
        let windows = (blockColumns - 1) * (blockRows - 1) * 3
        return rowScores.reduce(0, +) / Double(windows)
    }

    /// Makes `buffer` hold `count` elements, reallocating only when the count changes.
    private static func resize<Element>(_ buffer: inout [Element], to count: Int, with value: Element) {
        if buffer.count != count { buffer = [Element](repeating: value, count: count) }
    }

    /// One window per channel covering the whole (small) picture.
    private func wholePictureSSIM(_ a: RGBImage, _ b: RGBImage) -> Double {
        var total = 0.0
        for channel in 0..<3 {
            var sums = BlockSums()
            for index in stride(from: channel, to: a.pixels.count, by: 3) {
                sums.add(a.pixels[index], b.pixels[index])
            }
            total += sums.ssim(samples: Double(a.width * a.height))
        }
        return total / 3
    }

    /// Runs `body` with raw views of both pictures and the work buffers.
    private func withSamples(_ a: RGBImage, _ b: RGBImage, _ body: (SharedSamples) -> Void) {
        a.pixels.withUnsafeBufferPointer { first in
            b.pixels.withUnsafeBufferPointer { second in
                blocks.withUnsafeMutableBufferPointer { blocks in
                    rowScores.withUnsafeMutableBufferPointer { scores in
                        rowErrors.withUnsafeMutableBufferPointer { errors in
                            body(SharedSamples(a: first, b: second, blocks: blocks, scores: scores, errors: errors))
                        }
                    }
                }
            }
        }
    }
}

/// Sums over some samples of two pictures: Σa, Σb, Σa² + Σb², Σab. A window's are the sums of
/// its four blocks'; at most 64 samples of 255, so Int32 never overflows.
struct BlockSums {
    var a: Int32 = 0
    var b: Int32 = 0
    var squares: Int32 = 0
    var cross: Int32 = 0

    mutating func add(_ x: UInt8, _ y: UInt8) {
        let x = Int32(x), y = Int32(y)
        a += x
        b += y
        squares += x * x + y * y
        cross += x * y
    }

    static func + (lhs: BlockSums, rhs: BlockSums) -> BlockSums {
        BlockSums(a: lhs.a + rhs.a, b: lhs.b + rhs.b, squares: lhs.squares + rhs.squares, cross: lhs.cross + rhs.cross)
    }

    /// Wang et al.'s SSIM of the `samples` samples these sums cover (population statistics).
    func ssim(samples count: Double) -> Double {
        let meanA = Double(a) / count, meanB = Double(b) / count
        let variances = Double(squares) / count - meanA * meanA - meanB * meanB
        let covariance = Double(cross) / count - meanA * meanB
        return (2 * meanA * meanB + PictureMetrics.c1) * (2 * covariance + PictureMetrics.c2)
            / ((meanA * meanA + meanB * meanB + PictureMetrics.c1) * (variances + PictureMetrics.c2))
    }
}

/// Raw views of two pictures and of the work buffers, for the bands of one call.
// @unchecked Sendable: the pictures are only read, and each band writes only its own rows' entries.
private struct SharedSamples: @unchecked Sendable {
    let a: UnsafeBufferPointer<UInt8>
    let b: UnsafeBufferPointer<UInt8>
    let blocks: UnsafeMutableBufferPointer<BlockSums>
    let scores: UnsafeMutableBufferPointer<Double>
    let errors: UnsafeMutableBufferPointer<UInt64>

    /// The 4×4 block sums of block row `row`, for each channel.
    func sumBlocks(row: Int, columns: Int, width: Int) {
        for column in 0..<columns {
            for channel in 0..<3 {
                var sums = BlockSums()
                for y in (row * 4)..<(row * 4 + 4) {
                    var index = (y * width + column * 4) * 3 + channel
                    for _ in 0..<4 {
                        sums.add(a[index], b[index])
                        index += 3
                    }
                }
                blocks[(row * columns + column) * 3 + channel] = sums
            }
        }
    }

    /// The SSIM sum of the windows whose top-left block is in block row `row`, in column order.
    func scoreWindows(row: Int, blockColumns columns: Int) {
        var total = 0.0
        for column in 0..<(columns - 1) {
            for channel in 0..<3 {
                let top = (row * columns + column) * 3 + channel
                let bottom = top + columns * 3
                let window = blocks[top] + blocks[top + 3] + blocks[bottom] + blocks[bottom + 3]
                total += window.ssim(samples: 64)
            }
        }
        scores[row] = total
    }
}
