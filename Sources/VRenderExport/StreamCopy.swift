import VRenderCore
import VRenderMedia

/// Joins takes packet for packet: no decoding, only timestamps shift so each take starts where
/// the previous one ended. As fast as reading the files. Every planned audio track is copied.
/// A video packet whose pts a damaged header moved far away (`PresentationCheck`) gets a
/// plausible one and is counted as damage: it would otherwise set where the take ends.
/// Damage a copy would carry silently (`CopyInspector`) stops it with `CopyDamage`.
struct StreamCopy {
    let plan: ExportPlan
    let output: OutputFile
    let damage: DamageLog
    let cancellation: ExportCancellation
    let progress: ProgressThrottle
    /// Where demux and mux record their times (nil: nothing is measured). One thread does both.
    var timings: StageTimings? = nil

    /// What the copy has set up and written so far, carried from take to take.
    private struct Output {
        let muxer: Muxer
        var retimer: PacketRetimer
        var videoStream = -1
        var audioStreams: [Int] = []
        /// How long one coded frame of each output audio stream plays (`Demuxer.audioFrameDuration`),
        /// from the first take: every take's audio matches it (`CopyCompatibility.audioMismatch`:
        /// codec, rate, channels, setup and clock), and the later takes, opened from their
        /// header only, may not know it.
        var audioFrameDurations: [Int: Int64] = [:]
        var side: SideStreamOutput?
        var cues = CueQueue()
        /// Shown video frames written.
        var frames = 0
        /// Where the next take starts, in seconds of the output.
        var offsetSeconds = 0.0
        /// The last video packet written was re-encoded (`SmartRender`): the next copied one
        /// carries the copied stream's parameter sets again.
        var afterReencoded = false
        /// A smart render's re-encoded spans (nil: a plain copy).
        var spanEncodings: SpanEncodings?
    }

    /// Returns the number of video packets written and the output duration in seconds.
    func run() throws -> (frames: Int, duration: Double) {
        let muxer = try Muxer(descriptor: output.open(), path: output.temporaryPath, formatPath: output.path, reportingAs: output.path)
        var out = Output(muxer: muxer, retimer: PacketRetimer(containerTrimsStart: plan.container.isQuickTimeFamily),
                         spanEncodings: plan.smartRender.map { SpanEncodings($0, takes: plan.takes) })
        let timers = ExportTimers(timings, mode: .streamCopy, audioTracks: plan.audio.trackCount)
        // A copy without sound starts no checker thread.
        let audioCheck = plan.audio.trackCount > 0 ? CopyAudioCheck() : nil
        do {
            for (takeIndex, take) in plan.takes.enumerated() {
                // Opened one take at a time (closed when the next opens); the first searched in
                // full, as the output's streams are set up from it, the others already probed.
                let demuxer = try openDemuxer(take.path, streamInfo: takeIndex == 0 ? .found : .headerWhenComplete)
                if takeIndex == 0 { try writeHeader(&out, firstTake: take, demuxer: demuxer) }
                out.offsetSeconds += try copy(take: takeIndex, from: demuxer, into: &out, timers: timers, audioCheck: audioCheck)
            }
            timers.mux?.begin()
            try muxer.finish()
            timers.mux?.otherDone()
            // The audio check's verdict, before `Exporter` commits the output.
            try audioCheck?.finish()
        } catch {
            throw audioCheck?.stop(after: error) ?? error
        }
        progress.update(framesDone: out.frames, finished: true)
        return (out.frames, out.offsetSeconds)
    }

    /// The output's streams, set up from the first take's, and the header.
    private func writeHeader(_ out: inout Output, firstTake take: MediaInfo, demuxer: Demuxer) throws {
        out.videoStream = try out.muxer.addStream(copying: take.video.index, of: demuxer)
        out.muxer.setLabel(plan.videoLabel, stream: out.videoStream)
        if case .keepMetadata(_, let matrix?) = plan.rotation { out.muxer.setDisplayMatrix(matrix, stream: out.videoStream) }
        for track in 0..<plan.audio.trackCount {
            guard let source = plan.audio.source(take: take, takeIndex: 0, track: track) else {
                preconditionFailure("a stream-copy plan has every audio track in every take")
            }
            let stream = try out.muxer.addStream(copying: source.index, of: demuxer)
            out.muxer.setLabel(plan.audio.label(ofTrack: track), stream: stream)
            out.audioStreams.append(stream)
            out.audioFrameDurations[stream] = demuxer.audioFrameDuration(ofStream: source.index)
        }
        out.side = try SideStreamOutput(plan: plan, muxer: out.muxer)
        out.muxer.writeReproducibly()
        let muxer = out.muxer
        try blaming(take.path) { try muxer.writeHeader(options: muxer.finishedFileOptions) }
    }

