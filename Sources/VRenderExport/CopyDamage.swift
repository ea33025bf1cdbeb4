import Foundation
import VRenderCore
import VRenderMedia

/// Damage found in a take while its packets were being copied unchanged: a copy would carry
/// it into the output silently, so the copy stops and `Exporter` transcodes the export instead
/// (or, under `--codec copy`, fails naming the take).
struct CopyDamage: Error, CustomStringConvertible {
    let path: String
    /// Where in the take, in seconds from its first picture.
    let seconds: Double
    /// What was wrong, in words ("a packet the file marks as damaged").
    let what: String
    /// False when the packets are whole but the output cannot hold them as they are (a packet
    /// without a presentation time, which Matroska needs): said so, not called damage.
    var isDamage = true

    /// "x.ts: damaged data at 1.9 s (…)": the take, where, and what.
    var description: String {
        "\(path): \(isDamage ? "damaged data" : "cannot be copied as it is") at \(String(format: "%.1f", Swift.max(seconds, 0))) s (\(what))"
    }

    /// The warning of an export that transcoded because of this damage.
    var fallbackNote: String { "\(description): transcoded instead of stream-copied" }

    /// The error of an export told to copy (`--codec copy`).
    var copyRefusal: VRenderError {
        VRenderError.input(path, "damaged data at \(String(format: "%.1f", Swift.max(seconds, 0))) s (\(what)): "
                           + "a stream copy would carry it into the output; leave out --codec copy to transcode it")
    }
}

/// Checks what a copy copies, one take at a time, cheaply enough for every healthy copy:
/// the demuxer's own verdicts (`AV_PKT_FLAG_CORRUPT`, on the packet or only logged
/// (`Demuxer.corruptPacketsFound`): a transport stream's lost pieces, a sample cut short by
/// truncation; a read error before the end), checked here on the copying thread, and the audio
/// decoded on the way (measured: 0.35 s of CPU for 5 minutes of stereo AAC) by `CopyAudioCheck`
/// on a thread of its own, which catches damage inside a file whose container is intact.
/// Video is not decoded: that would cost what a transcode costs.
struct CopyInspector {
    private let take: MediaInfo
    private let audio: CopyAudioCheck?
    private let audioStreams: Set<Int>
    private let timeBases: [Int: Rational]
    /// The time of the last packet read, for damage found at the end of the file.
    private var lastSeconds = 0.0

    /// `audioStreams`: the take's streams the copy carries as audio, each decoded by `audio`
    /// (none without one: a video copy checks its video only).
    init(take: MediaInfo, demuxer: Demuxer, audioStreams: [Int] = [], decodedBy audio: CopyAudioCheck? = nil) throws {
        self.take = take
        self.audio = audio
        var setups: [Int: CodecSetup] = [:]
        if let audio {
            for index in audioStreams { setups[index] = try? CodecSetup(of: demuxer, stream: index) }
            try audio.startTake(path: take.path, setups: setups)
        }
        self.audioStreams = Set(setups.keys)
        timeBases = Dictionary(uniqueKeysWithValues: ([take.video.index] + audioStreams).map {
            ($0, demuxer.timeBase(ofStream: $0))
        })
    }

    /// Checks one packet of `demuxer` before it is written (the muxer takes its data away).
    /// Throws the demuxer's verdict at once, and `CopyAudioCheck`'s when it already has one.
    mutating func check(_ packet: Packet, of demuxer: Demuxer) throws {
        if let stamp = packet.pts ?? packet.dts, let base = timeBases[packet.streamIndex] {
            lastSeconds = Double(stamp) * base.doubleValue - take.video.startTime
        }
        if packet.isCorrupt { throw damage("a packet the file marks as damaged or cut short") }
        if demuxer.corruptPacketsFound > 0 { throw loggedDamage(demuxer) }
        if let audio, audioStreams.contains(packet.streamIndex) { try audio.check(packet, seconds: lastSeconds) }
    }

    /// After the take's last packet: reading stopped at damaged data, not at the end.
    func checkEnd(_ demuxer: Demuxer) throws(CopyDamage) {
        if demuxer.corruptPacketsFound > 0 { throw loggedDamage(demuxer) }
        if demuxer.hitReadError { throw damage("reading stopped early: the file is cut short or damaged") }
    }

    /// The muxer refused `packet` of the take (`error`): a packet no file can hold is damage too,
    /// except a video packet without a presentation time (an MPEG program stream states one
    /// only now and then), which only a container that needs one refuses.
    func refused(_ error: FFmpegError, packet: Packet) -> CopyDamage {
        if packet.pts == nil {
            var refusal = damage("a packet without a presentation time, which this kind of output needs")
            refusal.isDamage = false
            return refusal
        }
        return damage("the muxer refused a packet: \(error)")
    }

    /// Damage FFmpeg logged (maybe while probing, ahead of the packets read): at its own time.
    private func loggedDamage(_ demuxer: Demuxer) -> CopyDamage {
        let seconds = demuxer.firstCorruptPacketSeconds.map { $0 - take.video.startTime } ?? lastSeconds
        return CopyDamage(path: take.path, seconds: seconds, what: "a packet the file marks as damaged or cut short")
    }

    private func damage(_ what: String) -> CopyDamage {
        CopyDamage(path: take.path, seconds: lastSeconds, what: what)
    }
}
