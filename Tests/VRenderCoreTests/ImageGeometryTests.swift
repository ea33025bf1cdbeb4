import Testing
@testable import VRenderCore

/// A planar picture in memory the test owns, every row padded, samples numbered so a test can
/// see which ones an operation touched.
private final class Picture {
    let width: Int, height: Int, chromaWidth: Int, chromaHeight: Int
    let strides: [Int]
    private let planes: [UnsafeMutableBufferPointer<UInt8>]
    let image: YUVImage

    /// `blockWidth` × `blockHeight` luma samples per chroma sample; chroma sizes round up.
    init(width: Int, height: Int, blockWidth: Int, blockHeight: Int, padding: Int = 13) {
        self.width = width
        self.height = height
        let chromaWidth = (width + blockWidth - 1) / blockWidth
        let chromaHeight = (height + blockHeight - 1) / blockHeight
        let strides = [width + padding, chromaWidth + padding, chromaWidth + padding]
        let rows = [height, chromaHeight, chromaHeight], widths = [width, chromaWidth, chromaWidth]
        let planes = (0..<3).map { UnsafeMutableBufferPointer<UInt8>.allocate(capacity: strides[$0] * rows[$0]) }
        for (index, plane) in planes.enumerated() {
            for offset in plane.indices { plane[offset] = UInt8(truncatingIfNeeded: offset * 7 + index * 50 + 1) }
        }
        let views = (0..<3).map {
            PlaneView(base: planes[$0].baseAddress!, stride: strides[$0], width: widths[$0], height: rows[$0])
        }
        self.chromaWidth = chromaWidth
        self.chromaHeight = chromaHeight
        self.strides = strides
        self.planes = planes
        image = YUVImage(luma: views[0], cb: views[1], cr: views[2])
    }

    deinit { planes.forEach { $0.deallocate() } }

    /// Every byte of plane `index` (0 Y, 1 Cb, 2 Cr), padding included.
    func bytes(_ index: Int) -> [UInt8] { Array(planes[index]) }

    func sample(_ index: Int, x: Int, y: Int) -> UInt8 { planes[index][y * strides[index] + x] }

    /// The byte offset of `pointer` in plane `index`, as (x, y).
    func position(of pointer: UnsafeMutablePointer<UInt8>, plane index: Int) -> (x: Int, y: Int) {
        let offset = pointer - planes[index].baseAddress!
        return (offset % strides[index], offset / strides[index])
    }
}

@Suite struct ChromaBlockTests {
    @Test(arguments: [(1, 1), (2, 2), (3, 3), (853, 479), (854, 480), (33, 17)])
    func blockSizesRoundUpForOddPictures(width: Int, height: Int) {
        for (blockWidth, blockHeight) in [(2, 2), (2, 1), (1, 1)] {
            let picture = Picture(width: width, height: height, blockWidth: blockWidth, blockHeight: blockHeight)
            // A one-sample dimension has one chroma sample whatever the layout: its block is 1.
            #expect(picture.image.chroma.blockWidth == (width == 1 ? 1 : blockWidth), "\(width)x\(height)")
            #expect(picture.image.chroma.blockHeight == (height == 1 ? 1 : blockHeight), "\(width)x\(height)")
        }
    }
}

@Suite struct CropGeometryTests {
    /// The whole of an odd-sized 4:2:0 picture: the chroma planes keep their 427x240 samples
    /// (luma/chroma rounded down gave a block size of 1 and a 853-wide chroma view).
    @Test func wholeOddPictureKeepsItsChromaPlanes() {
        let picture = Picture(width: 853, height: 479, blockWidth: 2, blockHeight: 2, padding: 600)
        let view = picture.image.cropped(to: PixelRect(x: 0, y: 0, width: 853, height: 479))
        #expect((view.luma.width, view.luma.height) == (853, 479))
        #expect((view.cb.width, view.cb.height) == (427, 240))
        #expect((view.cr.width, view.cr.height) == (427, 240))
        #expect(view.cb.base == picture.image.cb.base)
    }

    /// An odd-sized crop inside a larger 4:2:0 picture keeps the chroma column and row of its
    /// cut-off last blocks (rounded down, the view lost them and they were never filtered).
    @Test func oddCropRoundsChromaUp() {
        let picture = Picture(width: 16, height: 16, blockWidth: 2, blockHeight: 2)
        let view = picture.image.cropped(to: PixelRect(x: 2, y: 4, width: 7, height: 5))
        #expect((view.luma.width, view.luma.height) == (7, 5))
        #expect(picture.position(of: view.luma.base, plane: 0) == (2, 4))
        for (index, plane) in [(1, view.cb), (2, view.cr)] {
            #expect((plane.width, plane.height) == (4, 3))
            #expect(picture.position(of: plane.base, plane: index) == (1, 2))
            #expect(plane.stride == picture.strides[index])
        }
    }

    @Test func cropsOf422And444() {
        let yuv422 = Picture(width: 33, height: 17, blockWidth: 2, blockHeight: 1)
        let view422 = yuv422.image.cropped(to: PixelRect(x: 4, y: 3, width: 29, height: 13))
        #expect((view422.cb.width, view422.cb.height) == (15, 13))
        #expect(yuv422.position(of: view422.cb.base, plane: 1) == (2, 3))

        // 4:4:4 chroma follows luma sample for sample, odd origins included.
        let yuv444 = Picture(width: 853, height: 479, blockWidth: 1, blockHeight: 1)
        let view444 = yuv444.image.cropped(to: PixelRect(x: 3, y: 1, width: 850, height: 477))
        #expect((view444.cb.width, view444.cb.height) == (850, 477))
        #expect(yuv444.position(of: view444.cr.base, plane: 2) == (3, 1))
    }

