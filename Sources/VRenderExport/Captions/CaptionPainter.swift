import VRenderAlignment
import VRenderCore
import VRenderImaging
import VRenderMedia

/// Draws `--captions burn` into an export's pictures: each cue's lines shaped (`TextLayout(shaping:)`:
/// HarfBuzz and FriBidi, so CJK, Arabic and Hebrew read right), white, centred, on a dark
/// rounded box whose bottom sits in the title-safe area, on every frame the cue shows on.
///
/// Every cue is laid out before the first frame, so frames only blend cached glyphs.
/// Sendable as it is: every property is an immutable `let` of a Sendable type (the font
/// guards its own FreeType faces).
final class CaptionPainter: SlotPainter {
    /// One cue as drawn: its frames, its box, and each line with where it starts.
    private struct Drawn: Sendable {
        var slots: Range<Int>
        var box: PixelRect
        var lines: [(layout: TextLayout, left: Int, top: Int)]
    }

    private let font: TextFont
    private let cues: [Drawn]
    private let tenBit: Bool
    private let textLevel: Double

    /// The share of the picture's height below the box (title-safe: EBU R 95 keeps text
    /// inside the middle 90%), and the text's size against the height.
    static let bottomMargin = 0.06, sizeOfHeight = 1.0 / 18, widest = 0.88

    init(captions: CaptionTrack, plan: ExportPlan, damage: DamageLog) throws {
        let font = try TextFont()
        self.font = font
        let (width, height) = (plan.canvasWidth, plan.canvasHeight)
        let rate = plan.frameRate.doubleValue
        textLevel = plan.colour.textLevel
        tenBit = plan.colour.tenBit
        var missing: [Unicode.Scalar] = []
        cues = captions.cues.map { cue in
            let slots = Int((cue.start * rate - 1e-6).rounded(.up))..<Int((cue.end * rate - 1e-6).rounded(.up))
            let laid = Self.layout(cue.lines, font: font, width: width, height: height)
            missing += laid.flatMap(\.missingCharacters).filter { !missing.contains($0) }
            return Self.place(laid, slots: slots, width: width, height: height)
        }
        if !missing.isEmpty {
            damage.warn("captions: no installed font has \(String(String.UnicodeScalarView(missing))); drawn as boxes")
        }
    }

    /// Each line shaped at the caption size, smaller where the widest would not fit the picture.
    private static func layout(_ lines: [String], font: TextFont, width: Int, height: Int) -> [TextLayout] {
        let size = Swift.max(12, (Double(height) * sizeOfHeight).rounded())
        let laid = lines.map { TextLayout(shaping: [$0], font: font, pixelSize: size) }
        let widest = laid.map(\.width).max() ?? 0
        guard Double(widest) > Double(width) * Self.widest else { return laid }
        let smaller = Swift.max(6, (size * Double(width) * Self.widest / Double(widest)).rounded(.down))
        return lines.map { TextLayout(shaping: [$0], font: font, pixelSize: smaller) }
    }

    /// The lines centred, stacked above the bottom margin, and the box around them.
    private static func place(_ laid: [TextLayout], slots: Range<Int>, width: Int, height: Int) -> Drawn {
        let size = laid.first?.pixelSize ?? 12
        let lineHeight = Int((laid.first?.lineHeight ?? size).rounded())
        let (padX, padY) = (Int((size * 0.5).rounded()), Int((size * 0.25).rounded()))
        let textWidth = laid.map(\.width).max() ?? 0
        let bottom = height - Int((Double(height) * bottomMargin).rounded())
        let box = PixelRect(x: (width - textWidth) / 2 - padX, y: bottom - laid.count * lineHeight - 2 * padY,
                            width: textWidth + 2 * padX, height: laid.count * lineHeight + 2 * padY)
        let lines = laid.enumerated().map { index, layout in
            (layout, (width - layout.width) / 2, box.y + padY + index * lineHeight)
        }
        return Drawn(slots: slots, box: box, lines: lines)
    }

    /// The cue output frame `slot` shows, by binary search (cues are in order and never overlap).
    private func cue(at slot: Int) -> Drawn? {
        var (low, high) = (0, cues.count)
        while low < high {
            let middle = (low + high) / 2
            if cues[middle].slots.upperBound <= slot { low = middle + 1 } else { high = middle }
        }
        return low < cues.count && cues[low].slots.contains(slot) ? cues[low] : nil
    }

    func draws(slot: Int) -> Bool { cue(at: slot) != nil }

    func draw(slot: Int, on frame: Frame) {
        guard let cue = cue(at: slot) else { return }
        let radius = Double(cue.box.height) / 6
        if tenBit {
            let image = frame.yuvImage16()
            YUVOverlay.darken(image, roundedRect: cue.box, cornerRadius: radius, opacity: 0.6)
            for line in cue.lines {
                YUVOverlay.drawText(line.layout, font: font, into: image, left: line.left, top: line.top, offset: 0,
                                    clip: cue.box, fadeHeight: 0, level: textLevel)
            }
        } else {
            let image = frame.yuvImage()
            YUVOverlay.darken(image, roundedRect: cue.box, cornerRadius: radius, opacity: 0.6)
            for line in cue.lines {
                YUVOverlay.drawText(line.layout, font: font, into: image, left: line.left, top: line.top, offset: 0,
                                    clip: cue.box, fadeHeight: 0, level: textLevel)
            }
        }
    }
}
