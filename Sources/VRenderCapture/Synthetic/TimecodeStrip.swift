import VRenderCore

/// The burned-in strip along the bottom of every synthetic frame: frame number, time, camera
/// and zoom, torch. Drawn in screen space after everything else, so it is neither zoomed nor
/// mirrored nor exposed: it stays readable, and tests can read a frame's identity off it.
enum TimecodeStrip {
    /// Glyph pixels are `scale`×`scale` blocks: 4 at 1080p, 3 at 720p, at least 1.
    static func scale(width: Int, height: Int) -> Int {
        Swift.max(1, Swift.min(height / 240, width / 320))
    }

    /// Rows the strip covers at the bottom of the picture (even, for 4:2:0).
    static func height(width: Int, height: Int) -> Int {
        let rows = 11 * scale(width: width, height: height)
        return Swift.min((rows + 1) & ~1, height)
    }

    /// `#000123  00:00:04.100  BACK  2.35X  TORCH 0.50`. Time is rounded to the millisecond and
    /// the zoom to the hundredth with integer arithmetic, so the text is the same everywhere.
    static func text(frameIndex: Int, time: Double, camera: CameraSnapshot) -> String {
        let milliseconds = Swift.max(0, Int((time * 1000).rounded()))
        let seconds = milliseconds / 1000
        let clock = pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
            + "." + pad(milliseconds % 1000, 3)
        var text = "#" + pad(frameIndex, 6) + "  " + clock + "  " + camera.position.rawValue.uppercased()
            + "  " + hundredths(camera.zoom) + "X"
        if camera.torch > 0 { text += "  TORCH " + hundredths(camera.torch) }
        return text
    }

    /// Paints the strip over the bottom rows of `image`.
    static func draw(_ text: String, into image: YUVImage) {
        let width = image.width, height = image.height
        let stripHeight = Self.height(width: width, height: height)
        guard stripHeight > 0 else { return }
        let top = height - stripHeight
        for y in top..<height { image.luma.row(y).update(repeating: 16, count: width) }
        for y in image.chroma.chromaRows(covering: top..<height) {
            image.cb.row(y).update(repeating: 128, count: image.cb.width)
            image.cr.row(y).update(repeating: 128, count: image.cr.width)
        }
        let scale = scale(width: width, height: height)
        let originX = 2 * scale, originY = top + 2 * scale
        BitmapFont.forEachDot(of: text, scale: scale) { dotX, dotY in
            let x = originX + dotX, y = originY + dotY
            guard x < width, y < height else { return }  // clipped, on pictures too small for the strip
            for row in y..<Swift.min(y + scale, height) {
                image.luma.row(row).advanced(by: x).update(repeating: 235, count: Swift.min(scale, width - x))
            }
        }
    }

    private static func pad(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }

    private static func hundredths(_ value: Double) -> String {
        let scaled = Int((value * 100).rounded())
        return "\(scaled / 100)." + pad(scaled % 100, 2)
    }
}
