import VRenderCapture
import VRenderCore
import VRenderMedia

/// What `vrender camera` feeds and where: the synthetic camera, its script and length, and its
/// outlets (a stream through libavformat, a V4L2 output device, or both at once).
public struct CameraFeedOptions: Sendable {
    /// The stream's container, under a name the command line reaches without importing
    /// VRenderMedia (it calls this library, not the media layer).
    public typealias Container = UncompressedContainer

    /// `synthetic` or `synthetic:seed=N`.
    public var device: String
    public var request: CaptureRequest
    public var script: ActionScript?
    /// Seconds of pictures to feed; nil: until the script's `stop`, the reader leaves, `q` or Ctrl-C.
    public var duration: Double?
    /// `-` (standard output), a FIFO, a character device or a file; nil: no stream.
    public var output: String?
    public var container: UncompressedContainer
    /// A V4L2 output node (`--v4l2-out`); nil: none.
    public var v4l2Output: String?
    /// Layouts to offer the V4L2 device, in order (`--v4l2-format`).
    public var v4l2Formats: [CapturePixelFormat]
    /// How frames reach the V4L2 device (`--v4l2-io`).
    public var v4l2IO: OutputIO

    public init(device: String, request: CaptureRequest, script: ActionScript? = nil, duration: Double? = nil,
                output: String?, container: UncompressedContainer = .y4m, v4l2Output: String? = nil,
                v4l2Formats: [CapturePixelFormat] = CameraFeedOptions.v4l2Preferences, v4l2IO: OutputIO = .auto) {
        self.device = device
        self.request = request
        self.script = script
        self.duration = duration
        self.output = output
        self.container = container
        self.v4l2Output = v4l2Output
        self.v4l2Formats = v4l2Formats
        self.v4l2IO = v4l2IO
    }

    /// yuv420p first (the camera's own bytes), then what most readers take.
    public static let v4l2Preferences: [CapturePixelFormat] = [.yuv420p, .yuyv, .nv12]

    /// The request as the camera gets it: a V4L2 device is a live camera, so it is fed in real
    /// time whatever `--realtime` says (a loopback's readers take the frame current at their
    /// own clock: fed faster, they would skip most).
    var cameraRequest: CaptureRequest {
        var request = request
        if v4l2Output != nil { request.realtime = true }
        return request
    }

    /// Refuses what cannot run, naming the option.
    func validate() throws {
        guard SyntheticCamera.isSynthetic(device) else {
            throw VRenderError.option("--device", "vrender camera feeds the synthetic camera (synthetic[:seed=N]), not "
                                      + "\(device): a V4L2 camera is one already")
        }
        guard output != nil || v4l2Output != nil else {
            throw VRenderError.option("-o", "give -o OUT (a file, a FIFO or - for standard output), --v4l2-out /dev/videoN, or both")
        }
        if let duration, !(duration > 0) {
            throw VRenderError.option("--duration", "must be more than 0 s")
        }
    }
}
