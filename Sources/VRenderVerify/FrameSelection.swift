import VRenderCore

/// Which frames of a video get a reference PNG: a list (`--frames 0,15,middle,last`) or every
/// Nth frame (`--every 30`). Resolved against the frame count once the video is decoded.
public enum FrameSelection: Sendable, Equatable {
    /// One item of `--frames`.
    public enum Item: Sendable, Equatable {
        case index(Int)
        /// Frame `count / 2`.
        case middle
        /// Frame `count - 1`.
        case last
    }

    case list([Item])
    /// Frames 0, N, 2N, ...
    case every(Int)

    /// What `record` takes when nothing is asked: the first, the middle and the last frame.
    public static let standard = FrameSelection.list([.index(0), .middle, .last])

    /// Parses `--frames`: comma-separated frame numbers (from 0), `middle` and `last`. Throws an
    /// option error naming `--frames` and the item at fault.
    public static func parse(frames text: String) throws -> FrameSelection {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.filter { !$0.isWhitespace } }
        guard !text.filter({ !$0.isWhitespace }).isEmpty else {
            throw VRenderError.option("--frames", "empty list (give frame numbers from 0, 'middle' or 'last', e.g. 0,15,last)")
        }
        return .list(try items.map { item in
            switch item {
            case "middle": return .middle
            case "last": return .last
            default:
                guard let index = Int(item), index >= 0 else {
                    throw VRenderError.option("--frames", "'\(item)' is not a frame number from 0, 'middle' or 'last' (e.g. 0,15,last)")
                }
                return .index(index)
            }
        })
    }

    /// `--every N`: N must be at least 1.
    public static func parse(every step: Int) throws -> FrameSelection {
        guard step >= 1 else { throw VRenderError.option("--every", "must be at least 1, got \(step)") }
        return .every(step)
    }

    /// The chosen frame indices of a video of `count` frames, ascending, without repeats.
    /// A number beyond the last frame is an error naming `--frames` and `video`.
    public func resolve(frameCount count: Int, video: String) throws -> [Int] {
        guard count > 0 else { throw VRenderError.input(video, "no picture could be decoded") }
        switch self {
        case .every(let step):
            return Array(stride(from: 0, to: count, by: step))
        case .list(let items):
            let indices = try items.map { item -> Int in
                switch item {
                case .middle: return count / 2
                case .last: return count - 1
                case .index(let index):
                    guard index < count else {
                        throw VRenderError.option("--frames", "frame \(index) is beyond the end of \(video), whose last frame is \(count - 1)")
                    }
                    return index
                }
            }
            return Array(Set(indices)).sorted()
        }
    }
}
