import Glibc
import VRenderCapture
import VRenderCore
import VRenderMedia

/// What a feed reports while it runs.
public enum CameraFeedEvent: Sendable {
    /// One line: what is fed where, or the format a V4L2 device agreed on.
    case started(String)
    /// A clamp, an unsupported action, a FIFO waiting for its reader.
    case notice(String)
    /// About once a second: pictures fed so far, their length, and the rate over the last second.
    case progress(frames: Int, seconds: Double, framesPerSecond: Double)
}

/// How a feed ended and what it fed.
public struct CameraFeedSummary: Sendable, Equatable {
    public enum Ending: String, Sendable {
        case duration, script, readerLeft, quit, interrupted
    }

    public var frames: Int
    /// Length of what was fed: frames / rate.
    public var seconds: Double
    public var ending: Ending
    /// Wall-clock seconds the feed ran.
    public var wallSeconds: Double
    /// CPU seconds the process used meanwhile (all threads).
    public var cpuSeconds: Double
    /// The V4L2 device's agreed format, when one was fed.
    public var v4l2: NegotiatedOutput?
}

/// `vrender camera`: the synthetic camera streamed for other programs, to a pipe or file through
/// libavformat and/or into a V4L2 output device. Frame k is the camera's frame k whatever the
/// outlet, so the same seed and script give the same pictures a capture of the camera records.
///
/// Paced to real time when asked (and always for a V4L2 device); otherwise as fast as the reader
/// takes frames (a pipe's writes block while it is full). A reader that goes away (EPIPE) ends
/// the feed cleanly. Script actions apply at their times as in a take; keys (a `LiveCommand`
/// queue) between frames.
// @unchecked Sendable: `run` belongs to one thread; other threads only call `requestStop()`,
// which touches the thread-safe StopSignal.
public final class CameraFeed: @unchecked Sendable {
    private let options: CameraFeedOptions
    private let stop = StopSignal()

    public init(options: CameraFeedOptions) {
        self.options = options
    }

    /// Ends the feed after the frame being fed (Ctrl-C); callable from any thread.
    public func requestStop() { stop.raise() }

    /// Feeds until the duration, the script's `stop`, `q`, a stop request, or the reader leaving.
    public func run(commands: BoundedQueue<LiveCommand>? = nil,
                    events: @escaping (CameraFeedEvent) -> Void) throws -> CameraFeedSummary {
        try options.validate()
        // A reader that goes away must be a write error (EPIPE) the feed ends on, not a signal
        // that kills the process before it can say so.
        signal(SIGPIPE, SIG_IGN)
        let camera = try SyntheticCamera(specification: options.device, request: options.cameraRequest)
        for outcome in camera.initialOutcomes { if let notice = outcome.notice { events(.notice(notice)) } }
        let outlets = try FeedOutlets(options: options, camera: camera, stop: stop, events: events)
        let clock = FeedClock()
        var loop = FeedLoop(camera: camera, script: options.script, duration: options.duration, events: events)
        let ending: CameraFeedSummary.Ending
        do {
            ending = try loop.run(outlets: outlets, commands: commands, stop: stop)
            try outlets.finish()
        } catch is OutputReaderGone {
            outlets.discard()
            events(.notice("the reader closed \(outlets.streamName ?? "the stream") after \(loop.frames) frame(s): stopped"))
            return clock.summary(frames: loop.frames, seconds: camera.time(ofFrame: loop.frames), ending: .readerLeft,
                                 v4l2: outlets.v4l2Format)
        } catch {
            outlets.discard()
            throw error
        }
        return clock.summary(frames: loop.frames, seconds: camera.time(ofFrame: loop.frames), ending: ending,
                             v4l2: outlets.v4l2Format)
    }
}

/// Wall-clock and CPU time since the feed started, for the summary.
struct FeedClock {
    private let start = ProcessUsage.now()

    func summary(frames: Int, seconds: Double, ending: CameraFeedSummary.Ending, v4l2: NegotiatedOutput?) -> CameraFeedSummary {
        let now = ProcessUsage.now()
        return CameraFeedSummary(frames: frames, seconds: seconds, ending: ending,
                                 wallSeconds: Double(now.wallNanoseconds - start.wallNanoseconds) / 1e9,
                                 cpuSeconds: now.cpuSeconds - start.cpuSeconds, v4l2: v4l2)
    }
}
