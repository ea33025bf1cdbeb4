import Testing
import VRenderCore
@testable import VRenderFilters

/// Every sample at every size: the CPU kernels must reach the last column and the last row of
/// every plane (SIMD tails, cut-off chroma blocks of odd sizes, row bands of odd heights), at
/// one thread and at several, alone, chained, and through `YUVImage.cropped(to:)` views, as
/// the export filters only the picture rectangle between letterbox bars.
@Suite struct EdgeCoverageTests {
    static let widths = [1, 2, 3, 5, 7, 15, 17, 31, 33, 63, 65, 641, 853, 854]
    /// 479: odd, and several row bands at three threads (361 is in `ColorFilterReferenceTests`).
    static let heights = [1, 2, 3, 5, 17, 479]
    /// Below this many luma samples the whole frame is checked, not only its edges.
    static let wholeFrameLimit = 4_096

    /// Every registered filter, and chains of all the colour looks (fused into one pass).
    static let specifications = FilterRegistry.names + [
        "fade,mono", "process,instant,transfer,tonal,sepia,chrome,noir,mono=strength=40",
    ]

    /// Out of place on one thread; in place on three (several bands once there are 64 rows).
    static let runs = [FilterTestReference.Run(threads: 1, inPlace: false),
                       FilterTestReference.Run(threads: 3, inPlace: true)]

    @Test(arguments: specifications)
    func everyEdgeSampleMatchesTheDefinition(specification: String) throws {
        let chain = try FilterRegistry.chain(specification)
        let programs = try EdgeReference.programs(of: chain)
        for layout in ChromaLayout.supported {
            for width in Self.widths {
                for height in Self.heights {
                    let source = FilterTestFrame(width: width, height: height, layout: layout,
                                                 seed: UInt64(width * 1_000 + height))
                    for run in Self.runs {
                        let output = EdgeReference.run(chain, on: source, run)
                        let problem = EdgeReference.mismatch(output, source: source, programs: programs,
                                                             everyBlock: width * height <= Self.wholeFrameLimit)
                            ?? EdgeReference.paddingMismatch(output, source: run.inPlace ? source : nil)
                        #expect(problem == nil, "\(specification) \(layout) \(width)x\(height) \(run): \(problem ?? "")")
                    }
                }
            }
        }
    }

    /// The reported bug: `mono` must leave no colour anywhere, the last column and row of an
    /// odd-sized 4:4:4 picture (853x479) included.
    @Test(arguments: ChromaLayout.supported)
    func monoLeavesEveryChromaSampleNeutral(layout: ChromaLayout) throws {
        let chain = try FilterRegistry.chain("mono")
        for (width, height) in [(853, 479), (641, 361), (1, 1), (3, 2), (17, 5)] {
            let source = FilterTestFrame(width: width, height: height, layout: layout, seed: 7)
            for run in Self.runs {
                let output = EdgeReference.run(chain, on: source, run)
                for plane in 1...2 {
                    let coloured = output.chromaSamples(plane: plane).filter { $0 != 128 }.count
                    #expect(coloured == 0, "\(layout) \(width)x\(height) \(run): \(coloured) samples of plane \(plane) not 128")
                }
                for y in [0, height - 1] {
                    for x in [0, width - 1] {
                        let expected = MonoFilter.curve(source.luma[y * source.strides[0] + x])
                        #expect(output.luma[y * output.strides[0] + x] == expected, "\(layout) \(width)x\(height) Y (\(x), \(y))")
                    }
                }
            }
        }
    }

