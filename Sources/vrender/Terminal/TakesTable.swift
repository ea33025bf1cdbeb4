import Foundation
import VRenderRecording
import VRenderTakes

/// `vrender takes list`'s table: a header, one row per take, and the total. On a narrow
/// terminal the creation time, frame rate, codec and size go first, then file names lose
/// their middle and trims wrap (`TextTable`); a file or a pipe gets every column whole.
enum TakesTable {
    static func text(_ takes: [TakeEntry], width: Int?) -> String {
        var columns: [TextTable.Column] = [
            .init(title: "#"), .init(title: "file", fit: .shorten(minimum: 18)),
            .init(title: "length", alignRight: true), .init(title: "frames", alignRight: true),
            .init(title: "drops", alignRight: true), .init(title: "size", fit: .drop(rank: 4)),
            .init(title: "fps", fit: .drop(rank: 2)), .init(title: "codec", fit: .drop(rank: 3)),
            .init(title: "created", fit: .drop(rank: 1)),
        ]
        let trimmed = takes.contains { $0.trim != nil }
        if trimmed { columns.append(.init(title: "trim", fit: .shorten(minimum: 13, rank: 1))) }
        let rows = takes.enumerated().map { index, take in
            [String(index + 1), take.file, String(format: "%.2fs", take.duration), String(take.frames), String(take.dropped),
             "\(take.width)x\(take.height)", take.fps, take.codec, take.created]
                + (trimmed ? [take.trim.map { "\($0) (\(String(format: "%.2f", take.usedDuration)) s used)" } ?? ""] : [])
        }
        var total = String(format: "%d take(s), %.2f s", takes.count, takes.reduce(0) { $0 + $1.duration })
        if trimmed {
            let used = takes.reduce(0) { $0 + $1.usedDuration }
            total += String(format: ", %.2f s after trims", used)
        }
        return (TextTable(columns: columns, rows: rows).lines(width: width) + [total]).joined(separator: "\n")
    }
}
