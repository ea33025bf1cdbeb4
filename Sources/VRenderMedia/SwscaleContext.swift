internal import CFFmpeg
import VRenderCore

/// The one owner of a libswscale `SwsContext` (`sws_alloc_context` + `sws_init_context` /
/// `sws_freeContext`), and the only file that calls `sws_*`. Every user (frame normalizer,
/// thumbnailer, capture picture scaler) says what it converts as a `Conversion`; the context is
/// rebuilt only when that changes (in practice once per take or capture format), and its colour
/// tables (`sws_setColorspaceDetails`, which rebuilds them) are set once per rebuild, never per
/// frame.
///
/// Not thread-safe: confined to the thread of the stage that owns it.
final class SwscaleContext {
    /// A side of a conversion: picture size and format, and how its samples encode colour.
    struct Picture: Equatable {
        var width: Int
        var height: Int
        var format: AVPixelFormat
        /// H.273 matrix number (`AVColorSpace`); swscale knows BT.601, BT.709, FCC, SMPTE 240M and
        /// BT.2020 and treats the rest as BT.601. Ignored for RGB.
        var matrix: Int32 = SwscaleContext.defaultMatrix
        /// Full ("JPEG") range samples rather than limited ("TV") range. RGB is always full.
        var fullRange: Bool
    }

    /// What is converted to what, and with which resampling filter.
    struct Conversion: Equatable {
        var source: Picture
        var destination: Picture
        var filter: Filter
    }

    enum Filter: Equatable {
        /// Fast and sharp enough for video frames (`SWS_BILINEAR`).
        case bilinear
        /// Smoother for strong downscaling, e.g. thumbnails (`SWS_BICUBIC`).
        case bicubic
        /// Golden references: bicubic with accurate rounding and bit-exact arithmetic
        /// (`SWS_ACCURATE_RND | SWS_BITEXACT`), so a frame converts to the same bytes on every
        /// machine, whatever SIMD it has.
        case bitExact

        var swsFlags: Int64 {
            switch self {
            case .bilinear: Int64(SWS_BILINEAR)
            case .bicubic: Int64(SWS_BICUBIC)
            case .bitExact: Int64(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT)
            }
        }
    }

    /// The matrix swscale assumes when none is given (`SWS_CS_DEFAULT`, BT.601).
    static let defaultMatrix = Int32(SWS_CS_DEFAULT)

    private var context: OpaquePointer?
    /// What `context` was built and configured for; nil before the first frame.
    private var current: Conversion?
    /// How many times the context was (re)built and its colours set: once per change of
    /// conversion, which tests check.
    private(set) var configurations = 0

    init() {}

    deinit { sws_freeContext(context) }

    /// `sws_scale` of all `rows` of `source` into `destination` as `conversion` describes.
    func scale(_ conversion: Conversion, from source: Planes, rows: Int, into destination: Planes) throws {
        let context = try prepared(for: conversion)
        let result = withUnsafeBytes(of: source.bases) { sourceBases in
            withUnsafeBytes(of: source.strides) { sourceStrides in
                withUnsafeBytes(of: destination.bases) { destinationBases in
                    withUnsafeBytes(of: destination.strides) { destinationStrides in
                        // swscale only reads the source: its planes are passed as `const`.
                        sws_scale(context, sourceBases.bindMemory(to: UnsafePointer<UInt8>?.self).baseAddress,
                                  sourceStrides.bindMemory(to: Int32.self).baseAddress, 0, Int32(rows),
                                  destinationBases.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).baseAddress,
                                  destinationStrides.bindMemory(to: Int32.self).baseAddress)
                    }
                }
            }
        }
        try check(result, "sws_scale")
    }

    /// The context for `conversion`: the current one when nothing changed, otherwise a new one
    /// with its colour tables set (`sws_setColorspaceDetails`).
    private func prepared(for conversion: Conversion) throws -> OpaquePointer {
        if let context, conversion == current { return context }
        sws_freeContext(context)
        context = nil
        current = nil
        let fresh = try Self.makeContext(conversion)
        let source = conversion.source, destination = conversion.destination
        sws_setColorspaceDetails(fresh, sws_getCoefficients(Self.swsMatrix(source.matrix)), source.fullRange ? 1 : 0,
                                 sws_getCoefficients(Self.swsMatrix(destination.matrix)), destination.fullRange ? 1 : 0,
                                 0, 1 << 16, 1 << 16)
        context = fresh
        current = conversion
        configurations += 1
        return fresh
    }

    /// `sws_alloc_context`, its options, `sws_init_context`. Not `sws_getCachedContext`: the
    /// ranges must be known at init, where swscale picks its unscaled shortcuts (a plain copy
    /// when size and format match), and FFmpeg 5.1 keeps that choice when
    /// `sws_setColorspaceDetails` changes a range later, so full range would pass unconverted.
    private static func makeContext(_ conversion: Conversion) throws -> OpaquePointer {
        let source = conversion.source, destination = conversion.destination
        let failure = VRenderError(.runtime, subject: "scaler",
                                   reason: "cannot convert \(source.width)x\(source.height) \(pixelFormatName(source.format)) to \(destination.width)x\(destination.height) \(pixelFormatName(destination.format))")
        guard let context = sws_alloc_context() else { throw failure }
        let options: KeyValuePairs<String, Int64> = [
            "srcw": Int64(source.width), "srch": Int64(source.height), "src_format": Int64(source.format.rawValue),
            "src_range": source.fullRange ? 1 : 0,
            "dstw": Int64(destination.width), "dsth": Int64(destination.height),
            "dst_format": Int64(destination.format.rawValue), "dst_range": destination.fullRange ? 1 : 0,
            "sws_flags": conversion.filter.swsFlags,
        ]
        for (name, value) in options where av_opt_set_int(UnsafeMutableRawPointer(context), name, value, 0) < 0 {
            sws_freeContext(context)
            throw failure
        }
        guard sws_init_context(context, nil, nil) >= 0 else {
            sws_freeContext(context)
            throw failure
        }
        return context
    }

    /// swscale numbers its coefficient tables as H.273 numbers matrices (BT.709 = 1, FCC = 4,
    /// BT.470BG = 5, SMPTE 170M = 6, SMPTE 240M = 7, BT.2020 = 9); anything else is BT.601.
    static func swsMatrix(_ matrix: Int32) -> Int32 {
        [1, 4, 5, 6, 7, 9, 10].contains(matrix) ? matrix : defaultMatrix
    }
}

