import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia

/// Stage 3: maps decoded frames to output slots (frame-rate conversion, trimming), turns them
/// into canvas pictures (scale, letterbox, rotate), runs the filter chain and makes the
/// transitions' pictures (`TransitionPictures`). With `--stabilize` each frame, measured by the
/// motion stage before this one (`MotionStage`), is held back until its correction is known
/// (`TakeStabilizer`), then warped before everything else.
///
/// A frame that already is the canvas and meets no filter goes on untouched: no copy. A frame
/// that is filtered is written once into a pooled canvas frame, whatever number of slots it
/// fills. A frame that fills none of `frames` (outside a chunk) is dropped before any work.
struct ProcessStage {
    let plan: ExportPlan
    /// The output frames this run writes (a chunk's, or all of them).
    let frames: Range<Int>
    let filter: FilterChain
    /// Runs the filter chain (CPU or Vulkan); used only on this stage's thread.
    let executor: OwnershipTransfer<any FilterExecutor>
    let input: BoundedQueue<FrameEvent>
    let output: BoundedQueue<EncodeItem>
    let shells: ObjectPool<Frame>
    let canvases: ObjectPool<Frame>
    let damage: DamageLog
    /// Per picture scaled, turned or converted (tone mapping included); nil when timings are off.
    let normalizeTimer: StageTimer?
    /// Per picture filtered.
    let filterTimer: StageTimer?
    /// `--stabilize`: where each take's corrections are counted (nil without).
    let stabilizeReport: StabilizeReport?

    func run() throws {
        defer { output.finish() }
        var run = ProcessRun(stage: self, executor: executor.take())
        defer { run.joins.finish() }
        while let event = input.pop() {
            switch event {
            case .takeStart(let index):
                run.beginTake(index)
            case .frame(let frame, let seconds, let motion):
                try run.arrive(frame, seconds: seconds, motion: motion)
            case .takeEnd(let index):
                try run.endTake(index)
            }
        }
    }

    /// The part of `slots` this run writes; nil when none.
    fileprivate func clipped(_ slots: Range<Int>) -> Range<Int>? {
        let kept = slots.clamped(to: frames)
        return kept.isEmpty ? nil : kept
    }

    /// Produces the canvas picture for a decoded frame of take `take`.
    fileprivate func render(_ decoded: Frame, take: Int, normalizer: FrameNormalizer, toneMap: ToneMapStep?,
                        executor: any FilterExecutor) throws -> (frame: Frame, origin: EncodeItem.Origin) {
        // Turned, unmirrored and its pixels squared: the canvas is in the display's geometry.
        let orientation = plan.pixelOrientation(ofTake: take), aspect = plan.takes[take].video.sampleAspect
        var colour = plan.colour.sources[take]
        var source = decoded
        if let toneMap {
            normalizeTimer?.begin()  // one normalize sample with the scaling below
            source = try toneMap.map(decoded, path: plan.takes[take].path)
            normalizeTimer?.pause()
            colour = .bt709
        }
        let ready = toneMap == nil && normalizer.isCanvasReady(decoded, orientation: orientation,
                                                                     sampleAspect: aspect, colour: colour)
        if ready && filter.isIdentity {
            return (decoded, .decoded)  // untouched: handed on, not copied
        }
        let canvas = try canvases.obtain()
        try canvas.makeWritable()
        if ready {
            // The decoder keeps references to its frames (reference pictures), so the filter
            // reads the decoded frame and writes the canvas: never in place on decoder memory.
            try timed(filterTimer) { try executor.run(source: decoded.yuvImage(), destination: canvas.yuvImage()) }
        } else {
            try timed(normalizeTimer) { try normalizer.normalize(source, orientation: orientation, sampleAspect: aspect,
                                                                          colour: colour, into: canvas) }
            if !filter.isIdentity {
                // Only the picture is filtered: letterbox bars stay true black.
                let placement = normalizer.placement(width: source.width, height: source.height,
                                                     orientation: orientation, sampleAspect: aspect)
                let picture = canvas.yuvImage().cropped(to: placement)
                try timed(filterTimer) { try executor.run(source: picture, destination: picture) }
            }
        }
        recycleShell(decoded)
        return (canvas, .canvas)
    }

    /// Runs `body`, as one frame's sample of `timer` when there is one.
    fileprivate func timed(_ timer: StageTimer?, _ body: () throws -> Void) throws {
        guard let timer else { return try body() }
        try timer.measureFrame(body)
    }

    fileprivate func recycleShell(_ frame: Frame) {
        frame.unref()
        shells.recycle(frame)
    }
}

