internal import CFFmpeg
import Foundation
import Synchronization
import VRenderCore

/// Opens a file and describes its streams without decoding anything but what
/// `avformat_find_stream_info` needs (and, for a take whose first pictures cannot be decoded,
/// the few after its first keyframe: `UndecodableStart`).
public enum Probe {
    /// Probes one input. Every problem becomes a `VRenderError.input` naming the file: missing,
    /// a directory, empty, not a media file, truncated before its index, no video stream.
    /// A take whose header claims what vrender cannot honour (`MediaLimits`: no frames, a huge
    /// picture, an absurd frame rate or length, a video nothing could be decoded from) is refused
    /// here, before any work, and its length is the one its packets show (`measuringLength`).
    public static func probe(_ path: String) throws -> MediaInfo {
        probes.add(1, ordering: .relaxed)
        try checkReadableFile(path)
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: path)
        } catch {
            throw VRenderError.input(path, "cannot be read as a video (\(explain(error)))")
        }
        let info = try demuxer.info(measuringLength: true)
        try refuseUnusable(info.video, path: path)
        return info
    }

    /// How many times this process has called `probe`: a chunk worker, whose plan carries its
    /// takes' probes, must make none (its done record says how many it made, and tests and the
    /// bench gate hold it to 0).
    public static var probesMade: Int { probes.load(ordering: .relaxed) }
    private static let probes = Atomic<Int>(0)

    /// Checks what the operating system can tell before FFmpeg is asked, for precise messages.
    /// Through `FileNames`, so that a name that is not UTF-8 is found.
    static func checkReadableFile(_ path: String) throws {
        guard let status = FileNames.status(path) else {
            let failure = SystemError.last
            let missing = failure.code == ENOENT || failure.code == ENOTDIR
            throw VRenderError.input(path, missing ? "no such file" : failure.description)
        }
        if status.st_mode & S_IFMT == S_IFDIR { throw VRenderError.input(path, "is a directory, not a video file") }
        guard FileNames.withPlatformPath(path, { access($0, R_OK) }) == 0 else {
            throw VRenderError.input(path, "permission denied")
        }
        if status.st_size == 0 { throw VRenderError.input(path, "empty file (0 bytes)") }
    }

    /// The claims `MediaLimits` refuses, in the order that names the real problem first (a
    /// take with no frames has no frame rate either).
    static func refuseUnusable(_ video: VideoStreamInfo, path: String) throws {
        guard video.duration > 0 else {
            throw VRenderError.input(path, "has no video frames (a take of zero length)")
        }
        // Shorter than half a frame at its own rate, it would fill no frame of an export.
        guard video.duration * video.frameRate.doubleValue >= 0.5 else {
            throw VRenderError.input(path, "lasts \(String(format: "%g", video.duration)) s, less than one frame "
                                     + "at its \(video.frameRate) fps (a damaged time scale?)")
        }
        guard video.duration <= MediaLimits.maxDuration else {
            let hours = String(format: "%.0f", video.duration / 3600)
            throw VRenderError.input(path, "its video is \(hours) hours long, over vrender's limit of "
                                     + "\(Int(MediaLimits.maxDuration / 3600)) hours (a damaged header?)")
        }
        guard video.pixelFormat != "unknown" else {
            throw VRenderError.input(path, "no picture of its \(video.codecName) video could be decoded "
                                     + "(damaged codec setup, or a picture size the decoder refuses)")
        }
        let rate = video.frameRate.doubleValue
        guard MediaLimits.frameRates.contains(rate) else {
            throw VRenderError.input(path, "frame rate \(video.frameRate) fps (a frame every \(String(format: "%g", 1 / rate)) s) "
                                     + "is outside what vrender joins: one frame an hour to 1000 fps")
        }
    }

    static func explain(_ error: FFmpegError) -> String {
        if error.code == vr_averror_invaliddata() {
            return "not a media file, or truncated before its index"
        }
        if error.code == LocalInput.notAFile {
            return "not a regular file (a FIFO, a socket, a device or a folder): vrender reads a video from a file"
        }
        if error.code == LocalInput.namesOtherFiles {
            return "a playlist or script that names other files: vrender reads a video from the one file it is given"
        }
        return error.message
    }
}