    /// Copies take `takeIndex`'s packets, checked (`CopyInspector`) and retimed, with its
    /// subtitle cues between them. Returns the take's length in seconds (where its video ends).
    private func copy(take takeIndex: Int, from demuxer: Demuxer, into out: inout Output, timers: ExportTimers,
                      audioCheck: CopyAudioCheck?) throws -> Double {
        let take = plan.takes[takeIndex]
        // Input stream index -> output stream index for this take.
        var routes = [take.video.index: out.videoStream]
        for track in 0..<plan.audio.trackCount {
            if let source = plan.audio.source(take: take, takeIndex: takeIndex, track: track) { routes[source.index] = out.audioStreams[track] }
        }
        out.cues.add(try out.side?.cues(ofTake: takeIndex, at: out.offsetSeconds) ?? [])
        let videoBase = demuxer.timeBase(ofStream: take.video.index)
        var takeEnd = take.video.startTime
        var check = PresentationCheck(for: take.video)
        let reencodedPlacement = PacketRetimer.Placement(take: take, offset: out.offsetSeconds)
        var (smart, placement) = try startSmartPiece(takeIndex, into: &out, timeBase: videoBase, takeEnd: &takeEnd)
        let audioStreams = routes.keys.filter { $0 != take.video.index }.sorted()
        var inspector = try CopyInspector(take: take, demuxer: demuxer, audioStreams: audioStreams, decodedBy: audioCheck)
        let packet = Packet()
        while timers.demux.timedRead(demuxer, into: packet, video: take.video.index) {
            if cancellation.isCancelled { throw VRenderError.cancelled }
            guard let outIndex = routes[packet.streamIndex] else { continue }
            let isVideo = packet.streamIndex == take.video.index
            try inspector.check(packet, of: demuxer)
            if isVideo { check.repair(packet) }
            if isVideo, let due = smart?.due(before: packet.pts.map { Double($0) * videoBase.doubleValue - take.video.startTime }) {
                try writeReencoded(due, into: &out, timeBase: videoBase, reencodedPlacement, takeEnd: &takeEnd)
            }
            let end = isVideo ? packet.pts.map { Double($0 + take.video.shownTicks(ofPacketDuration: packet.duration)) * videoBase.doubleValue } : nil
            guard out.retimer.retime(packet, stream: outIndex, isAudio: !isVideo,
                                     timeBase: demuxer.timeBase(ofStream: packet.streamIndex), placement,
                                     audioFrameDuration: isVideo ? nil : out.audioFrameDurations[outIndex])
            else { continue }
            if let end { takeEnd = Swift.max(takeEnd, end) }
            if isVideo, out.afterReencoded { try restoreParameterSets(packet, &out) }
            if isVideo, !packet.isDiscarded {  // a frame the output's edit list hides is not shown
                out.frames += 1
                progress.update(framesDone: out.frames)
            }
            timers.mux?.begin()
            if let stream = out.side?.subtitleStream, let time = packet.dts ?? packet.pts {
                try out.cues.write(upTo: Double(time) * out.muxer.sourceTimeBase(ofStream: outIndex).doubleValue, stream: stream, out.muxer)
            }
            do {
                try out.muxer.write(packet, stream: outIndex)
            } catch let error as FFmpegError {
                throw inspector.refused(error, packet: packet)
            }
            if isVideo { timers.mux?.frameDone() } else { timers.mux?.otherDone() }
        }
        if let tail = smart?.tail { try writeReencoded(tail, into: &out, timeBase: videoBase, reencodedPlacement, takeEnd: &takeEnd) }
        if let stream = out.side?.subtitleStream { try out.cues.write(upTo: .infinity, stream: stream, out.muxer) }
        try inspector.checkEnd(demuxer)
        damage.noteDamagedTimestamps(check.outliers, in: take.path)
        return Swift.max(takeEnd - take.video.startTime, 0)
    }
}

