internal import CFFmpeg
import VRenderCore

/// How a container spells a track's language. Matroska stores any code; MP4 three lowercase
/// letters; QuickTime (.mov) only the old Macintosh list, which spells some languages the
/// bibliographic way ("ger", "dut") and others the terminological way ("fra", "ces"): FFmpeg
/// writes a code that is not on it as no language at all. So the code is tried as it is, then
/// its ISO 639-2 twin, each written into a small file in memory and read back.
extension OutputContainer {
    /// The spelling of `language` this container keeps: itself, or its twin ("deu" in .mov is
    /// "ger"); nil when it keeps neither.
    public func spelling(ofLanguage language: String) -> String? {
        guard isQuickTimeFamily else { return language }   // Matroska stores the tag as it is
        let candidates = [language] + (Self.iso639Twins[language].map { [$0] } ?? [])
        return candidates.first { readsBack(language: $0) }
    }

    /// The 20 languages ISO 639-2 codes twice: bibliographic and terminological, both ways.
    static let iso639Twins: [String: String] = {
        let pairs = ["alb": "sqi", "arm": "hye", "baq": "eus", "bur": "mya", "chi": "zho", "cze": "ces", "dut": "nld",
                     "fre": "fra", "geo": "kat", "ger": "deu", "gre": "ell", "ice": "isl", "mac": "mkd", "mao": "mri",
                     "may": "msa", "per": "fas", "rum": "ron", "slo": "slk", "tib": "bod", "wel": "cym"]
        return pairs.merging(pairs.map { ($0.value, $0.key) }) { first, _ in first }
    }()

    /// True when a one-cue subtitle track tagged `language`, written by this container's muxer
    /// into memory, reads back with the same tag.
    private func readsBack(language: String) -> Bool {
        guard let written = MemoryIO() else { return false }
        let wrote: Bool = withExtendedLifetime(written) {
            var allocated: UnsafeMutablePointer<AVFormatContext>?
            guard avformat_alloc_output_context2(&allocated, nil, nil, path) >= 0, let context = allocated else { return false }
            defer {
                context.pointee.pb = nil  // the MemoryIO's, freed by it
                avformat_free_context(context)
            }
            guard let stream = avformat_new_stream(context, nil) else { return false }
            stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
            stream.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_MOV_TEXT
            stream.pointee.time_base = AVRational(num: 1, den: 1000)
            av_dict_set(&stream.pointee.metadata, "language", language, 0)
            context.pointee.pb = written.context
            guard avformat_write_header(context, nil) >= 0 else { return false }
            let packet = Packet()
            guard av_new_packet(packet.pointer, 2) >= 0 else { return false }
            packet.pointer.pointee.data[0] = 0   // a cue of no text: a 16-bit length of 0
            packet.pointer.pointee.data[1] = 0
            (packet.pointer.pointee.pts, packet.pointer.pointee.dts, packet.pointer.pointee.duration) = (0, 0, 1000)
            guard av_write_frame(context, packet.pointer) >= 0, av_write_trailer(context) >= 0 else { return false }
            written.flush()
            return true
        }
        guard wrote, let io = MemoryIO(reading: written.bytes) else { return false }
        return withExtendedLifetime(io) {
            var opened: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
            opened?.pointee.pb = io.context
            // On failure avformat_open_input frees the context (never a custom I/O context).
            guard avformat_open_input(&opened, nil, nil, nil) >= 0, let context = opened else { return false }
            defer {
                var closing: UnsafeMutablePointer<AVFormatContext>? = context
                avformat_close_input(&closing)
            }
            guard context.pointee.nb_streams == 1, let stream = context.pointee.streams[0],
                  let entry = av_dict_get(stream.pointee.metadata, "language", nil, 0), let value = entry.pointee.value else { return false }
            return String(cString: value) == language
        }
    }
}
