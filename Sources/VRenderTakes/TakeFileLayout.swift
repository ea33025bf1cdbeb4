import Foundation
import VRenderCore

/// What a take's file says about itself, in container tags written with its header, so that
/// `takes recover` can rebuild a take's entry when `takes.json` is lost: when it started
/// (`creation_time`), and in `comment` ("vrender take; fps=30; encoder=libx264; device=NAME",
/// the device last as it may hold anything) the nominal rate (a take with dropped frames
/// averages less), the encoder and the camera.
package enum TakeFileTags {
    package static let commentPrefix = "vrender take; "

    package static func tags(device: String, frameRate: Rational, encoder: String, created: Date) -> [String: String] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let comment = commentPrefix + "fps=\(frameRate); encoder=\(encoder); device=\(device)"
        return ["creation_time": formatter.string(from: created), "comment": comment]
    }

    /// A field of a take's `comment` tag ("fps", "encoder", "device"); nil when the tag is not
    /// vrender's or lacks the field.
    package static func field(_ name: String, inComment comment: String?) -> String? {
        guard let comment, comment.hasPrefix(commentPrefix) else { return nil }
        var rest = Substring(comment.dropFirst(commentPrefix.count))
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let key = rest[..<equals]
            let value = rest[rest.index(after: equals)...]
            // The device is last and may contain "; ": it runs to the end.
            if key == "device" { return name == "device" ? String(value) : nil }
            let end = value.range(of: "; ")
            if key == name { return String(value[..<(end?.lowerBound ?? value.endIndex)]) }
            guard let end else { return nil }
            rest = value[end.upperBound...]
        }
        return nil
    }
}

/// How a take's file is laid out: fragmented QuickTime, an empty `moov` first and fragments
/// after, so a file cut short still plays up to its last whole fragment. One home for what
/// `SegmentWriter` writes and `takes recover` writes in place of an unfinished take.
package enum TakeFileLayout {
    /// While recording: a fragment wherever the writer ends one (`Muxer.flushFragment`), every
    /// quarter second, rather than at keyframes only.
    package static let recordingHeaderOptions = ["movflags": "frag_custom+empty_moov+default_base_moof"]
    /// A finished copy (recovery): a fragment per keyframe, which needs no flushing by hand.
    package static let copyHeaderOptions = ["movflags": "frag_keyframe+empty_moov+default_base_moof"]
    /// Thumbnail width in pixels (the height follows the picture's shape).
    package static let thumbnailWidth = 320
    /// When a take's thumbnail is taken (the seed's choice).
    package static let thumbnailTime = 0.05
}