extension StreamCopy {
    /// A smart render's piece `takeIndex` (`SmartPieceCopy`; nil when copied whole), its
    /// re-encoded start written, and where its copied packets are placed.
    private func startSmartPiece(_ takeIndex: Int, into out: inout Output, timeBase: Rational,
                                 takeEnd: inout Double) throws -> (SmartPieceCopy?, PacketRetimer.Placement) {
        let take = plan.takes[takeIndex]
        var placement = PacketRetimer.Placement(take: take, offset: out.offsetSeconds)
        guard let render = plan.smartRender, let encodings = out.spanEncodings,
              let smart = try SmartPieceCopy(render, piece: takeIndex, take: take, encodings: encodings) else {
            return (nil, placement)
        }
        try writeReencoded(smart.head, into: &out, timeBase: timeBase, placement, takeEnd: &takeEnd)
        placement.videoWindow = smart.copyWindow
        return (smart, placement)
    }

    /// The copied keyframe after re-encoded frames gets the copied stream's parameter sets
    /// back in band (`NALFormat`): the re-encoded ones reuse their ids.
    private func restoreParameterSets(_ packet: Packet, _ out: inout Output) throws {
        guard let format = plan.smartRender?.format else { return }
        try packet.replaceBytes(format.withParameterSets(packet.bytes))
        out.afterReencoded = false
    }

    /// Writes a smart render's re-encoded packets (`SmartPieceCopy`), placed as the take's own.
    private func writeReencoded(_ packets: [Packet], into out: inout Output, timeBase: Rational,
                                _ placement: PacketRetimer.Placement, takeEnd: inout Double) throws {
        for packet in packets {
            if cancellation.isCancelled { throw VRenderError.cancelled }
            let end = packet.pts.map { Double($0 + packet.duration) * timeBase.doubleValue }
            guard out.retimer.retime(packet, stream: out.videoStream, isAudio: false, timeBase: timeBase, placement) else { continue }
            if let end { takeEnd = Swift.max(takeEnd, end) }
            out.frames += 1
            progress.update(framesDone: out.frames)
            try out.muxer.write(packet, stream: out.videoStream)
            out.afterReencoded = true
        }
    }

    /// Runs a muxer call on what `path` gave (its streams' setup). The muxer refusing it
    /// (FFmpeg's error: a codec setup it cannot parse) is that take's fault, so the error names
    /// it; failures to write (`VRenderError.output`: disk full, ...) pass as they are. (A packet
    /// refused is damage: `CopyInspector.refused`.)
    func blaming(_ path: String, _ call: () throws -> Void) throws {
        do {
            try call()
        } catch let error as FFmpegError {
            throw VRenderError.input(path, "cannot be copied into a .\(plan.output.fileExtension) file (\(error)): "
                                     + "is its codec setup or timing damaged?")
        }
    }
}

/// A copy's subtitle packets not yet written, in output order (milliseconds): each is
/// written just before the first video or audio packet that comes after it, so that the
/// muxer gets every stream in time order.
struct CueQueue {
    private var pending: [Packet] = []

    mutating func add(_ packets: [Packet]) { pending += packets }

    mutating func write(upTo seconds: Double, stream: Int, _ muxer: Muxer) throws {
        let due = pending.prefix { Double($0.pts ?? 0) / 1000 <= seconds }
        pending.removeFirst(due.count)
        for packet in due { try muxer.write(packet, stream: stream) }
    }
}

/// Opens `take` for its packets, checked to hold the streams it was probed with
/// (`Demuxer.difference(from:)`): the probe may be a chunk plan's, from another process.
func openTake(_ take: MediaInfo) throws -> Demuxer {
    let demuxer = try openDemuxer(take.path)
    if let difference = demuxer.difference(from: take) {
        throw VRenderError.input(take.path, "is not the file the export was planned from: \(difference) "
                                 + "(it changed since, or a chunk plan says otherwise)")
    }
    return demuxer
}

/// Opens a take for reading, turning FFmpeg's error into one that names the file.
func openDemuxer(_ path: String, streamInfo: Demuxer.StreamInfo = .found) throws -> Demuxer {
    do {
        return try Demuxer(path: path, streamInfo: streamInfo)
    } catch {
        throw VRenderError.input(path, "cannot be read (\(error.message))")
    }
}