    /// A picture rectangle with an even origin inside a larger padded frame, as between
    /// letterbox bars: every sample of the rectangle (chroma of its cut-off last blocks
    /// included) is filtered as a picture of that size would be, and every byte outside it,
    /// row padding included, stays as it was.
    @Test(arguments: ["mono", "sepia,chrome,process"], ChromaLayout.supported)
    func croppedViewIsFilteredExactlyInsideTheRectangle(specification: String, layout: ChromaLayout) throws {
        let chain = try FilterRegistry.chain(specification)
        for (width, height) in [(853, 479), (33, 17), (3, 5), (1, 1)] {
            let rect = PixelRect(x: 2, y: 4, width: width, height: height)
            let frame = FilterTestFrame(width: width + 9, height: height + 7, layout: layout, seed: UInt64(width + height))
            let expected = EdgeReference.croppedReference(chain.filters, on: frame, rect: rect)
            for threads in [1, 3] {
                let output = frame.copy()
                output.withImage { image in
                    let picture = image.cropped(to: rect)
                    chain.run(source: picture, destination: picture, threads: threads)
                }
                let same = output.luma == expected.luma && output.cb == expected.cb && output.cr == expected.cr
                let difference = output.firstDifference(from: expected) ?? "padding differs"
                #expect(same, "\(specification) \(layout) \(rect), \(threads) threads: \(difference)")
            }
            // Out of place, from the rectangle of one frame into the same rectangle of another.
            let destination = FilterTestFrame(width: frame.width, height: frame.height, layout: layout, seed: nil)
            let untouched = destination.copy()
            frame.withImage { source in
                destination.withImage { chain.run(source: source.cropped(to: rect), destination: $0.cropped(to: rect), threads: 2) }
            }
            let pasted = EdgeReference.croppedReference(chain.filters, on: frame, rect: rect, into: untouched)
            #expect(destination.luma == pasted.luma && destination.cb == pasted.cb && destination.cr == pasted.cr,
                    "\(specification) \(layout) \(rect) out of place: \(destination.firstDifference(from: pasted) ?? "padding differs")")
        }
    }
}

extension FilterTestReference.Run: CustomStringConvertible {
    var description: String { "\(inPlace ? "in place" : "out of place"), \(threads) threads" }
}

