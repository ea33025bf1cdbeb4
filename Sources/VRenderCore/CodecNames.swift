/// The other names people type for the video codecs vrender encodes (encoder names from ffmpeg
/// command lines, the H.265/H.264 standards' names, the MP4 sample entries), each with the
/// name vrender's `--codec` options use. One table for `capture`, `concat` and the studio.
package enum CodecNames {
    package static let aliases: [String: String] = [
        "h265": "hevc", "h.265": "hevc", "x265": "hevc", "libx265": "hevc", "hvc1": "hevc", "hev1": "hevc",
        "h.264": "h264", "avc": "h264", "avc1": "h264", "x264": "h264", "libx264": "h264",
        "vp09": "vp9", "libvpx-vp9": "vp9", "vpx": "vp9",
        "av01": "av1", "libaom-av1": "av1", "libsvtav1": "av1", "svt-av1": "av1", "aom": "av1",
        "lossless": "ffv1",
    ]

    /// `typed` as one of `known` (a command's codec names), or a refusal that lists them, says
    /// when the name is another codec's (`libvpx-vp9` to capture: "(vp9 is not one of them)") and
    /// suggests a near miss ("'h266' is not one of auto, hevc, ...; did you mean 'h264'?").
    package static func resolve(_ typed: String, among known: [String]) throws(ValueSyntaxError) -> String {
        if let name = Suggestion.resolve(typed, among: known, aliases: aliases) { return name }
        let meant = aliases[typed.lowercased()].map { " (\($0) is not one of them)" } ?? ""
        let expected = Suggestion.appended(to: "one of \(known.joined(separator: ", "))\(meant)", typed: typed,
                                           among: known + aliases.keys.filter { known.contains(aliases[$0] ?? "") }.sorted())
        throw ValueSyntaxError(value: typed, expected: expected)
    }
}
