import Foundation
import VRenderCore
import VRenderFilters
import VRenderMedia

/// What an export will do, decided from the probed takes before anything is written.
public struct ExportPlan: Sendable {
    public enum Mode: Sendable, Equatable {
        /// Packets are copied unchanged, only their timestamps shift.
        case streamCopy
        /// Every take is decoded, normalized, filtered and encoded again.
        case transcode
    }

    /// How rotated takes are handled.
    public enum RotationHandling: Sendable, Equatable {
        /// Every take has the same rotation: it stays a display matrix on the output.
        case keepMetadata(Rotation, matrix: [Int32]?)
        /// Takes disagree: each is turned upright in pixels by its own rotation.
        case uprightPixels
    }

    public var takes: [MediaInfo]
    public var mode: Mode
    /// One sentence saying why this mode, for the plan line users see.
    public var reason: String
    /// Stored (encoded) canvas size; with `.keepMetadata` rotation a player turns it upright.
    public var canvasWidth: Int
    public var canvasHeight: Int
    public var frameRate: Rational
    public var rotation: RotationHandling
    public var timeline: Timeline
    /// True when any take has an audio stream: the output then has audio for every take.
    public var hasAudio: Bool

    /// The rotation to apply in pixels to take `index`.
    public func pixelRotation(ofTake index: Int) -> Rotation {
        rotation == .uprightPixels ? takes[index].video.rotation : .none
    }
}

/// Chooses stream copy or transcode, the canvas, the frame rate and rotation handling.
public enum ExportPlanner {
    public static func plan(takes: [MediaInfo], options: ExportOptions) throws -> ExportPlan {
        guard let first = takes.first else {
            throw VRenderError.option("INPUT", "no input takes given")
        }
        let container = (options.output as NSString).pathExtension.lowercased()
        if case .encode(.ffv1) = options.codec, ["mp4", "m4v"].contains(container) {
            throw VRenderError.option("--codec ffv1", "an .\(container) file cannot hold FFV1: write .mkv or .mov")
        }
        let rotations = Set(takes.map(\.video.rotation))
        let rotation: ExportPlan.RotationHandling = rotations.count == 1
            ? .keepMetadata(first.video.rotation, matrix: first.video.displayMatrix)
            : .uprightPixels
        let hasAudio = takes.contains { $0.audio != nil }

        let mismatch = copyMismatch(takes)
        let wantsChange = !options.filter.isIdentity || options.size != nil || options.frameRate != nil
            || options.crf != nil || options.preset != nil
        switch options.codec {
        case .copy:
            if let mismatch {
                throw VRenderError.option("--codec copy", "cannot stream-copy: \(mismatch)")
            }
            if wantsChange {
                throw VRenderError.option("--codec copy", "stream copy cannot apply --filter, --size, --fps, --crf or --preset")
            }
            return copyPlan(takes, rotation: rotation, hasAudio: hasAudio,
                            reason: "stream copy: every take has the same \(describe(first)) (--codec copy)")
        case .auto where mismatch == nil && !wantsChange:
            return copyPlan(takes, rotation: rotation, hasAudio: hasAudio,
                            reason: "stream copy: every take has the same \(describe(first)) and no filter was asked")
        default:
            break
        }

        let reason: String
        if !options.filter.isIdentity {
            reason = "transcode: filter \(options.filter.names.joined(separator: ",")) changes the pictures"
        } else if case .encode(let codec) = options.codec, mismatch == nil {
            reason = "transcode: --codec \(codec.rawValue) asks for re-encoding"
        } else if let mismatch {
            reason = "transcode: \(mismatch)"
        } else {
            reason = "transcode: --size, --fps, --crf or --preset asks for re-encoding"
        }

        // Canvas: the first take's upright size (or --size, upright), stored in the orientation
        // the output keeps as metadata.
        let upright = options.size ?? evenSize(first.video.uprightSize)
        var canvas = upright
        if case .keepMetadata(let kept, _) = rotation, kept.swapsAxes {
            canvas = (upright.height, upright.width)
        }
        let frameRate = options.frameRate ?? first.video.frameRate
        return ExportPlan(
            takes: takes, mode: .transcode, reason: reason,
            canvasWidth: canvas.width, canvasHeight: canvas.height, frameRate: frameRate,
            rotation: rotation,
            timeline: Timeline(durations: takes.map(\.duration), frameRate: frameRate),
            hasAudio: hasAudio)
    }

    private static func copyPlan(_ takes: [MediaInfo], rotation: ExportPlan.RotationHandling,
                                 hasAudio: Bool, reason: String) -> ExportPlan {
        let first = takes[0]
        return ExportPlan(
            takes: takes, mode: .streamCopy, reason: reason,
            canvasWidth: first.video.width, canvasHeight: first.video.height,
            frameRate: first.video.frameRate, rotation: rotation,
            timeline: Timeline(durations: takes.map(\.duration), frameRate: first.video.frameRate),
            hasAudio: hasAudio)
    }

    private static func evenSize(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        (Swift.max(2, size.width & ~1), Swift.max(2, size.height & ~1))
    }

    static func describe(_ take: MediaInfo) -> String {
        var text = "\(take.video.codecName) \(take.video.width)x\(take.video.height) \(take.video.pixelFormat)"
        if let audio = take.audio { text += " + \(audio.codecName) \(audio.sampleRate) Hz" }
        return text
    }

    /// Why these takes cannot be joined packet for packet, or nil when they can: codec, codec
    /// setup (extradata), size, pixel format, time base, rotation and audio format must match.
    public static func copyMismatch(_ takes: [MediaInfo]) -> String? {
        guard let first = takes.first else { return nil }
        for take in takes.dropFirst() {
            let a = first.video, b = take.video
            let name = take.path
            if a.codecName != b.codecName { return "\(name) is \(b.codecName), the first take is \(a.codecName)" }
            if a.width != b.width || a.height != b.height {
                return "\(name) is \(b.width)x\(b.height), the first take is \(a.width)x\(a.height)"
            }
            if a.pixelFormat != b.pixelFormat { return "\(name) is \(b.pixelFormat), the first take is \(a.pixelFormat)" }
            if a.timeBase != b.timeBase { return "\(name) has time base \(b.timeBase), the first take \(a.timeBase)" }
            if a.frameRate != b.frameRate { return "\(name) runs at \(b.frameRate) fps, the first take at \(a.frameRate)" }
            if a.rotation != b.rotation {
                return "\(name) is rotated \(b.rotation.rawValue)°, the first take \(a.rotation.rawValue)°"
            }
            if a.extradata != b.extradata { return "\(name) has different \(b.codecName) codec settings (extradata)" }
            switch (first.audio, take.audio) {
            case (nil, nil):
                continue
            case (.some, nil), (nil, .some):
                return "\(name) \(take.audio == nil ? "has no audio" : "has audio"), the first take \(first.audio == nil ? "has none" : "has")"
            case let (.some(x), .some(y)):
                if x.codecName != y.codecName || x.sampleRate != y.sampleRate || x.channels != y.channels
                    || x.extradata != y.extradata || x.timeBase != y.timeBase {
                    return "\(name) has audio \(y.codecName) \(y.sampleRate) Hz \(y.channels) ch, the first take \(x.codecName) \(x.sampleRate) Hz \(x.channels) ch"
                }
            }
        }
        return nil
    }
}
