import Foundation
import VRenderRecording
import VRenderTakes

/// `vrender takes recover`'s lines: one per take file, what became of `takes.json`, a summary.
enum RecoveryText {
    static func text(_ report: TakesRecoveryReport) -> String {
        let fileWidth = report.takes.map(\.file.count).max() ?? 0
        let lines = report.takes.map { take in
            var line = (take.outcome.rawValue + ":").padding(toLength: 12, withPad: " ", startingAt: 0) + take.file
            if let frames = take.frames, let duration = take.duration {
                // Aligned, so the numbers of listed takes line up.
                line += String(repeating: " ", count: fileWidth - take.file.count)
                    + String(format: "  %.2f s, %d frames", duration, frames)
            }
            if let detail = take.detail { line += " (\(detail))" }
            return line
        }
        let leftovers = report.removedTemporaries.isEmpty ? nil
            : "removed \(report.removedTemporaries.count) temporary file(s) of killed runs: " + report.removedTemporaries.joined(separator: ", ")
        return (lines + [leftovers, manifestLine(report), summary(report)].compactMap { $0 }).joined(separator: "\n")
    }

    private static func manifestLine(_ report: TakesRecoveryReport) -> String? {
        guard report.manifestWritten else { return nil }
        var line = "\(TakesManifest.fileName): written"
        if let copy = report.damagedManifestCopy { line += " (the damaged one is kept as \(copy))" }
        return line
    }

    private static func summary(_ report: TakesRecoveryReport) -> String? {
        if report.nothingToRecover { return "recover: nothing to recover (\(report.takes.count) take(s) kept)" }
        let counts = TakesRecoveryReport.Outcome.allCases.compactMap { outcome -> String? in
            let count = report.count(outcome)
            return count > 0 ? "\(count) \(outcome.rawValue)" : nil
        }
        return "recover: " + (counts.isEmpty ? "no takes" : counts.joined(separator: ", "))
    }
}
