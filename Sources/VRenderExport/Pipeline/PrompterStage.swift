import VRenderCore
import VRenderMedia

/// Stage 3½ (with `--prompter-overlay`): draws the prompter into each output frame, after the
/// filter, between processing and encoding.
///
/// Every output slot shows its own scroll position, so a picture that fills several slots
/// (frame-rate conversion) becomes one picture per slot: copies into pooled canvases, the last
/// slot drawn on the canvas itself. A decoded frame handed on untouched is never drawn on (the
/// decoder keeps it as a reference picture): it is copied first.
struct PrompterStage {
    let painter: PrompterPainter
    let input: BoundedQueue<EncodeItem>
    let output: BoundedQueue<EncodeItem>
    let shells: ObjectPool<Frame>
    let canvases: ObjectPool<Frame>
    /// Per output frame drawn (the copy included); nil when timings are off.
    let timer: StageTimer?

    func run() throws {
        defer { output.finish() }
        while let item = input.pop() {
            for repeatIndex in 0..<item.count {
                let slot = item.firstSlot + repeatIndex
                // A canvas someone else still refers to (a dissolve keeps the outgoing take's
                // pictures) is copied too.
                let drawsInPlace = item.origin == .canvas && repeatIndex == item.count - 1 && item.frame.isWritable
                timer?.begin()
                let picture = drawsInPlace ? item.frame : try copy(of: item.frame)
                painter.draw(slot: slot, on: picture)
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
