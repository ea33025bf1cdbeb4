import VRenderCore
import VRenderMedia

/// What draws into an export's output frames after the filter: the prompter
/// (`PrompterPainter`, every frame) and burned-in captions (`CaptionPainter`, the frames a
/// cue shows on).
protocol SlotPainter: Sendable {
    /// Whether output frame `slot` gets anything drawn.
    func draws(slot: Int) -> Bool
    /// Draws what output frame `slot` shows onto `frame` (a writable canvas).
    func draw(slot: Int, on frame: Frame)
}

/// Stage 3½ (with `--prompter-overlay` or `--captions burn`): draws into each output frame,
/// after the filter, between processing and encoding.
///
/// Every output slot a painter draws on gets its own picture, so a picture that fills several
/// slots (frame-rate conversion) becomes one picture per slot: copies into pooled canvases,
/// the last slot drawn on the canvas itself. A decoded frame handed on untouched is never
/// drawn on (the decoder keeps it as a reference picture): it is copied first. Pictures no
/// painter draws on pass through as they are.
struct OverlayStage {
    let painters: [any SlotPainter]
    let input: BoundedQueue<EncodeItem>
    let output: BoundedQueue<EncodeItem>
    let shells: ObjectPool<Frame>
    let canvases: ObjectPool<Frame>
    /// Per output frame drawn (the copy included); nil when timings are off.
    let timer: StageTimer?

    func run() throws {
        defer { output.finish() }
        while let item = input.pop() {
            let slots = item.firstSlot..<item.firstSlot + item.count
            guard slots.contains(where: { slot in painters.contains { $0.draws(slot: slot) } }) else {
                guard output.push(item) else { throw VRenderError.cancelled }
                continue
            }
            for repeatIndex in 0..<item.count {
                let slot = item.firstSlot + repeatIndex
                // A canvas someone else still refers to (a dissolve keeps the outgoing take's
                // pictures) is copied too.
                let drawsInPlace = item.origin == .canvas && repeatIndex == item.count - 1 && item.frame.isWritable
                timer?.begin()
                let picture = drawsInPlace ? item.frame : try copy(of: item.frame)
                for painter in painters where painter.draws(slot: slot) { painter.draw(slot: slot, on: picture) }
                timer?.frameDone()
                guard output.push(EncodeItem(frame: picture, origin: .canvas, firstSlot: slot, count: 1)) else {
                    throw VRenderError.cancelled
                }
            }
            if item.origin == .decoded {
                item.frame.unref()
                shells.recycle(item.frame)
            }
        }
    }

    private func copy(of frame: Frame) throws -> Frame {
        let canvas = try canvases.obtain()
        try canvas.makeWritable()
        try canvas.copyPicture(from: frame)
        return canvas
    }
}
