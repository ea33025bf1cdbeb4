internal import CFFmpeg
import VRenderCore

/// Copies what an unfinished file still holds into a new, finished one, packet for packet:
/// every video and audio packet the demuxer reads whole, with its timestamps and flags as they
/// were, nothing decoded or re-encoded. A packet the end of the file cuts short is dropped, so
/// the copy decodes without a single error (a cut frame would decode damaged, or not at all).
///
/// Unlike `StreamCopy` (VRenderExport), which joins finished takes and shifts their timestamps,
/// this keeps one file's packets exactly as they were; both write through `Muxer`.
package enum PacketSalvage {
    package struct Outcome: Sendable, Equatable {
        /// Packets copied, every stream.
        package var packets = 0
        /// Of those, video packets (a frame each, for the codecs vrender records).
        package var videoPackets = 0
        /// Packets dropped because the end of the file cut them short.
        package var cutPackets = 0
        /// True when reading stopped at damaged data before the end of the file (what followed
        /// it is not in the copy).
        package var stoppedAtDamage = false
    }

    /// Copies the whole packets of `source` into `destination`, a new file in the container that
    /// `formatPath`'s extension names (so it can be a temporary file), with the container's
    /// tags (`creation_time`, `comment`, …) and the muxer options `headerOptions`.
    /// `length`: read only the first `length` bytes of `source` (see
    /// `QuickTimeLayout.readableLength`); nil reads all of it.
    /// Throws `VRenderError.input(source, …)` when `source` cannot be opened or has no video,
    /// and the muxer's error when `destination` cannot be written; the caller removes it then.
    /// `destination` is written through its open descriptor (`AtomicFile.open()`); `named` is
    /// its name, for messages.
    package static func copy(_ source: String, readingFirst length: Int64? = nil, to destination: Int32, named: String,
                            formatPath: String, headerOptions: [String: String]) throws -> Outcome {
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: source, readingFirst: length)
        } catch {
            throw VRenderError.input(source, "cannot be read as a video (\(Probe.explain(error)))")
        }
        guard let video = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else { throw VRenderError.input(source, "no video stream") }
        let muxer = try Muxer(descriptor: destination, path: named, formatPath: formatPath)
        var routes: [Int: Int] = [:]
        for index in demuxer.copiedStreams(video: video) {
            routes[index] = try muxer.addStream(copying: index, of: demuxer)
        }
        for (key, value) in demuxer.metadata where !muxerOwnedTags.contains(key) { muxer.setMetadata(key, value) }
        try muxer.writeHeader(options: headerOptions)
        var outcome = Outcome()
        let packet = Packet()
        while demuxer.read(into: packet) {
            guard let route = routes[packet.streamIndex] else { continue }
            if packet.isCutShort {
                outcome.cutPackets += 1
                continue
            }
            if packet.streamIndex == video { outcome.videoPackets += 1 }
            outcome.packets += 1
            try muxer.write(packet, stream: route)
        }
        outcome.stoppedAtDamage = demuxer.hitReadError
        try muxer.finish()
        return outcome
    }

    /// Tags the muxer writes itself: copying the source's would only be overwritten or, for
    /// the brands, describe the old file rather than the new one.
    static let muxerOwnedTags: Set<String> = ["major_brand", "minor_version", "compatible_brands", "encoder"]
}

extension Demuxer {
    /// The streams a salvage copies: the video stream and every audio stream, in file order
    /// (data tracks such as timecode are left out: a muxer may not take them back).
    fileprivate func copiedStreams(video: Int) -> [Int] {
        (0..<Int(context.pointee.nb_streams)).filter { index in
            index == video || stream(index).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO
        }
    }
}

extension Packet {
    /// True when the demuxer could not read the packet whole: FFmpeg flags a packet cut short
    /// by the end of the file `AV_PKT_FLAG_CORRUPT` and hands over the bytes it has.
    public var isCutShort: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }
}
