internal import CFFmpeg
import Foundation
import VRenderCore

/// Opens a file and describes its streams without decoding anything but what
/// `avformat_find_stream_info` needs.
public enum Probe {
    /// Probes one input. Every problem becomes a `VRenderError.input` naming the file: missing,
    /// a directory, empty, not a media file, truncated before its index, no video stream.
    public static func probe(_ path: String) throws -> MediaInfo {
        try checkReadableFile(path)
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: path)
        } catch {
            throw VRenderError.input(path, "cannot be read as a video (\(explain(error)))")
        }
        return try demuxer.info()
    }

    /// Checks what the operating system can tell before FFmpeg is asked, for precise messages.
    static func checkReadableFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw VRenderError.input(path, "no such file")
        }
        if isDirectory.boolValue { throw VRenderError.input(path, "is a directory, not a video file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw VRenderError.input(path, "permission denied")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        if size == 0 { throw VRenderError.input(path, "empty file (0 bytes)") }
    }

    static func explain(_ error: FFmpegError) -> String {
        if error.code == vr_averror_invaliddata() {
            return "not a media file, or truncated before its index"
        }
        return error.message
    }
}

extension Demuxer {
    /// Builds the `MediaInfo` of an opened file.
    func info() throws -> MediaInfo {
        guard let videoIndex = bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw VRenderError.input(path, "no video stream (only \(streamKinds()))")
        }
        let container = String(cString: context.pointee.iformat.pointee.name)
        try refuseStillImage(videoIndex, container: container)
        let video = try videoInfo(stream: stream(videoIndex))
        let audioTracks = (0..<Int(context.pointee.nb_streams))
            .filter { stream($0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
            .compactMap { audioInfo(stream: stream($0)) }
        return MediaInfo(path: path, container: container, video: video, audioTracks: audioTracks)
    }

    /// A picture file (PNG, JPEG, ...) or a song's cover art demuxes as a one-frame "video":
    /// joining it would make a take of no length, so it is refused by name.
    private func refuseStillImage(_ videoIndex: Int, container: String) throws {
        let codec = String(cString: avcodec_get_name(stream(videoIndex).pointee.codecpar.pointee.codec_id))
        if container == "image2" || container.hasSuffix("_pipe") {
            throw VRenderError.input(path, "is a still image (\(codec)), not a video")
        }
        if stream(videoIndex).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
            throw VRenderError.input(path, "has no video stream, only a cover image (\(codec)) beside its audio")
        }
    }

    private func streamKinds() -> String {
        let kinds = (0..<Int(context.pointee.nb_streams)).map { index -> String in
            let type = stream(index).pointee.codecpar.pointee.codec_type
            return av_get_media_type_string(type).map { String(cString: $0) } ?? "unknown"
        }
        return kinds.isEmpty ? "no streams at all" : kinds.joined(separator: ", ")
    }

    /// Seconds from a stream's own duration, else the container's (Matroska has no per-stream
    /// duration).
    private func seconds(_ stream: UnsafeMutablePointer<AVStream>) -> (start: Double, duration: Double) {
        let timeBase = av_q2d(stream.pointee.time_base)
        let start = stream.pointee.start_time == vr_nopts_value() ? 0 : Double(stream.pointee.start_time) * timeBase
        if stream.pointee.duration > 0 && stream.pointee.duration != vr_nopts_value() {
            return (start, Double(stream.pointee.duration) * timeBase)
        }
        let containerDuration = context.pointee.duration
        if containerDuration > 0 && containerDuration != vr_nopts_value() {
            let containerStart = context.pointee.start_time == vr_nopts_value() ? 0 : Double(context.pointee.start_time) / Double(AV_TIME_BASE)
            return (start, Double(containerDuration) / Double(AV_TIME_BASE) - (start - containerStart))
        }
        return (start, 0)
    }

    private func videoInfo(stream: UnsafeMutablePointer<AVStream>) throws -> VideoStreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        guard avcodec_find_decoder(parameters.codec_id) != nil else {
            throw VRenderError.input(path, "no decoder for its video codec '\(String(cString: avcodec_get_name(parameters.codec_id)))'")
        }
        guard parameters.width > 0, parameters.height > 0 else {
            throw VRenderError.input(path, "video stream has no picture size (damaged header)")
        }
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        if rate.num <= 0 || rate.den <= 0 { rate = AVRational(num: 30, den: 1) }
        let matrix = displayMatrix(stream)
        // av_display_rotation_get answers counter-clockwise degrees; players turn clockwise.
        let rotation = matrix.map { values in
            values.withUnsafeBufferPointer { Rotation(clockwiseDegrees: -av_display_rotation_get($0.baseAddress!)) }
        } ?? .none
        let (start, duration) = seconds(stream)
        let formatName = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) } ?? "unknown"
        var info = VideoStreamInfo(
            index: Int(stream.pointee.index),
            codecName: String(cString: avcodec_get_name(parameters.codec_id)),
            width: Int(parameters.width), height: Int(parameters.height),
            pixelFormat: formatName,
            timeBase: Rational(Int(stream.pointee.time_base.num), Int(stream.pointee.time_base.den)),
            frameRate: Rational(Int(rate.num), Int(rate.den)),
            rotation: rotation == .none && matrix == nil ? .none : rotation,
            displayMatrix: matrix,
            extradata: bytes(parameters.extradata, Int(parameters.extradata_size)),
            startTime: start, duration: duration)
        info.colour = ColourDescription(
            primaries: Int32(parameters.color_primaries.rawValue), transfer: Int32(parameters.color_trc.rawValue),
            matrix: Int32(parameters.color_space.rawValue), fullRange: parameters.color_range == AVCOL_RANGE_JPEG)
        if let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format)) {
            info.bitDepth = Int(descriptor.pointee.comp.0.depth)
        }
        info.codecTag = fourcc(parameters.codec_tag)
        info.profile = parameters.profile
        return info
    }

    /// A codec tag as its four characters ("avc1"), empty for 0 or unprintable tags.
    private func fourcc(_ tag: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        guard tag != 0, bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func audioInfo(stream: UnsafeMutablePointer<AVStream>) -> AudioStreamInfo? {
        let parameters = stream.pointee.codecpar.pointee
        // An audio stream vrender cannot decode is treated as absent (silence), not an error.
        guard avcodec_find_decoder(parameters.codec_id) != nil, parameters.sample_rate > 0 else { return nil }
        let (start, duration) = seconds(stream)
        return AudioStreamInfo(
            index: Int(stream.pointee.index),
            codecName: String(cString: avcodec_get_name(parameters.codec_id)),
            sampleRate: Int(parameters.sample_rate),
            channels: Int(parameters.ch_layout.nb_channels),
            sampleFormat: av_get_sample_fmt_name(AVSampleFormat(rawValue: parameters.format)).map { String(cString: $0) } ?? "unknown",
            timeBase: Rational(Int(stream.pointee.time_base.num), Int(stream.pointee.time_base.den)),
            extradata: bytes(parameters.extradata, Int(parameters.extradata_size)),
            startTime: start, duration: duration)
    }

    private func displayMatrix(_ stream: UnsafeMutablePointer<AVStream>) -> [Int32]? {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            return nil
        }
        return data.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
    }

    private func bytes(_ pointer: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }
}
