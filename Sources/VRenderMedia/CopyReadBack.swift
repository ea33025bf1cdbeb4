internal import CFFmpeg
import VRenderCore

/// The second half of `OutputContainer.refusalToCopy`: the muxer's dry run accepts some setups
/// that it then writes so that no demuxer can read them back (QuickTime Animation in Matroska
/// loses its bits per pixel: ffprobe finds no pixel format, no player shows it). So a copy of
/// the stream's setup and first packets is written into a small file in memory and read back
/// as ffprobe reads a file; what does not come back as it went in refuses the copy. That
/// includes its packets one for one: an animated GIF's frames, in Matroska, read back as one
/// packet (FFmpeg's GIF parser joins them), so a player shows its first picture only.
extension OutputContainer {
    /// Packets written: from the first keyframe, enough for a decoder with some delay to give
    /// a picture (and so a pixel format), few enough to stay instant.
    private static let readBackPackets = 12

    /// Nil when a copy of stream `index` of `demuxer` reads back as it went in (or when that
    /// cannot be tried: the muxer takes no packets without timestamps, say); else what is lost.
    func readBackLoss(stream index: Int, of demuxer: Demuxer) -> String? {
        guard let written = writeSample(stream: index, of: demuxer) else { return nil }
        return readBack(written.bytes, packets: written.packets, source: demuxer.stream(index).pointee.codecpar.pointee)
    }

    /// The small file: header, the stream's first packets from its first keyframe, trailer.
    private func writeSample(stream index: Int, of demuxer: Demuxer) -> (bytes: [UInt8], packets: Int)? {
        guard let io = MemoryIO() else { return nil }
        return withExtendedLifetime(io) {
            var allocated: UnsafeMutablePointer<AVFormatContext>?
            guard avformat_alloc_output_context2(&allocated, nil, nil, path) >= 0, let context = allocated else { return nil }
            defer {
                context.pointee.pb = nil  // the MemoryIO's, freed by it
                avformat_free_context(context)
            }
            let input = demuxer.stream(index)
            guard let stream = avformat_new_stream(context, nil),
                  avcodec_parameters_copy(stream.pointee.codecpar, input.pointee.codecpar) >= 0 else { return nil }
            stream.pointee.codecpar.pointee.codec_tag = Muxer.copyTag(for: input.pointee.codecpar, in: context.pointee.oformat)
            stream.pointee.time_base = input.pointee.time_base
            context.pointee.pb = io.context
            guard avformat_write_header(context, nil) >= 0 else { return nil }
            let packet = Packet()
            var written = 0, read = 0
            while written < Self.readBackPackets, read < 1000, demuxer.read(into: packet) {
                read += 1
                // Empty packets (an AVI's dropped frames) are not counted: a muxer may skip them.
                guard packet.streamIndex == index, written > 0 || packet.isKeyframe, packet.size > 0 else { continue }
                packet.pointer.pointee.stream_index = 0
                packet.pointer.pointee.pos = -1
                av_packet_rescale_ts(packet.pointer, input.pointee.time_base, stream.pointee.time_base)
                guard av_write_frame(context, packet.pointer) >= 0 else { break }
                written += 1
            }
            packet.unref()
            guard av_write_trailer(context) >= 0 else { return nil }
            io.flush()
            return (io.bytes, written)
        }
    }

    /// Opens `bytes` as a player would (`avformat_find_stream_info` decodes the packets) and
    /// compares what it finds with `source`, the stream that was written.
    private func readBack(_ bytes: [UInt8], packets: Int, source: AVCodecParameters) -> String? {
        let unreadable = "what it writes cannot be read back"
        let loss = MemoryIO.withInput(bytes) { context -> String? in
            guard avformat_find_stream_info(context, nil) >= 0, context.pointee.nb_streams == 1,
                  let back = context.pointee.streams[0]?.pointee.codecpar.pointee else { return unreadable }
            return Self.loss(source: source, back: back, decoded: packets > 0)
                ?? Self.packetLoss(written: packets, readBack: Self.countPackets(context))
        }
        return loss ?? unreadable
    }

    /// The packets of `context`'s one stream a reader gets, read to the end.
    private static func countPackets(_ context: UnsafeMutablePointer<AVFormatContext>) -> Int {
        let packet = Packet()
        var count = 0
        while av_read_frame(context, packet.pointer) >= 0 {
            if packet.size > 0 { count += 1 }
            packet.unref()
        }
        return count
    }

    /// Fewer packets read back than written: frames merged into one (or lost), so a player
    /// shows fewer pictures than the take has.
    private static func packetLoss(written: Int, readBack: Int) -> String? {
        guard readBack < written else { return nil }
        return "its first \(written) frames read back as \(readBack) packet(s) (a player would show \(readBack))"
    }

    /// What of `source` did not come back in `back`: a size, rate or channel count, or the
    /// decoded format (compared only when packets went in and the source's own was known).
    private static func loss(source: AVCodecParameters, back: AVCodecParameters, decoded: Bool) -> String? {
        // A codec read back under a sibling's name (MPEG audio layer 2 in MP4 comes back as
        // "mp3") is no loss while it decodes: the formats below say whether it does.
        switch source.codec_type {
        case AVMEDIA_TYPE_VIDEO:
            if back.width != source.width || back.height != source.height {
                return "its \(source.width)x\(source.height) pictures read back as \(back.width)x\(back.height)"
            }
            if decoded, source.format >= 0, back.format < 0 { return "its pixel format is lost (no player could show it)" }
        case AVMEDIA_TYPE_AUDIO:
            if back.sample_rate != source.sample_rate || back.ch_layout.nb_channels != source.ch_layout.nb_channels {
                return "its \(source.sample_rate) Hz \(source.ch_layout.nb_channels) ch audio reads back as "
                    + "\(back.sample_rate) Hz \(back.ch_layout.nb_channels) ch"
            }
            if decoded, source.format >= 0, back.format < 0 { return "its sample format is lost (no player could play it)" }
        default:
            break
        }
        return nil
    }
}
