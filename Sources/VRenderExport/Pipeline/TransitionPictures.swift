import VRenderCore
import VRenderFilters
import VRenderMedia

/// The pictures at the joins (`--transition`), the last step of the process stage: every
/// canvas picture (scaled, turned and filtered) passes here on its way to the prompter or the
/// encoder, with the output slots it fills.
///
/// The dissolve happens after the filter, so each take is filtered as it is without a
/// transition (letterbox bars stay black, a look is not applied twice over a mix), and before
/// the prompter, which is then drawn once, crisp, over the mixed picture instead of twice
/// faded in and out.
///
/// - fade: the reader reads takes one after another, so the outgoing take's pictures for the
///   overlap are kept, as references (no copy; at most one per overlap frame), until the
///   incoming take's pictures for the same slots arrive; each overlap slot then gets a new
///   canvas, the two mixed by `TransitionPlan.dissolveWeight`.
/// - dip: each of the outgoing take's last and the incoming take's first `frames` slots gets a
///   new canvas, the picture mixed with black.
///
/// Slots are output frames, so a chunk that starts or ends inside a transition mixes exactly
/// the pictures a single pass mixes there. Confined to the process stage's thread.
struct TransitionPictures {
    let plan: ExportPlan
    let output: BoundedQueue<EncodeItem>
    let shells: ObjectPool<Frame>
    let canvases: ObjectPool<Frame>
    /// Bands per blended picture (`RowBands`).
    let threads: Int
    /// The current take's pictures for its tail overlap, with the slots each fills.
    private var tail: [(frame: Frame, slots: Range<Int>)] = []
    /// The previous take's, mixed into the current take's head.
    private var previousTail: [(frame: Frame, slots: Range<Int>)] = []

    init(plan: ExportPlan, output: BoundedQueue<EncodeItem>, shells: ObjectPool<Frame>, canvases: ObjectPool<Frame>, threads: Int) {
        self.plan = plan
        self.output = output
        self.shells = shells
        self.canvases = canvases
        self.threads = threads
    }

    /// A take starts: the kept pictures of the take before it become the ones to mix.
    mutating func beginTake() {
        release(&previousTail)
        previousTail = tail
        tail = []
    }

    /// Gives back every kept picture (the run ended, or failed).
    mutating func finish() {
        release(&previousTail)
        release(&tail)
    }

    /// Hands on `frame` (a canvas picture of take `take`, from `origin`) for `slots`, which lie
    /// within the take and the run's frames: the slots in transitions get their own pictures,
    /// the others the frame itself. Takes the frame over.
    mutating func send(_ frame: Frame, origin: EncodeItem.Origin, slots: Range<Int>, take: Int) throws {
        guard let transition = plan.transition else { return try push(frame, origin: origin, slots: slots) }
        let span = plan.timeline.takes[take]
        let head = span.firstSlot..<span.firstSlot + transition.headFrames(ofTake: take)
        let end = span.firstSlot + span.slotCount
        let tailSlots = end - transition.tailFrames(ofTake: take)..<end
        for slot in slots.clamped(to: head) {
            let index = slot - head.lowerBound
            let outgoing = transition.kind == .fade ? previousTail.first { $0.slots.contains(slot) }?.frame : nil
            let weight = outgoing == nil ? transition.dipInGain(index) : transition.dissolveWeight(index)
            try push(try mix(outgoing, frame, weight: weight), origin: .canvas, slots: slot..<slot + 1)
        }
        // The tail's pictures are made (or kept) before the frame is handed on, and handed on
        // after it: slots reach the encoder in order.
        let kept = slots.clamped(to: tailSlots)
        var faded: [Frame] = []
        if !kept.isEmpty {
            switch transition.kind {
            case .fade:
                let reference = try shells.obtain()
                try reference.reference(frame)
                tail.append((reference, kept))
            case .dip:
                faded = try kept.map { try mix(nil, frame, weight: transition.dipOutGain($0 - tailSlots.lowerBound)) }
            }
        }
        let plain = slots.clamped(to: head.upperBound..<Swift.max(head.upperBound, tailSlots.lowerBound))
        if plain.isEmpty {
            recycle(frame, origin: origin)
        } else {
            try push(frame, origin: origin, slots: plain)
        }
        for (slot, picture) in zip(kept, faded) { try push(picture, origin: .canvas, slots: slot..<slot + 1) }
    }

    /// A new canvas: `incoming` weighted by `weight` over `outgoing` (nil: black).
    private func mix(_ outgoing: Frame?, _ incoming: Frame, weight: Double) throws -> Frame {
        let canvas = try canvases.obtain()
        try canvas.makeWritable()
        let fixed = PictureBlend.weight(weight)
        // Over black, the picture is the first image and black's weight is the rest.
        let (first, second, secondWeight) = outgoing.map { ($0, Optional(incoming), fixed) } ?? (incoming, nil, PictureBlend.scale - fixed)
        if plan.colour.tenBit {
            PictureBlend.blend(first.yuvImage16(), second?.yuvImage16(), weight: secondWeight, into: canvas.yuvImage16(), threads: threads)
        } else {
            PictureBlend.blend(first.yuvImage(), second?.yuvImage(), weight: secondWeight, into: canvas.yuvImage(), threads: threads)
        }
        return canvas
    }

    private func push(_ frame: Frame, origin: EncodeItem.Origin, slots: Range<Int>) throws {
        guard output.push(EncodeItem(frame: frame, origin: origin, firstSlot: slots.lowerBound, count: slots.count)) else {
            throw VRenderError.cancelled
        }
    }

    private func recycle(_ frame: Frame, origin: EncodeItem.Origin) {
        switch origin {
        case .decoded:
            frame.unref()
            shells.recycle(frame)
        case .canvas:
            canvases.recycle(frame)
        }
    }

    private func release(_ kept: inout [(frame: Frame, slots: Range<Int>)]) {
        for entry in kept { recycle(entry.frame, origin: .decoded) }
        kept = []
    }
}
