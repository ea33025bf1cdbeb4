/// An 8-bit RGB picture in memory, rows packed (stride = 3 × width): thumbnails, contact
/// sheets, filter previews. Lives here, not with FFmpeg, so any module can draw and save one.
public struct RGBImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8) = (0, 0, 0)) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in stride(from: 0, to: pixels.count, by: 3) {
            pixels[index] = fill.r
            pixels[index + 1] = fill.g
            pixels[index + 2] = fill.b
        }
    }

    /// Copies `other` with its top-left corner at (x, y), clipped to this image on every side.
    public mutating func paste(_ other: RGBImage, x: Int, y: Int) {
        // The columns of `other` that land inside this image, as a half-open range.
        let first = Swift.max(0, -x), end = Swift.min(other.width, width - x)
        guard first < end else { return }
        let count = (end - first) * 3
        for row in 0..<other.height where y + row >= 0 && y + row < height {
            let source = (row * other.width + first) * 3
            let target = ((y + row) * width + x + first) * 3
            pixels.replaceSubrange(target..<(target + count), with: other.pixels[source..<(source + count)])
        }
    }
}
