import VRenderCore
import VRenderMedia

extension ExportPlanner {
    /// The smart render (`SmartRender`) of takes that would be stream-copied but for their
    /// trims (`trimBlocker`, `TrimCopy`'s reason): whole groups of pictures copied, the frames
    /// from each cut to its clean keyframe re-encoded. Nil and why not when it cannot be right
    /// (the export is then transcoded, the plan saying why). The sound is copied as a stream
    /// copy copies it, so a plan that re-encodes the sound (`--loudness`) is not smart.
    static func smartPlan(_ builder: PlanBuilder, takes: [MediaInfo], options: ExportOptions,
                          trimBlocker: String) -> (plan: ExportPlan?, refusal: String?) {
        if options.loudness != nil, builder.audio.trackCount > 0 {
            return (nil, "--loudness re-encodes the sound")
        }
        if let start = takes.first(where: { $0.video.undecodableStart != nil }) {
            return (nil, "\(start.path) starts with pictures that cannot be decoded")
        }
        let made = SmartRender.make(takes, container: builder.container)
        guard let render = made.render else { return (nil, made.refusal) }
        let codec = render.encoder == "libx264" ? "H.264" : "HEVC"
        var plan = builder.copy(.streamCopy, reason: "smart render: \(trimBlocker): only the frames from each cut to the next "
                                + "clean keyframe are re-encoded (\(render.encoder), as the copied \(codec) is coded), the rest copied")
        plan.smartRender = render
        return (plan, nil)
    }
}