    /// A crop that ends at the right and bottom edges of an odd picture ends with its planes.
    @Test func cropToTheEdgeOfAnOddPicture() {
        let picture = Picture(width: 853, height: 479, blockWidth: 2, blockHeight: 2)
        let view = picture.image.cropped(to: PixelRect(x: 2, y: 2, width: 851, height: 477))
        #expect((view.cb.width, view.cb.height) == (426, 239))
        #expect(picture.position(of: view.cb.base, plane: 1) == (1, 1))
    }
}

@Suite struct FillBlackTests {
    /// Bars around the picture rectangle of an odd-sized 4:2:0 canvas: the last chroma column
    /// and row, which cover only bar pixels, are neutral too.
    @Test func oddCanvasBarsIncludeTheLastChromaColumnAndRow() {
        let picture = Picture(width: 853, height: 479, blockWidth: 2, blockHeight: 2)
        let before = (0..<3).map { picture.bytes($0) }
        let rect = PixelRect(x: 0, y: 0, width: 852, height: 478)
        ImageOps.fillBlack(picture.image, outside: rect)
        expectBars(picture, before: before, rect: rect, blockWidth: 2, blockHeight: 2)
    }

    @Test(arguments: [(2, 2), (2, 1), (1, 1)])
    func pillarboxAndLetterbox(blockWidth: Int, blockHeight: Int) {
        for rect in [PixelRect(x: 2, y: 0, width: 850, height: 480), PixelRect(x: 0, y: 4, width: 854, height: 472),
                     PixelRect(x: 0, y: 0, width: 0, height: 0)] {
            let picture = Picture(width: 854, height: 480, blockWidth: blockWidth, blockHeight: blockHeight)
            let before = (0..<3).map { picture.bytes($0) }
            ImageOps.fillBlack(picture.image, outside: rect)
            expectBars(picture, before: before, rect: rect, blockWidth: blockWidth, blockHeight: blockHeight)
        }
    }

    /// Every sample whose block lies outside `rect` is black, every other byte (samples inside
    /// and row padding) is as it was.
    private func expectBars(_ picture: Picture, before: [[UInt8]], rect: PixelRect, blockWidth: Int, blockHeight: Int) {
        let sizes = [(picture.width, picture.height), (picture.chromaWidth, picture.chromaHeight),
                     (picture.chromaWidth, picture.chromaHeight)]
        for index in 0..<3 {
            let (bw, bh) = index == 0 ? (1, 1) : (blockWidth, blockHeight)
            let black: UInt8 = index == 0 ? ImageOps.blackLuma : ImageOps.neutralChroma
            var wrong = 0
            for y in 0..<(before[index].count / picture.strides[index]) {
                for x in 0..<picture.strides[index] {
                    let (width, height) = sizes[index]
                    let inPlane = x < width && y < height
                    let inside = x * bw < rect.x + rect.width && (x + 1) * bw > rect.x
                        && y * bh < rect.y + rect.height && (y + 1) * bh > rect.y
                    let expected = inPlane && !inside ? black : before[index][y * picture.strides[index] + x]
                    if picture.sample(index, x: x, y: y) != expected { wrong += 1 }
                }
            }
            #expect(wrong == 0, "plane \(index), \(rect): \(wrong) samples wrong")
        }
    }
}

@Suite struct RotateGeometryTests {
    /// An odd-sized 4:2:0 source placed at (2, 2): its chroma, turned, lands at chroma (1, 1),
    /// the block its luma origin is in, and nothing else changes.
    @Test(arguments: Rotation.allCases)
    func oddSourceChromaLandsUnderItsLuma(rotation: Rotation) {
        let source = Picture(width: 3, height: 5, blockWidth: 2, blockHeight: 2)
        let destination = Picture(width: 12, height: 12, blockWidth: 2, blockHeight: 2)
        let untouched = destination.bytes(1)
        ImageOps.rotate(source.image, by: rotation, into: destination.image, x: 2, y: 2)
        let (w, h) = (source.chromaWidth, source.chromaHeight)
        let (outWidth, outHeight) = rotation.upright(width: w, height: h)
        var wrong: [String] = []
        for y in 0..<destination.chromaHeight {
            for x in 0..<destination.chromaWidth {
                let (u, v) = (x - 1, y - 1)
                let expected: UInt8
                if (0..<outWidth).contains(u) && (0..<outHeight).contains(v) {
                    // Clockwise: destination (u, v) shows source (v, h-1-u) for a quarter turn.
                    let from: (x: Int, y: Int) = switch rotation {
                    case .none: (u, v)
                    case .clockwise90: (v, h - 1 - u)
                    case .upsideDown: (w - 1 - u, h - 1 - v)
                    case .clockwise270: (w - 1 - v, u)
                    }
                    expected = source.sample(1, x: from.x, y: from.y)
                } else {
                    expected = untouched[y * destination.strides[1] + x]
                }
                if destination.sample(1, x: x, y: y) != expected { wrong.append("(\(x), \(y))") }
            }
        }
        #expect(wrong.isEmpty, "\(rotation): chroma \(wrong.joined(separator: " "))")
    }
}
