import Foundation
import VRenderMedia
import VRenderRecording
import VRenderTakes

/// `vrender takes list`'s table: a header, one row per take, and the total.
enum TakesTable {
    static func text(_ takes: [TakeEntry]) -> String {
        let fileWidth = takes.map(\.file.count).max() ?? 4
        let header = column("#", 3) + column("file", fileWidth + 2) + "duration  frames  dropped  " + column("size", 11)
            + column("fps", 6) + column("codec", 9) + "created"
        let rows = takes.enumerated().map { index, take in
            column("\(index + 1)", 3) + column(take.file, fileWidth + 2)
                + String(format: "%7.2fs  %6d  %7d  ", take.duration, take.frames, take.dropped)
                + column("\(take.width)x\(take.height)", 11) + column(take.fps, 6) + column(take.codec, 9) + take.created
                + (take.trim.map { "  trim \($0) (\(String(format: "%.2f", $0.length(ofTakeLasting: take.duration))) s used)" } ?? "")
        }
        var total = String(format: "%d take(s), %.2f s", takes.count, takes.reduce(0) { $0 + $1.duration })
        if takes.contains(where: { $0.trim != nil }) {
            let used = takes.reduce(0) { sum, take in sum + (take.trim?.length(ofTakeLasting: take.duration) ?? take.duration) }
            total += String(format: ", %.2f s after trims", used)
        }
        return ([header] + rows + [total]).joined(separator: "\n")
    }

    /// `text` left-aligned in `width` columns (never cut).
    private static func column(_ text: String, _ width: Int) -> String {
        text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
    }
}