/// The definition evaluated block by block: every output block depends only on the same block
/// of the input, so a chain's result at the edges is computed from the edge blocks alone.
enum EdgeReference {
    static func programs(of chain: FilterChain) throws -> [ColorProgram] {
        try chain.filters.map { try #require(($0 as? any ColorProgramFilter)?.program, "\($0.descriptor.name)") }
    }

    static func run(_ chain: FilterChain, on source: FilterTestFrame, _ run: FilterTestReference.Run) -> FilterTestFrame {
        if run.inPlace {
            let output = source.copy()
            output.withImage { chain.run(source: $0, destination: $0, threads: run.threads) }
            return output
        }
        let output = FilterTestFrame(width: source.width, height: source.height, layout: source.layout, seed: nil)
        source.withImage { input in output.withImage { chain.run(source: input, destination: $0, threads: run.threads) } }
        return output
    }

    /// The first sample of the blocks on the frame's edges (every block when `everyBlock`)
    /// where `output` differs from `programs` run one after another on `source`, or nil.
    static func mismatch(_ output: FilterTestFrame, source: FilterTestFrame, programs: [ColorProgram],
                         everyBlock: Bool) -> String? {
        let blockWidth = (source.width + source.chromaWidth - 1) / source.chromaWidth
        let blockHeight = (source.height + source.chromaHeight - 1) / source.chromaHeight
        let lastX = source.chromaWidth - 1, lastY = source.chromaHeight - 1
        for cy in 0...lastY {
            let columns = everyBlock || cy == 0 || cy == lastY ? Array(0...lastX) : [0, lastX]
            for cx in columns {
                let rows = (cy * blockHeight)..<min((cy + 1) * blockHeight, source.height)
                let lumaColumns = (cx * blockWidth)..<min((cx + 1) * blockWidth, source.width)
                var luma = rows.flatMap { y in lumaColumns.map { source.luma[y * source.strides[0] + $0] } }
                var cb = source.cb[cy * source.strides[1] + cx], cr = source.cr[cy * source.strides[2] + cx]
                for program in programs {
                    let mean = UInt8((luma.reduce(0) { $0 + Int($1) } + luma.count / 2) / luma.count)
                    luma = luma.map { program.luma($0, cb: cb, cr: cr) }
                    (cb, cr) = program.chroma(meanLuma: mean, cb: cb, cr: cr)
                }
                var index = 0
                for y in rows {
                    for x in lumaColumns {
                        let actual = output.luma[y * output.strides[0] + x]
                        if actual != luma[index] { return "Y (\(x), \(y)): \(actual), expected \(luma[index])" }
                        index += 1
                    }
                }
                let actualCb = output.cb[cy * output.strides[1] + cx], actualCr = output.cr[cy * output.strides[2] + cx]
                if actualCb != cb { return "Cb (\(cx), \(cy)): \(actualCb), expected \(cb)" }
                if actualCr != cr { return "Cr (\(cx), \(cy)): \(actualCr), expected \(cr)" }
            }
        }
        return nil
    }

    /// Where a byte of `output`'s row padding differs from `source`'s (in place) or from the
    /// fill of a fresh output frame (`source` nil), or nil.
    static func paddingMismatch(_ output: FilterTestFrame, source: FilterTestFrame?) -> String? {
        let planes = [("Y", output.luma, source?.luma, output.width, output.height),
                      ("Cb", output.cb, source?.cb, output.chromaWidth, output.chromaHeight),
                      ("Cr", output.cr, source?.cr, output.chromaWidth, output.chromaHeight)]
        for (index, (name, bytes, original, width, height)) in planes.enumerated() {
            let stride = output.strides[index]
            for y in 0..<height {
                for x in width..<stride {
                    let offset = y * stride + x
                    if bytes[offset] != (original?[offset] ?? 0xA5) { return "\(name) padding (\(x), \(y)) written" }
                }
            }
        }
        return nil
    }

    /// `frame` (or `into`, when given) with the rectangle `rect` of `frame` replaced by the
    /// reference result of `filters` on a separate picture of the rectangle's size. The
    /// rectangle's chroma is located here independently of `cropped(to:)`: the samples from
    /// the block of its first luma sample to the block of its last, rounding up.
    static func croppedReference(_ filters: [any VideoFilter], on frame: FilterTestFrame, rect: PixelRect,
                                 into target: FilterTestFrame? = nil) -> FilterTestFrame {
        let blockWidth = (frame.width + frame.chromaWidth - 1) / frame.chromaWidth
        let blockHeight = (frame.height + frame.chromaHeight - 1) / frame.chromaHeight
        let chromaX = rect.x / blockWidth, chromaY = rect.y / blockHeight
        let chromaEndX = (rect.x + rect.width + blockWidth - 1) / blockWidth
        let chromaEndY = (rect.y + rect.height + blockHeight - 1) / blockHeight
        let picture = FilterTestFrame(width: rect.width, height: rect.height, layout: frame.layout, seed: nil)
        precondition(picture.chromaWidth == chromaEndX - chromaX && picture.chromaHeight == chromaEndY - chromaY,
                     "the rectangle's chroma is not a picture of its size")
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                picture.luma[y * picture.strides[0] + x] = frame.luma[(rect.y + y) * frame.strides[0] + rect.x + x]
            }
        }
        for y in 0..<picture.chromaHeight {
            for x in 0..<picture.chromaWidth {
                picture.cb[y * picture.strides[1] + x] = frame.cb[(chromaY + y) * frame.strides[1] + chromaX + x]
                picture.cr[y * picture.strides[2] + x] = frame.cr[(chromaY + y) * frame.strides[2] + chromaX + x]
            }
        }
        let filtered = FilterTestReference.apply(filters, to: picture)
        let result = (target ?? frame).copy()
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                result.luma[(rect.y + y) * result.strides[0] + rect.x + x] = filtered.luma[y * filtered.strides[0] + x]
            }
        }
        for y in 0..<picture.chromaHeight {
            for x in 0..<picture.chromaWidth {
                result.cb[(chromaY + y) * result.strides[1] + chromaX + x] = filtered.cb[y * filtered.strides[1] + x]
                result.cr[(chromaY + y) * result.strides[2] + chromaX + x] = filtered.cr[y * filtered.strides[2] + x]
            }
        }
        return result
    }
}
