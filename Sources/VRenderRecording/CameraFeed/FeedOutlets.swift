import VRenderCapture
import VRenderCore
import VRenderMedia

/// Where a feed's frames go: the stream (with the synthetic microphone's sound where the
/// container holds it) and the V4L2 output device, each optional. Confined to the feed's thread.
final class FeedOutlets {
    private let stream: (destination: StreamDestination, writer: UncompressedStreamWriter)?
    private let device: V4L2Output?
    private let microphone: SyntheticMicrophone?
    /// Sample frames of sound written so far.
    private var soundFrames = 0

    var streamName: String? { stream?.destination.name }
    var v4l2Format: NegotiatedOutput? { device?.format }

    /// Opens the V4L2 device first (a wrong one fails before a FIFO waits for its reader), then
    /// the stream; reports what each got.
    init(options: CameraFeedOptions, camera: SyntheticCamera, stop: StopSignal, events: (CameraFeedEvent) -> Void) throws {
        let size = camera.format
        device = try options.v4l2Output.map {
            try V4L2Output(path: $0, width: size.width, height: size.height, frameRate: size.frameRate,
                           preferences: options.v4l2Formats, io: options.v4l2IO)
        }
        if let device { events(.started("v4l2 output \(device.format)")) }
        guard let output = options.output else {
            stream = nil
            microphone = nil
            return
        }
        microphone = options.container.holdsSound
            ? try SyntheticMicrophone(specification: options.device, request: AudioRequest(realtime: camera.isLive), camera: camera)
            : nil
        let destination = try StreamDestination.open(output, beforeWaiting: { events(.notice($0)) },
                                                     stopped: { stop.isRaised })
        let writer = try UncompressedStreamWriter(
            descriptor: destination.descriptor, name: destination.name, container: options.container,
            width: size.width, height: size.height, frameRate: size.frameRate,
            soundFormat: microphone.map { ($0.format.sampleRate, $0.format.channels) })
        stream = (destination, writer)
        let sound = microphone.map { ", with its microphone's sound (\($0.format.sampleRate) Hz float)" } ?? ""
        events(.started("\(camera.name) \(size.width)x\(size.height) at \(FormatRule.fps(size.frameRate)) fps to "
                        + "\(destination.name) as \(options.container.rawValue)\(sound)"))
        microphone?.start()
    }

    /// Frame `index`, shown at `time`; then the sound up to `nextTime`, so the stream's sound
    /// and pictures interleave.
    func send(_ frame: Frame, index: Int, time: Double, nextTime: Double) throws {
        try stream?.writer.write(picture: frame, index: Int64(index))
        try device?.send(frame, time: time)
        guard let microphone, let writer = stream?.writer else { return }
        let rate = Double(microphone.format.sampleRate)
        while Double(soundFrames) / rate < nextTime, let period = try microphone.read() {
            try writer.write(samples: period.samples, count: period.frames)
            soundFrames += period.frames
        }
    }

    /// The feed ended well: the stream is finished (a file takes its name), the device stops.
    func finish() throws {
        microphone?.stop()
        device?.stop()
        try stream?.writer.finish()
        try stream?.destination.commit()
    }

    /// The feed failed or its reader left: nothing is kept under the file's name.
    func discard() {
        microphone?.stop()
        device?.stop()
        stream?.destination.discard()
    }
}