extension Demuxer {
    /// Builds the `MediaInfo` of an opened file. `measuringLength`: check the video's length
    /// against where its packets end (`packetEnds`), which costs a seek and a read of the file's
    /// last group of pictures.
    func info(measuringLength: Bool = false) throws -> MediaInfo {
        guard let videoIndex = bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw VRenderError.input(path, "no video stream (only \(streamKinds()))")
        }
        let container = String(cString: context.pointee.iformat.pointee.name)
        try refuseStillImage(videoIndex, container: container)
        var video = try videoInfo(stream: stream(videoIndex))
        video.hiddenFrames = hiddenFrames(in: stream(videoIndex))
        if measuringLength {
            // Read first, from the start where opening left reading; measuring seeks to the end.
            let undecodable = undecodableStart(of: video)
            let measured = measuredDuration(of: video, in: stream(videoIndex))
            (video.duration, video.damagedTimestamps) = (measured.duration, measured.damagedTimestamps)
            video.untimedFrames = measured.untimedFrames
            if let undecodable { video.startAtDecodableKeyframe(undecodable.start, pts: undecodable.keyframePts) }
            let guessed = stream(videoIndex).pointee.r_frame_rate
            let average = video.frameRate
            video.frameRate = Self.nominalRate(
                average: average, guessed: guessed.num > 0 && guessed.den > 0 ? Rational(Int(guessed.num), Int(guessed.den)) : nil,
                pts: measured.videoPts, timeBase: video.timeBase)
            if video.frameRate != average { video.averageFrameRate = average }
        }
        let audioTracks = (0..<Int(context.pointee.nb_streams))
            .filter { stream($0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
            .compactMap { audioInfo(stream: stream($0)) }
        var info = MediaInfo(path: path, container: container, video: video, audioTracks: audioTracks)
        info.side = sideStreams()
        return info
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
            Self.name(of: stream(index).pointee.codecpar.pointee.codec_type)
        }
        return kinds.isEmpty ? "no streams at all" : kinds.joined(separator: ", ")
    }

    /// Seconds from a stream's own duration, else the container's (Matroska has no per-stream
    /// duration).
    func seconds(_ stream: UnsafeMutablePointer<AVStream>) -> (start: Double, duration: Double) {
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
        // The size the codec's own header gave probing's decoder; when the decoder refused it
        // (over `max_pixels`) it left 0x0, and the container's claim is what there is to name.
        let index = Int(stream.pointee.index)
        let decoded = (width: Int(parameters.width), height: Int(parameters.height))
        let size = decoded.width > 0 && decoded.height > 0 || index >= claimedSizes.count ? decoded : claimedSizes[index]
        if let refusal = MediaLimits.sizeRefusal(width: size.width, height: size.height) { throw VRenderError.input(path, refusal) }
        guard parameters.width > 0, parameters.height > 0 else {
            throw VRenderError.input(path, "video stream has no picture size (damaged header)")
        }
        // The average rate, else the guessed one, whichever is within the limits; an absurd one
        // is kept for `Probe.refuseUnusable` to name; none at all means 30.
        let rates = [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate].filter { $0.num > 0 && $0.den > 0 }
        let rate = rates.first { MediaLimits.frameRates.contains(av_q2d($0)) } ?? rates.first ?? AVRational(num: 30, den: 1)
        let matrix = displayMatrix(stream)
        // Rotation and flip read apart: a mirrored selfie is not a half turn.
        let orientation = matrix.map(Orientation.init(displayMatrix:)) ?? .upright
        let (start, duration) = seconds(stream)
        let formatName = pixelFormatName(ofStream: index)
        var info = VideoStreamInfo(
            index: Int(stream.pointee.index),
            codecName: String(cString: avcodec_get_name(parameters.codec_id)),
            width: Int(parameters.width), height: Int(parameters.height),
            pixelFormat: formatName,
            timeBase: Rational(Int(stream.pointee.time_base.num), Int(stream.pointee.time_base.den)),
            frameRate: Rational(Int(rate.num), Int(rate.den)),
            rotation: orientation.rotation,
            displayMatrix: matrix,
            extradata: bytes(parameters.extradata, Int(parameters.extradata_size)),
            startTime: start, duration: duration)
        info.colour = ColourDescription(
            primaries: Int32(parameters.color_primaries.rawValue), transfer: Int32(parameters.color_trc.rawValue),
            matrix: Int32(parameters.color_space.rawValue), fullRange: parameters.color_range == AVCOL_RANGE_JPEG)
        if let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format)) {
            info.bitDepth = Int(descriptor.pointee.comp.0.depth)
        }
        info.mirrored = orientation.mirrored
        // The stream's (container's) ratio first, as players read it; else the codec's.
        let aspect = stream.pointee.sample_aspect_ratio.num > 0 ? stream.pointee.sample_aspect_ratio : parameters.sample_aspect_ratio
        info.sampleAspect = Rational.sampleAspect(Int(aspect.num), Int(aspect.den))
        info.codecTag = fourcc(parameters.codec_tag)
        info.decodingTimesStored = !String(cString: context.pointee.iformat.pointee.name).hasPrefix("matroska")
        info.profile = parameters.profile
        info.label = TrackLabel(stream: stream)
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
            startTime: start, duration: duration, label: TrackLabel(stream: stream))
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
