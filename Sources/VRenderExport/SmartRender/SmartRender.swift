import Foundation
import VRenderCore
import VRenderMedia

/// One stretch of a piece in a smart render: copied packet for packet, or re-encoded.
public struct SmartSpan: Sendable, Codable, Equatable {
    /// `encode`: re-encoded (not "reencode": the .deb's lintian reads that as a misspelling).
    public enum Kind: String, Sendable, Codable { case copy, encode }
    /// The take (1-based, as the user counts them) and the timeline piece (0-based, `inputs`).
    public var take: Int
    public var piece: Int
    public var kind: Kind
    /// Seconds from the take's first picture (the clock `takes trim` and the plan use).
    public var start: Double
    public var end: Double
    public var frames: Int
}

/// Smart rendering: an export that changes no pixels but cuts inside groups of pictures
/// copies every whole group and re-encodes only the frames from a cut to the next clean
/// keyframe, and from the last clean keyframe before an out-point to it, with the copied
/// stream's own codec and setup (`Encoder.matching`). The plan (`ExportPlanner`) makes one
/// where `TrimCopy` refuses a plain copy; `StreamCopy` writes it.
package struct SmartRender: Sendable {
    /// What each timeline piece (`ExportPlan.takes`) does.
    package struct Piece: Sendable {
        /// In order; seconds on the take's clock.
        var spans: [SmartSpan]
        /// Where the piece starts on the take's clock (its trim's start).
        var offset: Double
        /// Seconds (take's clock) of the clean keyframe the first span decodes from when it
        /// is re-encoded: at or before it.
        var decodeFrom: Double
        /// Seconds (take's clock) of the clean keyframe the last span, when re-encoded,
        /// decodes from: the copy goes on past it in decoding order (`decodingPrefixEnd`).
        var tailDecodeFrom: Double
        /// The copied stream's reorder delay (pts − dts of its keyframes, seconds): re-encoded
        /// frames, which have no B-frames, decode that long before they show, so decoding
        /// times keep rising across every join of copied and re-encoded frames.
        var delay: Double
    }

    package var pieces: [Piece]
    /// "libx264" or "libx265".
    var encoder: String
    var format: NALFormat

    /// Options of the re-encoded spans (`SpanEncodings`: one encoder for them all): x264/x265's
    /// fastest preset at a quality near lossless (≥ 45 dB PSNR against the decoded source:
    /// 1080p test pictures gave 54-62 dB), no B-frames, and a keyframe only where a span starts
    /// (`forced-idr`: an IDR picture where the frame asks for one; none of the encoder's own,
    /// the spans are short). The copied stream's profile and level (FFmpeg's numbers) are
    /// kept: x264 signals the least profile its tools need (ultrafast's is Baseline), so a High
    /// stream's 8×8 transform or a Main stream's CABAC is turned on; x265 is told the level
    /// (`general_level_idc` is 30 × the level, x265 takes 10 ×), which holds its rate to the
    /// level's buffer. No lookahead thread: the spans have nothing to look ahead for.
    ///
    /// x265 decides modes without full RD (`rd=1`), and from 1280 samples wide codes 32×32
    /// blocks only (`min-cu-size=32`, the residual still split into smaller transforms): at
    /// 1080p that search cost a third of its time for at most 0.4 dB (test pictures and heavy
    /// noise). On small pictures a 32×32 block is too coarse: at 192x108 it cost 2-4 dB.
    func encoderOptions(profile: Int, level: Int, width: Int) -> [String: String] {
        var params = ["scenecut=0", "open-gop=0", "bframes=0"]
        if encoder == "libx265" {
            if level > 0 { params.append("level-idc=\(level / 3)") }
            if width >= 1280 { params.append("min-cu-size=32") }
            return ["preset": "ultrafast", "crf": "8", "forced-idr": "1",
                    "x265-params": (["log-level=error", "repeat-headers=1", "keyint=-1", "rd=1"] + params).joined(separator: ":")]
        }
        // FFmpeg's H.264 profiles: 66 Baseline (578 constrained), 77 Main, 88 Extended, 100 High and up.
        // High is signalled by the 8×8 transform alone, and keeps CAVLC: at this quality
        // CABAC's entropy coding is half of x264's time, and it decodes to the same pictures.
        // Main and Extended need CABAC to be signalled as such (CAVLC would read as Baseline).
        params += ["keyint=infinite", "sync-lookahead=0"]
        if profile >= 100 { params.append("8x8dct=1") } else if profile == 77 || profile == 88 { params.append("cabac=1") }
        return ["preset": "ultrafast", "crf": "10", "forced-idr": "1", "x264-params": params.joined(separator: ":")]
    }

    /// The plan's lines: each trimmed piece's spans, "take 2: re-encode 1.033–2.000 s (29
    /// frames), copy 2.000–8.000 s, re-encode 8.000–8.400 s".
    var summaryLines: [String] {
        let numbers = pieces.map { $0.spans.first?.take ?? 0 }
        return pieces.enumerated().compactMap { index, piece -> String? in
            guard piece.spans.contains(where: { $0.kind == .encode }) else { return nil }
            let pieceCount = numbers.filter { $0 == numbers[index] }.count
            let place = numbers[..<index].filter { $0 == numbers[index] }.count + 1
            let name = "take \(numbers[index])" + (pieceCount > 1 ? " piece \(place)" : "")
            return "smart render: \(name): " + piece.spans.map { span in
                let range = "\(TakeTrim.text(span.start))–\(TakeTrim.text(span.end)) s"
                return span.kind == .copy ? "copy \(range)" : "re-encode \(range) (\(span.frames) frame\(span.frames == 1 ? "" : "s"))"
            }.joined(separator: ", ")
        }
    }

    /// Every span, in timeline order (`--json`'s `smartSpans`).
    var spans: [SmartSpan] { pieces.flatMap(\.spans) }
}
