import Foundation
import VRenderCore
import VRenderMedia

/// Whether takes can be joined packet for packet, said in the words users think in: codecs,
/// sizes, frame rates, rotations, audio formats.
enum CopyCompatibility {
    /// Why the takes' video cannot be joined packet for packet, or nil when it can: codec,
    /// codec setup (extradata), size, pixel shape, pixel format, frame rate, time base, rotation and
    /// flip must match.
    static func videoMismatch(_ takes: [MediaInfo]) -> String? {
        guard let first = takes.first?.video else { return nil }
        for take in takes.dropFirst() {
            let b = take.video, name = take.path
            if first.codecName != b.codecName { return "\(name) is \(b.codecName), the first take is \(first.codecName)" }
            if first.width != b.width || first.height != b.height {
                return "\(name) is \(b.width)x\(b.height), the first take is \(first.width)x\(first.height)"
            }
            if first.pixelFormat != b.pixelFormat { return "\(name) is \(b.pixelFormat), the first take is \(first.pixelFormat)" }
            if first.frameRate != b.frameRate {
                return "\(name) runs at \(fps(b.frameRate)) fps, the first take at \(fps(first.frameRate))"
            }
            if first.orientation != b.orientation {
                return "\(name) has \(b.orientation), the first take \(first.orientation) (as ffprobe shows it)"
            }
            if first.sampleAspect != b.sampleAspect {
                return "\(name) has pixels of aspect \(aspect(b.sampleAspect)), the first take \(aspect(first.sampleAspect))"
            }
            if first.timeBase != b.timeBase {
                return "\(name) was written with another timestamp clock than the first take (same \(fps(b.frameRate)) fps, different tools)"
            }
            if first.extradata != b.extradata || first.codecTag != b.codecTag || first.profile != b.profile {
                return "\(name) has different \(b.codecName) codec settings (profile, tag or extradata)"
            }
        }
        return nil
    }

    /// Why a copy into `container` would show frames a take's edit list hides (a trimmed
    /// clip keeps its cut's group of pictures, hidden up to the cut), or nil. A copy cannot drop
    /// them (later frames are decoded from them); only a QuickTime-family output's own edit
    /// list can hide them again, and only at its start: the first take's.
    static func hiddenFramesMismatch(_ takes: [MediaInfo], container: OutputContainer) -> String? {
        for (index, take) in takes.enumerated() where take.video.hiddenFrames > 0 {
            if index == 0, container.isQuickTimeFamily { continue }
            let place = index == 0
                ? "a .\(container.path.fileExtension) file cannot hide them"
                : "a copy can hide them only at the start of a .mov or .mp4 output"
            return "\(take.path) has an edit list that hides \(take.video.hiddenFrames) decoded frame(s) (a trimmed clip): "
                + "\(place), so its frames are decoded and only the shown ones encoded"
        }
        return nil
    }

    /// Why a copy cannot start a take at its first decodable keyframe (`UndecodableStart`), or
    /// nil: the pictures after it still name frames cut away, so even from there a copy would
    /// decode with errors (x264's open-GOP I-frames do), and the take is re-encoded instead.
    /// A take whose packets carry no times (a raw .h264/.hevc stream) is encoded: a copy would
    /// give the output's packets no times either, or one time for all (a muxer stacked 30
    /// frames into 0.033 s of a .mov). Only a decoder's output can be placed frame by frame.
    static func untimedMismatch(_ takes: [MediaInfo]) -> String? {
        guard let index = takes.firstIndex(where: { $0.video.untimedFrames != nil }) else { return nil }
        return "take \(index + 1) (\(takes[index].path)) is a raw \(takes[index].video.codecName) stream whose pictures carry "
            + "no times, so it is decoded and encoded again at \(takes[index].video.frameRate) fps"
    }

    static func undecodableStartMismatch(_ takes: [MediaInfo]) -> String? {
        for (index, take) in takes.enumerated() {
            guard let start = take.video.undecodableStart, !start.decodesCleanly else { continue }
            return "take \(index + 1) (\(take.path)) cannot be copied from its first keyframe "
                + "(\(String(format: "%.2f", start.keyframeSeconds)) s): the pictures after it still refer to frames cut away "
                + "(the decoder reports errors), so it is decoded and encoded again"
        }
        return nil
    }

