internal import CPNG
import VRenderCore

/// Reads PNG files into an `RGBImage` with libpng's simplified API
/// (`png_image_begin_read_from_file` / `png_image_finish_read`), which turns any PNG (grey,
/// palette, 16-bit, interlaced) into 8-bit RGB. Alpha is composited onto black. For golden
/// frames and tests that check what `PNGWriter` wrote.
package enum PNGReader {
    package static func read(_ path: String) throws -> RGBImage {
        var control = png_image()
        control.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&control) }
        guard png_image_begin_read_from_file(&control, path) != 0 else {
            throw VRenderError.input(path, "is not a readable PNG file (\(message(of: control)))")
        }
        control.format = UInt32(PNG_FORMAT_RGB)
        // Black, so that compositing an alpha channel "onto the buffer" composites onto black.
        var image = RGBImage(width: Int(control.width), height: Int(control.height))
        let stride = Int32(image.width * 3)
        let ok = image.pixels.withUnsafeMutableBytes { pixels in
            png_image_finish_read(&control, nil, pixels.baseAddress, stride, nil)
        }
        guard ok != 0 else {
            throw VRenderError.input(path, "is a damaged PNG file (\(message(of: control)))")
        }
        return image
    }

    /// libpng's text for the last warning or error, kept in the control structure.
    static func message(of control: png_image) -> String {
        withUnsafeBytes(of: control.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
