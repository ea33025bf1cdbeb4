internal import CFFmpeg
import VRenderCore

extension SubtitleWriter {
    /// An encoder of `codec` for cues vrender makes itself (captions), with a plain style:
    /// white text at the bottom, centred, the way players show SubRip.
    public convenience init(codec: String, globalHeader: Bool) throws {
        try self.init(codec: codec, header: Self.plainHeader, globalHeader: globalHeader)
    }

    /// One cue of `lines`, shown from `from` to `to` seconds of the output, encoded in the
    /// writer's codec (milliseconds); nil when it shows for no millisecond.
    public func cue(_ lines: [String], from: Double, to: Double) -> Packet? {
        var subtitle = AVSubtitle()
        guard let table = av_mallocz(MemoryLayout<UnsafeMutablePointer<AVSubtitleRect>?>.size),
              let rect = av_mallocz(MemoryLayout<AVSubtitleRect>.size)?.assumingMemoryBound(to: AVSubtitleRect.self) else {
            fatalError("SubtitleWriter.cue: out of memory")
        }
        let rects = table.assumingMemoryBound(to: UnsafeMutablePointer<AVSubtitleRect>?.self)
        rects[0] = rect
        subtitle.rects = rects
        subtitle.num_rects = 1
        rect.pointee.type = SUBTITLE_ASS
        // An ASS dialogue event: ReadOrder, Layer, Style, Name, margins, Effect, then the text.
        rect.pointee.ass = av_strdup("0,0,Default,,0,0,0,," + lines.map(Self.assText).joined(separator: "\\N"))
        defer { avsubtitle_free(&subtitle) }
        return encode(&subtitle, from: from, to: to)
    }

    /// `text` as an ASS event's text: the characters ASS reads as overrides escaped.
    static func assText(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\", "{", "}": escaped += "\\" + String(character)
            case "\n", "\r": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The ASS header a text-subtitle encoder takes its styles from: one style, "Default".
    static let plainHeader = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 384
        PlayResY: 288
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
        Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, \
        MarginV, Encoding
        Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """
}