    /// The plan's word on each take whose first pictures cannot be decoded: how many, why, and
    /// where the export starts it (a copy and a transcode alike, the sound cut at the same time).
    static func undecodableStartNotes(_ takes: [MediaInfo]) -> [String] {
        takes.enumerated().compactMap { index, take in
            take.video.undecodableStart.map { start in
                "take \(index + 1) (\(take.path)): starts with \(start.frames) frame(s) that cannot be decoded "
                    + "(\(start.cause)); exported from its first keyframe at \(String(format: "%.2f", start.keyframeSeconds)) s, "
                    + "sound trimmed to match"
            }
        }
    }

    /// Why the takes' audio cannot be copied into `plan`'s tracks, or nil when it can: each
    /// output track's sources must all exist and share codec, rate, channels and setup.
    static func audioMismatch(_ takes: [MediaInfo], tracks: AudioTrackPlan) -> String? {
        for track in 0..<tracks.trackCount {
            let streams = takes.enumerated().map { tracks.source(take: $1, takeIndex: $0, track: track) }
            guard let first = streams[0] else {
                return "\(takes[0].path) has no audio\(tracks.trackCount > 1 ? " track \(track + 1)" : ""), another take has"
            }
            for (take, stream) in zip(takes, streams).dropFirst() {
                guard let stream else {
                    return "\(take.path) has no audio\(tracks.trackCount > 1 ? " track \(track + 1)" : ""), the first take has"
                }
                if stream.codecName != first.codecName || stream.sampleRate != first.sampleRate
                    || stream.channels != first.channels || stream.extradata != first.extradata
                    || stream.timeBase != first.timeBase {
                    return "\(take.path) has audio \(describe(stream)), the first take \(describe(first))"
                }
            }
        }
        return nil
    }

    /// Audio codecs whose FFmpeg decoder gives nothing for the first packet it is fed: it only
    /// primes the overlap of the next (measured: a WMA stream of 22 packets decodes to 21).
    static let warmUpCodecs: Set<String> = ["wmav1", "wmav2"]

    /// Why a copy into `container` would lose a take's first sound, or nil. A copy drops the
    /// audio packets before a take's first picture (or its trim); a QuickTime-family output
    /// keeps the last of them and trims it with its edit list, but another container has no
    /// way to, and a decoder that warms up on its first packet then swallows the first packet
    /// that plays (an ASF take whose sound begins 43 ms before its picture kept 0.939 s of
    /// sound for 1 s of video). Such audio is re-encoded from the decoded take instead.
    static func audioWarmUpMismatch(_ takes: [MediaInfo], tracks: AudioTrackPlan, container: OutputContainer) -> String? {
        guard !container.isQuickTimeFamily else { return nil }
        for (index, take) in takes.enumerated() {
            for track in 0..<tracks.trackCount {
                guard let audio = tracks.source(take: take, takeIndex: index, track: track),
                      warmUpCodecs.contains(audio.codecName),
                      take.trim != nil || audio.startTime < take.video.startTime - 0.0005 else { continue }
                let cut = take.trim != nil ? "is trimmed" : String(
                    format: "has sound from %.3f s, before its first picture at %.3f s", audio.startTime, take.video.startTime)
                return "take \(index + 1) (\(take.path)) \(cut), and a .\(container.path.fileExtension) file cannot keep "
                    + "the \(audio.codecName) packet its decoder needs to warm up"
            }
        }
        return nil
    }

    static func describe(_ audio: AudioStreamInfo) -> String {
        "\(audio.codecName) \(audio.sampleRate) Hz \(audio.channels) ch"
    }

    static func describe(_ take: MediaInfo) -> String {
        var text = "\(take.video.codecName) \(take.video.width)x\(take.video.height) \(take.video.pixelFormat) \(fps(take.video.frameRate)) fps"
        if let audio = take.audio { text += " + \(describe(audio))" }
        return text
    }

    /// "64:45", "1:1": a sample aspect ratio as ffprobe writes it.
    static func aspect(_ ratio: Rational) -> String { "\(ratio.numerator):\(ratio.denominator)" }

    /// "30", "29.97", "25": a frame rate as people write it.
    static func fps(_ rate: Rational) -> String {
        let value = rate.doubleValue
        if value == value.rounded() { return String(Int(value)) }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
