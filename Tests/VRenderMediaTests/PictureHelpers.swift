@testable import VRenderMedia

/// Fills a frame's planes with a constant, for geometry and colour checks.
func paint(_ frame: Frame, luma: UInt8, chroma: UInt8 = 128) {
    let image = frame.yuvImage()
    for y in 0..<image.luma.height { image.luma.row(y).update(repeating: luma, count: image.luma.width) }
    for y in 0..<image.cb.height {
        image.cb.row(y).update(repeating: chroma, count: image.cb.width)
        image.cr.row(y).update(repeating: chroma, count: image.cr.width)
    }
}

/// The luma sample at (x, y) of a planar 8-bit frame.
func luma(_ frame: Frame, _ x: Int, _ y: Int) -> UInt8 { frame.yuvImage().luma.row(y)[x] }
