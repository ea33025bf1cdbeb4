#if canImport(Glibc)
import Glibc
#endif
import VRenderCore

/// A V4L2 capture node, as `vrender devices` lists it.
public struct V4L2DeviceInfo: Sendable, Codable, Equatable {
    public var path: String
    /// The card's name from VIDIOC_QUERYCAP ("HD Pro Webcam C920", "vivid").
    public var card: String
    public var driver: String
    public var busInfo: String
    /// The selected input (VIDIOC_G_INPUT / VIDIOC_ENUMINPUT: "Webcam 0", "HDMI 0"), if named.
    public var input: String?
    /// The formats vrender can capture, with their sizes and frame rates.
    public var formats: [CaptureFormat]
    /// The device's control names (VIDIOC_QUERYCTRL), e.g. "Zoom, Absolute".
    public var controls: [String]
    /// Why the node could not be inspected (permission, busy), when it could not; the other
    /// fields are then empty.
    public var problem: String?

    public init(path: String, card: String, driver: String, busInfo: String, input: String? = nil,
                formats: [CaptureFormat], controls: [String], problem: String? = nil) {
        self.path = path
        self.card = card
        self.driver = driver
        self.busInfo = busInfo
        self.input = input
        self.formats = formats
        self.controls = controls
        self.problem = problem
    }
}

/// Finds the V4L2 cameras on this machine.
public enum V4L2Discovery {
    /// Every `/dev/video*` node in `directory` that is a video capture device (metadata-only and
    /// output nodes, which many cameras and vivid also create, are left out), in numeric order.
    /// A node that cannot be opened (permission, busy) is listed with its `problem`.
    public static func devices(in directory: String = "/dev") -> [V4L2DeviceInfo] {
        videoNodes(in: directory).compactMap { path in
            do {
                return try inspect(path: path)
            } catch let error as V4L2Error {
                if error.call != "open" { return nil }  // opened, but not a V4L2 capture node
                return V4L2DeviceInfo(path: path, card: "", driver: "", busInfo: "", formats: [], controls: [],
                                      problem: error.userError.reason)
            } catch {
                return nil
            }
        }
    }

    /// Describes one node; nil when it is not a (single-planar) video capture node.
    /// VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT & co., VIDIOC_QUERYCTRL, VIDIOC_G_INPUT.
    ///
    /// - Throws: `V4L2Error` when the node cannot be opened or answers VIDIOC_QUERYCAP with an
    ///   error (not a V4L2 device). A capture node that fails later is returned with `problem`.
    public static func inspect(path: String) throws -> V4L2DeviceInfo? {
        let device = try V4L2Device(path: path)
        let capabilities = try device.queryCapabilities()
        guard capabilities.canCapture else { return nil }
        var info = V4L2DeviceInfo(path: path, card: capabilities.card, driver: capabilities.driver,
                                  busInfo: capabilities.busInfo, formats: [], controls: [])
        do {
            info.input = try device.currentInputName()
            info.formats = try device.enumerateFormats().formats
            info.controls = try device.allControls().map(\.name)
        } catch {
            info.problem = error.userError.reason
        }
        return info
    }

    /// `videoN` entries of `directory`, sorted by N (video10 after video9).
    static func videoNodes(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var numbers: [Int] = []
        while let entry = readdir(stream) {
            let name = FileNames.name(of: entry)
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)), number >= 0 else { continue }
            numbers.append(number)
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return numbers.sorted().map { base + "video\($0)" }
    }
}
