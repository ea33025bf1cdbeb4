internal import CPNG
import VRenderCore

/// Writes PNG files with libpng's simplified API (`png_image_write_to_memory`), then puts them
/// in place with `AtomicFile`: a reader never sees half a picture.
///
/// libpng reports errors by `longjmp`, which Swift cannot survive; its simplified API catches
/// them itself and returns a status instead, so only that API is used here.
package enum PNGWriter {
    /// Writes `image` to `path` as an 8-bit RGB PNG.
    package static func write(_ image: RGBImage, to path: String) throws {
        let encoded = try encode(image, path: path)
        try encoded.withUnsafeBytes { try AtomicFile.write($0, to: path) }
    }

    /// Writes `image` to `name` directly in `folder`, through the folder's descriptor.
    package static func write(_ image: RGBImage, in folder: FolderHandle, name: String) throws {
        let encoded = try encode(image, path: folder.join(name))
        try encoded.withUnsafeBytes { try AtomicFile.write($0, in: folder, name: name) }
    }

    /// `image` as PNG file bytes, for a caller that sends them instead of writing a file (the
    /// studio's filter grid); errors name `subject`.
    package static func bytes(of image: RGBImage, subject: String = "PNG picture") throws -> [UInt8] {
        try encode(image, path: subject)
    }

    /// The PNG file's bytes. The first guess at their size (the raw pixels, which PNG rarely
    /// exceeds) is retried once at the size libpng asks for when a picture does not compress.
    private static func encode(_ image: RGBImage, path: String) throws -> [UInt8] {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 3 else {
            throw VRenderError.output(path, "cannot write a \(image.width)x\(image.height) picture holding \(image.pixels.count) bytes")
        }
        var capacity = image.pixels.count + image.height + 1024
        for _ in 0..<2 {
            var output = [UInt8](repeating: 0, count: capacity)
            var size = capacity
            var control = makeControl(for: image)
            let ok = image.pixels.withUnsafeBytes { pixels in
                output.withUnsafeMutableBytes { memory in
                    png_image_write_to_memory(&control, memory.baseAddress, &size, 0, pixels.baseAddress,
                                              Int32(image.width * 3), nil)
                }
            }
            let message = PNGReader.message(of: control)
            png_image_free(&control)
            if ok != 0 { return Array(output.prefix(size)) }
            // libpng raises `size` above what it was given when only the buffer was too small.
            guard size > capacity else { throw VRenderError.output(path, "libpng could not encode the picture: \(message)") }
            capacity = size
        }
        throw VRenderError.output(path, "libpng could not encode the picture: it kept growing")
    }

    private static func makeControl(for image: RGBImage) -> png_image {
        var control = png_image()
        control.version = UInt32(PNG_IMAGE_VERSION)
        control.width = UInt32(image.width)
        control.height = UInt32(image.height)
        control.format = UInt32(PNG_FORMAT_RGB)
        return control
    }
}
