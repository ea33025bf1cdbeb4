import Foundation
import VRenderVerify

/// The tables `vrender golden check` and `vrender golden diff` print.
enum GoldenTable {
    /// Rows shown before the rest of a long table is summed up in one line.
    static let maximumRows = 30
    /// Hash rows shown: a changed filter changes every frame's hash, and the rows that say
    /// more (pictures, timing, counts) must not drown in them.
    static let maximumHashRows = 10

    /// A failed check: one row per difference (frame, what, expected, got), in frame order,
    /// with at most `maximumHashRows` hash rows and `maximumRows` rows in all.
    static func differences(_ report: GoldenCheckReport) -> String {
        let hashRows = report.differences.filter { $0.what == "md5" }
        let hidden = Set(hashRows.dropFirst(maximumHashRows).map(\.frame))
        let kept = report.differences.filter { $0.what != "md5" || !hidden.contains($0.frame) }
        let rows = kept.prefix(maximumRows).map { difference in
            [difference.frame.map(String.init) ?? "-", difference.what, difference.expected, difference.got]
        }
        var lines = table(header: ["frame", "what", "expected", "got"], rows: Array(rows))
        if !hidden.isEmpty {
            let frames = hidden.compactMap { $0 }
            lines.append("... md5 also differs in \(hidden.count) more frame(s), \(frames.min() ?? 0)-\(frames.max() ?? 0)")
        }
        if kept.count > maximumRows { lines.append("... and \(kept.count - maximumRows) more difference(s)") }
        return lines.joined(separator: "\n")
    }

    /// `golden diff`: every frame's PSNR and SSIM on short videos; on long ones every Nth
    /// frame plus the worst, then the worst frame, the means and any difference in length.
    static func scores(_ report: VideoDiffReport) -> String {
        let step = max(1, (report.scores.count + maximumRows - 1) / maximumRows)
        let worst = report.worst
        let shown = report.scores.filter { $0.frame % step == 0 || $0.frame == worst?.frame }
        let rows = shown.map { score in
            [String(score.frame), decibels(score.psnr), GoldenCheckReport.index(score.ssim), score.frame == worst?.frame ? "worst" : ""]
        }
        var lines = table(header: ["frame", "psnr", "ssim", ""], rows: rows)
        if step > 1 { lines.append("(every \(step)th frame of \(report.scores.count), and the worst; --json lists all)") }
        if let worst {
            lines.append("worst: frame \(worst.frame): psnr \(decibels(worst.psnr)), ssim \(GoldenCheckReport.index(worst.ssim))")
        }
        let mean = report.meanPSNR.map { GoldenCheckReport.decibels($0) } ?? "inf dB"
        lines.append("\(report.scores.count) frames of \(report.width)x\(report.height) compared; "
                     + "mean psnr \(mean) (over frames that differ), mean ssim \(GoldenCheckReport.index(report.meanSSIM))")
        if report.firstFrames != report.secondFrames {
            lines.append("lengths differ: \(report.first) has \(report.firstFrames) frames, \(report.second) \(report.secondFrames)")
        }
        return lines.joined(separator: "\n")
    }

    private static func decibels(_ value: Double) -> String { GoldenCheckReport.decibels(value) }

    /// Left-aligned columns as wide as their widest cell, two spaces apart; on a narrow
    /// terminal long values (hashes, file names) lose their middle.
    private static func table(header: [String], rows: [[String]]) -> [String] {
        let columns = header.map { TextTable.Column(title: $0, fit: .shorten(minimum: 16)) }
        return TextTable(columns: columns, rows: rows).lines(width: TextTable.standardOutputWidth)
    }
}
