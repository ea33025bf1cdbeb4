import VRenderCore
import VRenderImaging
import VRenderMedia
import VRenderPrompter

/// Draws the prompter into an export's pictures: which take and moment an output slot is,
/// where the scroll is then (`PrompterTimeline`), and the box and text at that offset.
///
/// The script is laid out once per font size the export needs (its own, and every size a
/// recorded take used) before any frame is drawn, so a missing font fails before the
/// pipeline starts and frames only blend cached glyphs.
/// Sendable as it is: every property is an immutable `let` of a Sendable type (the font
/// guards its own FreeType faces).
final class PrompterPainter: SlotPainter {
    private let plan: ExportPlan
    private let geometry: PrompterGeometry
    private let font: TextFont
    private let overlays: [Double: PrompterOverlay]
    private let timeline: PrompterTimeline
    /// The slot where each take starts in the output, for mapping a slot to its take.
    private let firstSlots: [Int]

    init(prompter: PrompterPlan, plan: ExportPlan, damage: DamageLog) throws {
        self.plan = plan
        geometry = prompter.geometry
        font = try TextFont()
        let recordedSizes = prompter.takes.flatMap { $0.record?.anchors.map(\.fontSize) ?? [] }
        var appearance = geometry.appearance
        appearance.textLevel = plan.colour.textLevel
        var overlays: [Double: PrompterOverlay] = [:]
        var maxOffsets: [Double: Double] = [:]
        for size in Set([prompter.settings.fontSize] + recordedSizes) {
            let layout = geometry.layout(prompter.script.text, fontSize: size, font: font)
            if !layout.missingCharacters.isEmpty && overlays.isEmpty {
                let characters = String(String.UnicodeScalarView(layout.missingCharacters))
                damage.warn("\(prompter.script.name): no installed font has \(characters); drawn as boxes")
            }
            overlays[size] = PrompterOverlay(layout: layout, font: font, appearance: appearance)
            maxOffsets[size] = Swift.max(0, geometry.prompterText(layout).contentHeight - geometry.viewportPoints)
        }
        self.overlays = overlays
        let fallback = maxOffsets[prompter.settings.fontSize] ?? 0
        timeline = PrompterTimeline(takes: prompter.takes, settings: prompter.settings,
                                    maxOffset: { [maxOffsets] in maxOffsets[$0] ?? fallback })
        firstSlots = plan.timeline.takes.map(\.firstSlot)
    }

    /// The prompter shows on every frame.
    func draws(slot: Int) -> Bool { true }

    /// Draws the prompter as it is at output slot `slot` onto `frame` (a writable canvas).
    func draw(slot: Int, on frame: Frame) {
        let take = firstSlots.lastIndex { $0 <= slot } ?? 0
        let seconds = Double(slot - firstSlots[take]) / plan.frameRate.doubleValue
        let position = timeline.position(take: take, seconds: seconds)
        guard let overlay = overlays[position.fontSize] else { return }
        let offset = geometry.pixels(position.offset)
        if plan.colour.tenBit {
            overlay.draw(into: frame.yuvImage16(), offset: offset)
        } else {
            overlay.draw(into: frame.yuvImage(), offset: offset)
        }
    }
}
