import VRenderCore
import VRenderMedia

/// Joins takes packet for packet: no decoding, only timestamps shift so each take starts where
/// the previous one ended. As fast as reading the files.
struct StreamCopy {
    let plan: ExportPlan
    let output: OutputFile
    let stop: StopSignal
    let progress: ProgressThrottle

    /// Returns the number of video packets written and the output duration in seconds.
    func run() throws -> (frames: Int, duration: Double) {
        let muxer = try Muxer(path: output.temporaryPath, formatPath: output.path)
        var videoOut = -1, audioOut = -1
        var offsetSeconds = 0.0
        var frames = 0
        var lastDts: [Int: Int64] = [:]
        let packet = Packet()

        for (takeIndex, take) in plan.takes.enumerated() {
            let demuxer = try openDemuxer(take.path)
            if takeIndex == 0 {
                videoOut = try muxer.addStream(copying: take.video.index, of: demuxer)
                if case .keepMetadata(_, let matrix?) = plan.rotation { muxer.setDisplayMatrix(matrix, stream: videoOut) }
                if let audio = take.audio { audioOut = try muxer.addStream(copying: audio.index, of: demuxer) }
                try muxer.writeHeader()
            }
            // Every stream of the take is shifted by the same amount, measured from the take's
            // video start, so audio stays in sync with video.
            let videoBase = demuxer.timeBase(ofStream: take.video.index)
            var takeEnd = take.video.startTime
            while demuxer.read(into: packet) {
                if stop.isRaised { throw VRenderError.cancelled }
                let isVideo = packet.streamIndex == take.video.index
                let isAudio = packet.streamIndex == take.audio?.index
                guard isVideo || (isAudio && audioOut >= 0) else { continue }
                let outIndex = isVideo ? videoOut : audioOut
                let base = demuxer.timeBase(ofStream: packet.streamIndex)
                let shift = Int64(((offsetSeconds - take.video.startTime) * Double(base.denominator) / Double(base.numerator)).rounded())
                if isVideo, let pts = packet.pts {
                    let end = Double(pts + Swift.max(packet.duration, 0)) * videoBase.doubleValue
                    takeEnd = Swift.max(takeEnd, end)
                }
                if isAudio, let pts = packet.pts,
                   Double(pts) * base.doubleValue - take.video.startTime >= take.duration {
                    continue  // audio past the end of the take's video: trimmed
                }
                packet.pts = packet.pts.map { $0 + shift }
                packet.dts = packet.dts.map { $0 + shift }
                // Joins must keep decoding timestamps strictly increasing: an audio packet that
                // overlaps the previous take (AAC priming) is dropped; a video one is nudged.
                if let dts = packet.dts, let last = lastDts[outIndex], dts <= last {
                    if isAudio { continue }
                    packet.dts = last + 1
                    if let pts = packet.pts, pts < last + 1 { packet.pts = last + 1 }
                }
                lastDts[outIndex] = packet.dts ?? lastDts[outIndex]
                if isVideo {
                    frames += 1
                    progress.update(framesDone: frames)
                }
                try muxer.write(packet, stream: outIndex)
            }
            offsetSeconds += Swift.max(takeEnd - take.video.startTime, 0)
        }
        try muxer.finish()
        progress.update(framesDone: frames, finished: true)
        return (frames, offsetSeconds)
    }
}

/// Opens a take for reading, turning FFmpeg's error into one that names the file.
func openDemuxer(_ path: String) throws -> Demuxer {
    do {
        return try Demuxer(path: path)
    } catch {
        throw VRenderError.input(path, "cannot be read (\(error.message))")
    }
}