/// One run of the process stage: the take being read and where its frames have got to.
private struct ProcessRun {
    let stage: ProcessStage
    let executor: any FilterExecutor
    let normalizer: FrameNormalizer
    var joins: TransitionPictures
    var toneMap: ToneMapStep?
    var takeIndex = 0
    var assigner = SlotAssigner(slotCount: 0)
    /// The frame the slot assigner places when the next one arrives, and its correction.
    var pending: (frame: Frame, correction: CameraMotion?)?
    var emittedAny = false
    var lastSlot = -1
    /// `--stabilize`: the take's delay line and warp (nil without).
    var stabilizer: TakeStabilizer?

    init(stage: ProcessStage, executor: any FilterExecutor) {
        let plan = stage.plan
        self.stage = stage
        self.executor = executor
        normalizer = FrameNormalizer(canvasWidth: plan.canvasWidth, canvasHeight: plan.canvasHeight,
                                     tenBit: plan.colour.tenBit, target: plan.colour.output)
        joins = TransitionPictures(plan: plan, output: stage.output, shells: stage.shells, canvases: stage.canvases,
                                   threads: plan.threads.pictureBands)
    }

    mutating func beginTake(_ index: Int) {
        let plan = stage.plan
        takeIndex = index
        joins.beginTake()
        toneMap = plan.colour.toneMapped[index]
            ? ToneMapStep(colour: plan.colour.sources[index], threads: plan.threads.pictureBands) : nil
        assigner = SlotAssigner(slotCount: plan.timeline.takes[index].slotCount)
        emittedAny = false
        lastSlot = -1
        stabilizer = plan.stabilize.map { TakeStabilizer(plan: $0, path: plan.takes[index].path) }
    }

    mutating func arrive(_ frame: Frame, seconds: Double?, motion: CameraMotion?) throws {
        let plan = stage.plan, take = plan.takes[takeIndex]
        // A frame without a timestamp follows the previous one.
        let slot = seconds.map { plan.timeline.slot(forSecondsIntoTake: $0 - take.video.startTime) } ?? lastSlot + 1
        lastSlot = slot
        if let stabilizer {
            // Stabilized, a frame goes on once the frames its correction averages over have come.
            for held in stabilizer.arrive(frame, slot: slot, motion: motion ?? CameraMotion()) {
                try place(held.payload, slot: held.slot, correction: held.correction)
            }
        } else {
            try place(frame, slot: slot, correction: nil)
        }
    }

    mutating func endTake(_ index: Int) throws {
        if let stabilizer {
            for held in stabilizer.finish() {
                try place(held.payload, slot: held.slot, correction: held.correction)
            }
        }
        if let last = assigner.finish(), let held = pending {
            try emit(held.frame, correction: held.correction, start: last.start, count: last.count)
        }
        if let stabilizer { stage.stabilizeReport?.add(stabilizer) }
        pending = nil
        try fillIfEmpty(take: index)
    }

    /// Hands a frame (and its correction) to the slot assigner, which places the one before it.
    private mutating func place(_ frame: Frame, slot: Int, correction: CameraMotion?) throws {
        if let previous = assigner.arrive(slot: slot), let held = pending {
            try emit(held.frame, correction: held.correction, start: previous.start, count: previous.count)
        }
        pending = (frame, correction)
    }

    private mutating func emit(_ frame: Frame, correction: CameraMotion?, start: Int, count: Int) throws {
        if count > 0 { emittedAny = true }
        let firstSlot = stage.plan.timeline.takes[takeIndex].firstSlot + start
        guard let slots = stage.clipped(firstSlot..<firstSlot + count) else {
            stage.recycleShell(frame)
            return
        }
        if let correction, let stabilizer { try stage.timed(stage.normalizeTimer) { try stabilizer.warp(frame, by: correction) } }
        let item = try stage.render(frame, take: takeIndex, normalizer: normalizer, toneMap: toneMap, executor: executor)
        try joins.send(item.frame, origin: item.origin, slots: slots, take: takeIndex)
    }

    /// Nothing decodable in take `index`: its frames are black, which keeps the timeline whole.
    private mutating func fillIfEmpty(take index: Int) throws {
        let plan = stage.plan, span = plan.timeline.takes[index]
        guard !emittedAny && span.slotCount > 0,
              let slots = stage.clipped(span.firstSlot..<span.firstSlot + span.slotCount) else { return }
        stage.damage.warn("\(plan.takes[index].path): no picture could be decoded; its \(span.slotCount) frames are black")
        let canvas = try stage.canvases.obtain()
        try canvas.makeWritable()
        if plan.colour.tenBit {
            ImageOps16.fillBlack(canvas.yuvImage16(), outside: PixelRect(x: 0, y: 0, width: 0, height: 0))
        } else {
            canvas.fillBlack()
        }
        try joins.send(canvas, origin: .canvas, slots: slots, take: index)
    }
}
