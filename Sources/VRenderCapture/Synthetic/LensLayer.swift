import VRenderCore

/// The static scene as one lens sees it at one picture size, rendered once and then only read:
/// per frame the renderer copies or samples its rows instead of evaluating the scene again.
///
/// Each lens's field of view is inversely proportional to its native factor (the ultra-wide
/// sees twice the wide's width, the tele half). Luma is supersampled 2×2 so fine detail the
/// lens cannot resolve averages out rather than flickering; chroma (4:2:0) averages the colours
/// at the centres of the four luma pixels it covers.
///
/// Immutable after `init`, hence `@unchecked Sendable`: worker threads read it concurrently.
final class LensLayer: @unchecked Sendable {
    /// Twice the lens's native factor: 1 (ultra-wide), 2 (wide), 4 (tele).
    let magnification: Int
    let width: Int
    let height: Int
    let luma: PlaneView
    let cb: PlaneView
    let cr: PlaneView
    private let storage: UnsafeMutablePointer<UInt8>

    static func magnification(ofLens lens: Double) -> Int { Int((lens * 2).rounded()) }

    init(lens: Double, width: Int, height: Int, scene: StaticScene, threads: Int) {
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 needs even sizes")
        magnification = Self.magnification(ofLens: lens)
        self.width = width
        self.height = height
        let (chromaWidth, chromaHeight) = ChromaGeometry.yuv420.chromaSize(lumaWidth: width, lumaHeight: height)
        let lumaBytes = width * height, chromaBytes = chromaWidth * chromaHeight
        storage = .allocate(capacity: lumaBytes + 2 * chromaBytes)
        luma = PlaneView(base: storage, stride: width, width: width, height: height)
        cb = PlaneView(base: storage + lumaBytes, stride: chromaWidth, width: chromaWidth, height: chromaHeight)
        cr = PlaneView(base: storage + lumaBytes + chromaBytes, stride: chromaWidth,
                       width: chromaWidth, height: chromaHeight)
        render(scene: scene, threads: threads)
    }

    deinit { storage.deallocate() }

    /// World coordinate of a position along an axis, given in quarter pixels from the picture's
    /// top-left: (quarters − 2·extent)·unit / (2·width·magnification), which is exactly odd in
    /// the position's offset from the centre.
    private func world(quarterPixels: Int, extent: Int) -> Int {
        (quarterPixels - 2 * extent) * StaticScene.unit / (2 * width * magnification)
    }

    private func render(scene: StaticScene, threads: Int) {
        // World coordinates of the two luma subsamples (at ¼ and ¾ of a pixel) and of the pixel
        // centre, per column and per row.
        let columns = (0..<width).map { x in
            (world(quarterPixels: 4 * x + 1, extent: width), world(quarterPixels: 4 * x + 3, extent: width),
             world(quarterPixels: 4 * x + 2, extent: width))
        }
        let rows = (0..<height).map { y in
            (world(quarterPixels: 4 * y + 1, extent: height), world(quarterPixels: 4 * y + 3, extent: height),
             world(quarterPixels: 4 * y + 2, extent: height))
        }
        let luma = luma, cb = cb, cr = cr
        RowBands.run(RowBands.scene.split(rows: height, threads: threads)) { _, band in
            for y in band {
                let out = luma.row(y)
                let (top, bottom, _) = rows[y]
                for x in 0..<luma.width {
                    let (left, right, _) = columns[x]
                    let sum = scene.colour(x: left, y: top).y + scene.colour(x: right, y: top).y
                        + scene.colour(x: left, y: bottom).y + scene.colour(x: right, y: bottom).y
                    out[x] = UInt8(clamping: (sum + 2) >> 2)
                }
            }
            for chromaY in ChromaGeometry.yuv420.chromaRows(covering: band) {
                let cbRow = cb.row(chromaY), crRow = cr.row(chromaY)
                let top = rows[2 * chromaY].2, bottom = rows[2 * chromaY + 1].2
                for chromaX in 0..<cb.width {
                    let left = columns[2 * chromaX].2, right = columns[2 * chromaX + 1].2
                    let a = scene.colour(x: left, y: top), b = scene.colour(x: right, y: top)
                    let c = scene.colour(x: left, y: bottom), d = scene.colour(x: right, y: bottom)
                    let sumCb = a.cb + b.cb + c.cb + d.cb, sumCr = a.cr + b.cr + c.cr + d.cr
                    cbRow[chromaX] = UInt8(clamping: (sumCb + 2) >> 2)
                    crRow[chromaX] = UInt8(clamping: (sumCr + 2) >> 2)
                }
            }
        }
    }

    /// Mean luma of the layer over a region given in normalized lens coordinates (centre and
    /// half-size, 0...1 across the layer), from a fixed 16×16 grid of samples: cheap enough for
    /// every frame and independent of the picture size.
    func meanLuma(centreX: Double, centreY: Double, halfWidth: Double, halfHeight: Double) -> Int {
        let grid = 16
        var sum = 0
        for row in 0..<grid {
            let v = centreY + halfHeight * Double(2 * row + 1 - grid) / Double(grid)
            let y = Swift.min(Swift.max(Int((v * Double(height)).rounded(.down)), 0), height - 1)
            let line = luma.row(y)
            for column in 0..<grid {
                let u = centreX + halfWidth * Double(2 * column + 1 - grid) / Double(grid)
                let x = Swift.min(Swift.max(Int((u * Double(width)).rounded(.down)), 0), width - 1)
                sum += Int(line[x])
            }
        }
        return sum / (grid * grid)
    }
}
