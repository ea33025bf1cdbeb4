internal import CFFmpeg
import VRenderCore

/// A subtitle stream of a take.
public struct SubtitleStreamInfo: Sendable, Equatable, Codable {
    public var index: Int
    public var codecName: String
    /// Language, title and dispositions (a forced track of signs), kept on the output's subtitles.
    public var label: TrackLabel
    /// Text cues (SubRip, ASS, mov_text, WebVTT) with a decoder can be retimed and converted;
    /// bitmaps cannot.
    public var isText: Bool
}

/// A chapter of a take, in seconds of the file's own clock.
public struct ChapterInfo: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var title: String

    public init(start: Double, end: Double, title: String) {
        self.start = start
        self.end = end
        self.title = title
    }
}

/// What a take carries beside its picture and sound.
public struct SideStreamInfo: Sendable, Equatable, Codable {
    public var subtitles: [SubtitleStreamInfo] = []
    public var chapters: [ChapterInfo] = []
    /// The first frame's timecode ("01:00:00:00"): a QuickTime tmcd track's, the video
    /// stream's or the container's "timecode" tag.
    public var timecode: String?
    /// Streams no export carries, in words: "data stream (tmcd)", "attachment (ttf)".
    public var others: [String] = []

    public init() {}

    public var isEmpty: Bool { subtitles.isEmpty && chapters.isEmpty && timecode == nil && others.isEmpty }
}

extension Demuxer {
    /// Subtitle streams, chapters, timecode and what else the file holds beside its video and audio.
    func sideStreams() -> SideStreamInfo {
        var side = SideStreamInfo()
        side.timecode = tag("timecode", of: context.pointee.metadata)
        for index in 0..<Int(context.pointee.nb_streams) {
            let stream = self.stream(index)
            let parameters = stream.pointee.codecpar.pointee
            let codec = String(cString: avcodec_get_name(parameters.codec_id))
            if side.timecode == nil { side.timecode = tag("timecode", of: stream.pointee.metadata) }
            switch parameters.codec_type {
            case AVMEDIA_TYPE_SUBTITLE:
                let descriptor = avcodec_descriptor_get(parameters.codec_id)
                // Text that this FFmpeg can decode: a cue is converted through its decoder.
                let isText = descriptor.map { $0.pointee.props & AV_CODEC_PROP_TEXT_SUB != 0 } ?? false
                    && avcodec_find_decoder(parameters.codec_id) != nil
                side.subtitles.append(SubtitleStreamInfo(index: index, codecName: codec, label: TrackLabel(stream: stream),
                                                         isText: isText))
            case AVMEDIA_TYPE_DATA where parameters.codec_tag == 0x6463_6d74:  // 'tmcd': the timecode, carried apart
                continue
            case AVMEDIA_TYPE_DATA where parameters.codec_tag == 0x7478_6574 && context.pointee.nb_chapters > 0:
                continue  // 'text': a QuickTime chapter track, read as the chapters
            case AVMEDIA_TYPE_DATA:
                side.others.append("data stream (\(codecOrTag(codec, parameters.codec_tag)))")
            case AVMEDIA_TYPE_ATTACHMENT:
                side.others.append("attachment (\(tag("filename", of: stream.pointee.metadata) ?? codec))")
            default:
                continue
            }
        }
        side.chapters = (0..<Int(context.pointee.nb_chapters)).compactMap { index in
            let chapter = context.pointee.chapters[index]!.pointee   // FFmpeg fills `chapters[0..<nb_chapters]`
            let base = av_q2d(chapter.time_base)
            let start = Double(chapter.start) * base, end = Double(chapter.end) * base
            return end > start ? ChapterInfo(start: start, end: end, title: tag("title", of: chapter.metadata) ?? "") : nil
        }
        return side
    }

    private func tag(_ key: String, of dictionary: OpaquePointer?) -> String? {
        guard let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private func codecOrTag(_ codec: String, _ tag: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        guard codec == "none", tag != 0, bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return codec }
        return String(decoding: bytes, as: UTF8.self)
    }
}
