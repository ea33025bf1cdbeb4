internal import CPNG
import Foundation
import VRenderCore

/// An 8-bit RGB picture in memory, rows packed (stride = 3 × width).
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

    /// Copies `other` with its top-left corner at (x, y), clipped to this image.
    public mutating func paste(_ other: RGBImage, x: Int, y: Int) {
        for row in 0..<other.height where y + row >= 0 && y + row < height {
            let columns = Swift.max(0, Swift.min(other.width, width - x))
            guard columns > 0, x >= 0 else { continue }
            let source = row * other.width * 3
            let target = ((y + row) * width + x) * 3
            pixels.replaceSubrange(target..<(target + columns * 3), with: other.pixels[source..<(source + columns * 3)])
        }
    }
}

/// Writes PNG files with libpng (`png_create_write_struct` … `png_write_end`).
public enum PNGWriter {
    /// Writes `image` to `path` through a temporary file renamed into place.
    public static func write(_ image: RGBImage, to path: String) throws {
        let temporary = path + ".partial"
        guard let file = fopen(temporary, "wb") else {
            throw VRenderError.output(path, "cannot create: \(String(cString: strerror(errno)))")
        }
        var failed = false
        image.pixels.withUnsafeBufferPointer { buffer in
            failed = !writePNG(file: file, width: image.width, height: image.height, pixels: buffer.baseAddress!)
        }
        fclose(file)
        if failed {
            unlink(temporary)
            throw VRenderError.output(path, "libpng could not write the image")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw VRenderError.output(path, "cannot move into place: \(String(cString: strerror(errno)))")
        }
    }

    /// libpng reports errors by longjmp, which Swift cannot catch; with its simplified API
    /// (`png_image_write_to_stdio`) errors come back as a return value instead.
    private static func writePNG(file: UnsafeMutablePointer<FILE>, width: Int, height: Int,
                                 pixels: UnsafePointer<UInt8>) -> Bool {
        var control = png_image()
        control.version = UInt32(PNG_IMAGE_VERSION)
        control.width = UInt32(width)
        control.height = UInt32(height)
        control.format = UInt32(PNG_FORMAT_RGB)
        let ok = png_image_write_to_stdio(&control, file, 0, pixels, Int32(width * 3), nil)
        png_image_free(&control)
        return ok != 0
    }
}
