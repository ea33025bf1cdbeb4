internal import CFFmpeg
import VRenderCore
import VRenderImaging

/// Turns a decoded or captured picture into a small RGB image (for thumbnails and contact
/// sheets), keeping its aspect ratio. Owns a `SwscaleContext`; confined to one thread.
package final class Thumbnailer {
    private let scaler = SwscaleContext()

    package init() {}

    /// The picture scaled to `width` pixels wide (height follows the aspect ratio, even).
    ///
    /// Colours are read as the frame is tagged (matrix and range), and as a player would guess
    /// where it is not: BT.709 for HD, BT.601 for SD, full range for the "J" formats.
    package func thumbnail(of frame: Frame, width: Int) throws -> RGBImage {
        let height = Swift.max(2, Int((Double(width) * Double(frame.height) / Double(frame.width)).rounded()) & ~1)
        var image = RGBImage(width: width, height: height)
        try convert(frame, into: &image, filter: .bicubic)
        return image
    }

    /// The picture at its own size, with colours read as `thumbnail` reads them, converted the
    /// same way on every machine (`SwscaleContext.Filter.bitExact`): golden reference frames.
    /// `image` is reused when it already has the frame's size, so a loop over frames allocates
    /// once.
    package func fullSizePicture(of frame: Frame, into image: inout RGBImage) throws {
        if image.width != frame.width || image.height != frame.height {
            image = RGBImage(width: frame.width, height: frame.height)
        }
        try convert(frame, into: &image, filter: .bitExact)
    }

    private func convert(_ frame: Frame, into image: inout RGBImage, filter: SwscaleContext.Filter) throws {
        let tags = frame.pointer.pointee
        let colour = ColourDescription(primaries: Int32(tags.color_primaries.rawValue), transfer: Int32(tags.color_trc.rawValue),
                                       matrix: Int32(tags.colorspace.rawValue), fullRange: frame.isFullRange)
            .resolved(width: frame.width, height: frame.height, pixelFormatIsFullRange: frame.pixelFormat.isJPEGRange)
        let source = SwscaleContext.Picture(width: frame.width, height: frame.height, format: frame.pixelFormat,
                                            matrix: colour.matrix, fullRange: colour.fullRange)
        let destination = SwscaleContext.Picture(width: image.width, height: image.height, format: AV_PIX_FMT_RGB24,
                                                 fullRange: true)
        let width = image.width
        try image.pixels.withUnsafeMutableBufferPointer { pixels in
            var target = Planes()
            target[0] = (pixels.baseAddress, width * 3)
            try scaler.scale(.init(source: source, destination: destination, filter: filter),
                             from: Planes(frame), rows: frame.height, into: target)
        }
    }
}

/// Reads the first picture at or after a time in a video file, for thumbnails of finished takes.
package enum FrameGrabber {
    /// Decodes from the start until the first frame whose time is ≥ `seconds` (or the last
    /// frame, for a take shorter than that) and hands it to `body`.
    package static func frame<T>(in path: String, atSeconds seconds: Double, _ body: (Frame) throws -> T) throws -> T {
        try frame(in: path, atSeconds: seconds) { frame, _, _ in try body(frame) }
    }

    /// As `frame(in:atSeconds:_:)`, also handing `body` the frame's own time (seconds from the
    /// video's start: less than asked when the take is shorter) and the probed file.
    package static func frame<T>(in path: String, atSeconds seconds: Double,
                                _ body: (Frame, Double, MediaInfo) throws -> T) throws -> T {
        try Probe.checkReadableFile(path)   // "no such file", as every command says it
        let demuxer = try Demuxer(path: path)
        let info = try demuxer.info()
        let decoder = try Decoder(demuxer: demuxer, streamIndex: info.video.index, threads: 1)
        let packet = Packet()
        var chosen: Frame?
        func reached() -> Bool {
            guard let chosen, let time = decoder.seconds(of: chosen) else { return false }
            return time - info.video.startTime >= seconds
        }
        // Frames arrive in presentation order; keep the latest until one reaches the time.
        let consider: (Frame) -> Void = { frame in if !reached() { chosen = frame } }
        while !reached(), demuxer.read(into: packet) {
            if packet.streamIndex == info.video.index { try decoder.decode(packet, makeFrame: Frame.init, output: consider) }
        }
        if !reached() { try decoder.decode(nil, makeFrame: Frame.init, output: consider) }
        guard let chosen else { throw VRenderError.input(path, "no picture could be decoded") }
        let time = Swift.max(0, (decoder.seconds(of: chosen) ?? info.video.startTime) - info.video.startTime)
        return try body(chosen, time, info)
    }
}
