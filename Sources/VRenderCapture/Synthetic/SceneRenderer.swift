import VRenderCore

/// Renders the synthetic camera's picture: the scene a seed defines, seen through the camera
/// model's lens, zoom, torch and exposure at a given time, with a timecode strip.
///
/// Deterministic to the bit: the same seed, size, frame index, time and camera snapshot give
/// the same bytes on any machine and at any thread count. Everything per pixel is integer
/// arithmetic and table lookups; the few floating-point steps per frame use IEEE basic
/// operations only (see `DeterministicMath`).
///
/// Cost: the static part of the scene is rendered once per lens and picture size (a few tens
/// of milliseconds at 1080p, the first time a lens is used) and cached; per frame the renderer
/// copies or bilinearly samples those rows, paints the moving shapes and the strip, and applies
/// the tone tables when exposure or torch change anything.
///
/// Not thread-safe: one caller at a time (it splits each frame across `threads` itself).
package final class SceneRenderer {
    package let seed: UInt64
    /// Worker threads per frame (row bands). Output does not depend on it.
    package var threads: Int
    private let scene = StaticScene()
    private let shapes: [MovingShape]
    /// Static layers by lens magnification, for the size in `layerSize`.
    private var layers: [Int: LensLayer] = [:]
    private var layerSize = (width: 0, height: 0)
    private var scratch: [BandScratch] = []
    private var sampling: [AxisSampling] = []

    /// One per processor, at most 8 (`ThreadBudget.machine.pictureBands`).
    package static var defaultThreadCount: Int { ThreadBudget.machine.pictureBands }

    package init(seed: UInt64, threads: Int = SceneRenderer.defaultThreadCount) {
        self.seed = seed
        self.threads = Swift.max(1, threads)
        shapes = MovingShapes.make(seed: seed)
    }

    /// Renders frame `frameIndex` at `time` seconds into `image` (4:2:0, even size; any size,
    /// the caches follow it).
    package func render(frameIndex: Int, time: Double, camera: CameraSnapshot, into image: YUVImage) {
        let width = image.width, height = image.height
        precondition(width % 2 == 0 && height % 2 == 0 && image.cb.width == width / 2 && image.cb.height == height / 2,
                     "the synthetic camera renders even-sized 4:2:0 pictures")
        let layer = self.layer(lens: camera.lens, width: width, height: height)
        let tables = ToneTables(gain: Exposure.gain(layer: layer, camera: camera), torch: camera.torch,
                                position: camera.position)
        let sceneHeight = height - TimecodeStrip.height(width: width, height: height)
        if sceneHeight > 0 {
            let composers = self.composers(layer: layer, camera: camera, time: time, tables: tables, image: image)
            let bands = RowBands.scene.split(rows: sceneHeight, threads: threads)
            let scratch = self.scratch(count: bands.count, capacity: width)
            RowBands.run(bands) { index, rows in
                composers[0].render(rows: rows, scratch: scratch[index])
                let chromaRows = ChromaGeometry.yuv420.chromaRows(covering: rows)
                composers[1].render(rows: chromaRows, scratch: scratch[index])
                composers[2].render(rows: chromaRows, scratch: scratch[index])
            }
        }
        TimecodeStrip.draw(TimecodeStrip.text(frameIndex: frameIndex, time: time, camera: camera), into: image)
    }

    /// Luma, Cb and Cr composers for this frame.
    private func composers(layer: LensLayer, camera: CameraSnapshot, time: Double, tables: ToneTables,
                           image: YUVImage) -> [PlaneComposer] {
        let mirrored = camera.position == .front
        let crop = Swift.max(camera.cropFactor, 1)
        let inverseCrop = Int((65536 / crop).rounded())
        let planes: [(lens: PlaneView, output: PlaneView, table: [UInt8], identity: Bool, value: (SceneColour) -> Int32)] = [
            (layer.luma, image.luma, tables.luma, tables.lumaIsIdentity, { $0.y }),
            (layer.cb, image.cb, tables.cb, tables.chromaIsIdentity, { $0.cb }),
            (layer.cr, image.cr, tables.cr, tables.chromaIsIdentity, { $0.cr }),
        ]
        if sampling.count < 6 { sampling = (0..<6).map { _ in AxisSampling(capacity: image.width) } }
        return planes.enumerated().map { number, plane in
            let placed = shapes.map { shape in
                PlaneShape(shape, at: time, planeWidth: plane.lens.width, planeHeight: plane.lens.height,
                           magnification: layer.magnification, value: plane.table[Int(plane.value(shape.colour))])
            }.filter { $0.bottom >= 0 && $0.top < plane.lens.height }
            var composer = PlaneComposer(lens: plane.lens, output: plane.output, table: plane.table,
                                         tableIsIdentity: plane.identity, shapes: placed, mirrored: mirrored,
                                         sampling: nil)
            if inverseCrop != 65536 {
                let columns = sampling[2 * number], rows = sampling[2 * number + 1]
                let span = columns.build(count: plane.output.width, inverseCropQ16: inverseCrop, mirrored: mirrored)
                _ = rows.build(count: plane.output.height, inverseCropQ16: inverseCrop, mirrored: false)
                composer.sampling = (columns, rows, span)
            }
            return composer
        }
    }

    /// The static layer for `lens` at this size, rendered on first use.
    private func layer(lens: Double, width: Int, height: Int) -> LensLayer {
        if layerSize != (width, height) {
            layers.removeAll()
            layerSize = (width, height)
        }
        let key = LensLayer.magnification(ofLens: lens)
        if let layer = layers[key] { return layer }
        let layer = LensLayer(lens: lens, width: width, height: height, scene: scene, threads: threads)
        layers[key] = layer
        return layer
    }

    private func scratch(count: Int, capacity: Int) -> [BandScratch] {
        if scratch.count < count || (scratch.first?.capacity ?? 0) < capacity {
            scratch = (0..<Swift.max(count, scratch.count)).map { _ in BandScratch(capacity: capacity) }
        }
        return scratch
    }
}

extension RowBands {
    /// The synthetic camera's bands of 4:2:0 rows: 16 rows at least, as a scene row costs
    /// four samples a pixel and pays for its dispatch sooner than a filter's.
    static let scene = RowBands(minimumRows: 16, alignment: ChromaGeometry.yuv420.blockHeight)
}
