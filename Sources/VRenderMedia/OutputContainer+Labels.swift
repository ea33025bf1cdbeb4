internal import CFFmpeg
import VRenderCore

/// What of a track's label a container keeps, asked of FFmpeg's own muxer: a track tagged with
/// it is written into a small file in memory and read back. Matroska keeps any language and
/// most flags; MP4 three-letter languages and, as "kinds", forced, commentary and the like;
/// QuickTime (.mov) only the default flag and the old Macintosh language list, which spells
/// some languages the bibliographic way ("ger", "dut") and others the terminological way
/// ("fra", "ces"), and drops a code that is not on it. So a language is tried as it is, then
/// as its ISO 639-2 twin.
extension OutputContainer {
    /// `label` as this container keeps it: its language as the container spells it (empty
    /// when it has no spelling for it), its dispositions less those it cannot store.
    public func kept(_ label: TrackLabel) -> TrackLabel {
        guard let codec = probeCodec else { return label }
        let candidates = label.language.isEmpty ? [""] : [label.language] + (Self.iso639Twins[label.language].map { [$0] } ?? [])
        var last: TrackLabel?
        for language in candidates {
            guard let back = readBack(TrackLabel(language: language, dispositions: label.dispositions), codec: codec) else { continue }
            last = back
            if back.language == language { break }
        }
        guard let last else { return label }   // the muxer took no test track: nothing to tell
        var kept = label
        kept.language = candidates.contains(last.language) ? last.language : ""
        kept.dispositions = label.dispositions.filter(last.dispositions.contains)
        return kept
    }

    /// The spelling of `language` this container keeps: itself, or its twin ("deu" in .mov is
    /// "ger"); nil when it keeps neither.
    public func spelling(ofLanguage language: String) -> String? {
        let spelled = kept(TrackLabel(language: language)).language
        return spelled.isEmpty ? nil : spelled
    }

    /// The 20 languages ISO 639-2 codes twice: bibliographic and terminological, both ways.
    static let iso639Twins: [String: String] = {
        let pairs = ["alb": "sqi", "arm": "hye", "baq": "eus", "bur": "mya", "chi": "zho", "cze": "ces", "dut": "nld",
                     "fre": "fra", "geo": "kat", "ger": "deu", "gre": "ell", "ice": "isl", "mac": "mkd", "mao": "mri",
                     "may": "msa", "per": "fas", "rum": "ron", "slo": "slk", "tib": "bod", "wel": "cym"]
        return pairs.merging(pairs.map { ($0.value, $0.key) }) { first, _ in first }
    }()

    /// The text-subtitle codec the test track is written in: one the container takes.
    private var probeCodec: AVCodecID? {
        if isQuickTimeFamily { return AV_CODEC_ID_MOV_TEXT }
        switch name {
        case "matroska": return AV_CODEC_ID_SUBRIP
        case "webm": return AV_CODEC_ID_WEBVTT
        default: return nil
        }
    }

    /// The label a one-cue subtitle track labelled `label` reads back with, written by this
    /// container's muxer into memory; nil when the muxer or the reader refused it.
    private func readBack(_ label: TrackLabel, codec: AVCodecID) -> TrackLabel? {
        guard let written = MemoryIO() else { return nil }
        let wrote: Bool = withExtendedLifetime(written) {
            var allocated: UnsafeMutablePointer<AVFormatContext>?
            guard avformat_alloc_output_context2(&allocated, nil, nil, path) >= 0, let context = allocated else { return false }
            defer {
                context.pointee.pb = nil  // the MemoryIO's, freed by it
                avformat_free_context(context)
            }
            guard let stream = avformat_new_stream(context, nil) else { return false }
            stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
            stream.pointee.codecpar.pointee.codec_id = codec
            stream.pointee.time_base = AVRational(num: 1, den: 1000)
            label.write(on: stream, quickTime: isQuickTimeFamily)
            context.pointee.pb = written.context
            guard avformat_write_header(context, nil) >= 0 else { return false }
            let packet = Packet()
            guard av_new_packet(packet.pointer, 2) >= 0 else { return false }
            // A cue: mov_text's 16-bit length of 0, or two characters of text.
            packet.pointer.pointee.data[0] = codec == AV_CODEC_ID_MOV_TEXT ? 0 : 0x2E
            packet.pointer.pointee.data[1] = codec == AV_CODEC_ID_MOV_TEXT ? 0 : 0x2E
            (packet.pointer.pointee.pts, packet.pointer.pointee.dts, packet.pointer.pointee.duration) = (0, 0, 1000)
            guard av_write_frame(context, packet.pointer) >= 0, av_write_trailer(context) >= 0 else { return false }
            written.flush()
            return true
        }
        guard wrote else { return nil }
        let back = MemoryIO.withInput(written.bytes) { context -> TrackLabel? in
            guard context.pointee.nb_streams == 1, let stream = context.pointee.streams[0] else { return nil }
            return TrackLabel(stream: stream)
        }
        return back ?? nil
    }
}
