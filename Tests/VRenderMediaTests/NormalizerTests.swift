import Testing
import VRenderCore
@testable import VRenderMedia

@Suite struct FrameNormalizerTests {
    @Test func letterboxesAWiderPicture() throws {
        let source = try Frame.picture(width: 64, height: 32)
        paint(source, luma: 200)
        let canvas = try Frame.picture(width: 64, height: 64)
        paint(canvas, luma: 99)
        let normalizer = FrameNormalizer(canvasWidth: 64, canvasHeight: 64)
        #expect(normalizer.placement(width: 64, height: 32, rotation: .none) == PixelRect(x: 0, y: 16, width: 64, height: 32))
        try normalizer.normalize(source, rotation: .none, into: canvas)
        #expect(luma(canvas, 10, 0) == 16)      // top bar: black
        #expect(luma(canvas, 10, 63) == 16)     // bottom bar
        #expect(luma(canvas, 10, 32) == 200)    // picture
        #expect(canvas.yuvImage().cb.row(0)[0] == 128)
    }

    @Test func turnsAQuarterTurnUprightClockwise() throws {
        // Stored 16x8 with a bright block in the top-left corner. Turned clockwise, the top-left
        // corner goes to the top-right.
        let source = try Frame.picture(width: 16, height: 8)
        paint(source, luma: 50)
        let image = source.yuvImage()
        for y in 0..<4 { image.luma.row(y).update(repeating: 220, count: 4) }
        let canvas = try Frame.picture(width: 8, height: 16)
        let normalizer = FrameNormalizer(canvasWidth: 8, canvasHeight: 16)
        try normalizer.normalize(source, rotation: .clockwise90, into: canvas)
        #expect(luma(canvas, 7, 0) > 150)   // top-right: the block
        #expect(luma(canvas, 0, 0) < 100)   // top-left: not the block
        #expect(luma(canvas, 0, 15) < 100)
    }

    @Test func recognizesFramesThatNeedNoWork() throws {
        let normalizer = FrameNormalizer(canvasWidth: 64, canvasHeight: 32)
        let ready = try Frame.picture(width: 64, height: 32)
        #expect(normalizer.isCanvasReady(ready, rotation: .none))
        #expect(!normalizer.isCanvasReady(ready, rotation: .upsideDown))
        #expect(!normalizer.isCanvasReady(try Frame.picture(width: 32, height: 32), rotation: .none))
    }
}

@Suite struct ImageOpsTests {
    @Test func rotationsMapCornersAsPlayersDo() throws {
        // 4x2 luma with distinct values: 0 1 2 3 / 4 5 6 7 (chroma ignored).
        let source = try Frame.picture(width: 4, height: 2)
        let image = source.yuvImage()
        for y in 0..<2 { for x in 0..<4 { image.luma.row(y)[x] = UInt8(y * 4 + x) } }
        func rotated(_ rotation: Rotation) throws -> [[UInt8]] {
            let size = rotation.upright(width: 4, height: 2)
            let out = try Frame.picture(width: size.width, height: size.height)
            ImageOps.rotate(image, by: rotation, into: out.yuvImage(), x: 0, y: 0)
            return (0..<size.height).map { y in (0..<size.width).map { x in luma(out, x, y) } }
        }
        #expect(try rotated(.clockwise90) == [[4, 0], [5, 1], [6, 2], [7, 3]])
        #expect(try rotated(.upsideDown) == [[7, 6, 5, 4], [3, 2, 1, 0]])
        #expect(try rotated(.clockwise270) == [[3, 7], [2, 6], [1, 5], [0, 4]])
    }
}
