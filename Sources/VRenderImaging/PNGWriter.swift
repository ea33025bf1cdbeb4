internal import CPNG
import Foundation
import VRenderCore

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
