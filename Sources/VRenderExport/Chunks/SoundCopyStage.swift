import VRenderCore
import VRenderMedia

/// The sound file a chunked export's sound job wrote (`PipelineJob.sound`: every audio track of
/// the export, loudness applied), opened for the join, which copies its packets unchanged
/// instead of encoding the takes' sound after the last chunk. Its container keeps the
/// encoder's packets as a one-pass export's muxer sees them: MP4 for AAC (the sample rate as
/// its clock, the priming as an edit list: a Matroska file would move the sound 21 ms against
/// the video), Matroska for Opus (whose last packet's trim only Matroska carries back).
struct SoundFile {
    /// The container the sound job writes for `plan`'s sound, as a file name extension.
    static func container(of plan: ExportPlan) -> String {
        plan.audioCodec == .opus ? "mka" : "mp4"
    }

    private let demuxer: Demuxer
    /// The file's audio streams, track by track.
    private let streams: [Int]
    let codecName: String

    /// Opens `path` and checks it holds the export's tracks in its codec, and nothing else:
    /// the file is read back from a work folder, and a file of another export must not be joined.
    static func open(_ path: String, plan: ExportPlan) throws -> SoundFile {
        let demuxer = try openDemuxer(path)
        let codecs = demuxer.streamCodecs
        let wanted = plan.audioCodec.rawValue
        guard codecs.count == plan.audio.trackCount, codecs.allSatisfy({ $0.kind == "audio" && $0.codec == wanted }) else {
            let holds = codecs.map { "\($0.kind) \($0.codec)" }.joined(separator: ", ")
            throw VRenderError.input(path, "holds \(holds.isEmpty ? "no stream" : holds) where the export has \(plan.audio.trackCount) \(wanted) track(s): render the sound again")
        }
        return SoundFile(demuxer: demuxer, streams: Array(codecs.indices), codecName: wanted)
    }

    /// One output stream per track, copying the file's; their indices in `muxer`.
    func addStreams(to muxer: Muxer) throws -> [Int] {
        try streams.map { try muxer.addStream(copying: $0, of: demuxer) }
    }

    /// The stage that copies the packets, one producer of `output` for every track.
    func stage(output: BoundedQueue<MuxItem>, producers: ProducerCount) -> SoundCopyStage {
        SoundCopyStage(demuxer: OwnershipTransfer(demuxer), output: output, producers: producers)
    }
}

/// Reads the sound file and hands every packet to the muxer as its track's, unchanged.
struct SoundCopyStage {
    /// Used by this stage's thread alone once it runs (the streams were added before).
    let demuxer: OwnershipTransfer<Demuxer>
    let output: BoundedQueue<MuxItem>
    let producers: ProducerCount

    func run() throws {
        defer { producers.producerDone() }
        let demuxer = demuxer.take()
        while true {
            let packet = Packet()
            guard demuxer.read(into: packet) else { break }
            guard output.push(MuxItem(stream: .audio(track: packet.streamIndex), packet: packet)) else { throw VRenderError.cancelled }
        }
        if demuxer.hitReadError {
            throw VRenderError.input(demuxer.path, "a read error stopped it before its end: render the sound again")
        }
    }
}

extension ExportPlan {
    /// The container of a chunked export's sound file, as a file name extension ("mp4" for
    /// AAC, "mka" for Opus); nil when the export has no sound.
    package var soundContainer: String? {
        hasAudio ? SoundFile.container(of: self) : nil
    }
}