/// Where `sws_scale` reads or writes: up to four plane starts and their strides in bytes.
/// Fixed-size, so describing a frame allocates nothing.
struct Planes {
    typealias Base = UnsafeMutablePointer<UInt8>?
    var bases: (Base, Base, Base, Base) = (nil, nil, nil, nil)
    var strides: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)

    init() {}

    /// The first four planes of `frame`, as FFmpeg laid them out.
    init(_ frame: Frame) {
        let picture = frame.pointer.pointee
        bases = (picture.data.0, picture.data.1, picture.data.2, picture.data.3)
        strides = (picture.linesize.0, picture.linesize.1, picture.linesize.2, picture.linesize.3)
    }

    /// Plane `index` (0–3): its start and stride.
    subscript(index: Int) -> (base: Base, stride: Int) {
        get {
            precondition((0..<4).contains(index), "swscale takes four planes")
            let base = withUnsafeBytes(of: bases) { $0.load(fromByteOffset: index * MemoryLayout<Base>.stride, as: Base.self) }
            let stride = withUnsafeBytes(of: strides) { $0.load(fromByteOffset: index * 4, as: Int32.self) }
            return (base, Int(stride))
        }
        set {
            precondition((0..<4).contains(index), "swscale takes four planes")
            withUnsafeMutableBytes(of: &bases) { $0.storeBytes(of: newValue.base, toByteOffset: index * MemoryLayout<Base>.stride, as: Base.self) }
            withUnsafeMutableBytes(of: &strides) { $0.storeBytes(of: Int32(newValue.stride), toByteOffset: index * 4, as: Int32.self) }
        }
    }
}

extension Planes {
    /// These planes, of a picture in `format`, moved to the corner of `rect` (whose origin is on
    /// a chroma block boundary): chroma planes in units of their own subsampled grid, each in
    /// bytes of its plane's pixel step (2 for YUYV, NV12's UV and 10-bit samples). How a crop is
    /// read and how a picture is written into part of a canvas.
    func moved(to rect: PixelRect, format: AVPixelFormat) throws -> Planes {
        guard let descriptor = av_pix_fmt_desc_get(format)?.pointee else {
            throw VRenderError(.runtime, subject: "scaler", reason: "unknown pixel format \(format.rawValue)")
        }
        let chroma = ChromaGeometry(blockWidth: 1 << Int(descriptor.log2_chroma_w),
                                    blockHeight: 1 << Int(descriptor.log2_chroma_h))
        var planes = self
        for plane in 0..<4 {
            let (base, stride) = planes[plane]
            guard let base else { continue }
            let (step, isChroma) = Self.layout(of: plane, descriptor)
            let blocks = isChroma ? chroma : .yuv444
            let x = rect.x / blocks.blockWidth, y = rect.y / blocks.blockHeight
            planes[plane] = (base + y * stride + x * step, stride)
        }
        return planes
    }

    /// Bytes per pixel step in `plane`, and whether it holds chroma (so is subsampled).
    private static func layout(of plane: Int, _ descriptor: AVPixFmtDescriptor) -> (step: Int, isChroma: Bool) {
        let components = withUnsafeBytes(of: descriptor.comp) { Array($0.bindMemory(to: AVComponentDescriptor.self)) }
        for index in 0..<Int(descriptor.nb_components) where Int(components[index].plane) == plane {
            return (Int(components[index].step), index == 1 || index == 2)
        }
        return (1, false)
    }
}

extension AVPixelFormat {
    /// The deprecated "J" formats, whose samples are full range whatever `color_range` says;
    /// swscale treats them so.
    var isJPEGRange: Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P].contains(self)
    }
}

/// FFmpeg's name of `format` (`av_get_pix_fmt_name`), for messages.
func pixelFormatName(_ format: AVPixelFormat) -> String {
    av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown format"
}
