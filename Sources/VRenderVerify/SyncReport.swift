import Foundation

/// What `vrender sync` found in one file (its `--json` shape: keys as named here; times in
/// seconds on the file's clock, offsets in milliseconds, click minus flash: positive when the
/// sound comes late).
package struct SyncReport: Codable, Sendable, Equatable {
    package enum Verdict: String, Codable, Sendable {
        /// Every judged flash has its click within the limit.
        case ok
        /// An offset over the limit, or a flash with sound but no click.
        case fail
        /// Nothing to judge: no flashes, no sound, or every flash skipped.
        case unjudged
    }

    /// A flash paired with its click.
    package struct Pair: Codable, Sendable, Equatable {
        package var flash: Double
        package var click: Double
        package var offsetMs: Double
    }

    /// A flash left unjudged, and why: `transition` (the patch blended by a dissolve or fade),
    /// `silence` (no sound at the flash: a take's edge, whose sound starts after its first
    /// picture, or a gap).
    package struct Skipped: Codable, Sendable, Equatable {
        package var flash: Double
        package var reason: String
    }

    package var file: String
    package var flashes: Int
    package var clicks: Int
    package var pairs: [Pair]
    package var skipped: [Skipped]
    /// Flashes with sound around them but no click within half a second: failures.
    package var flashesWithoutClick: [Double]
    package var medianAbsOffsetMs: Double?
    package var maxAbsOffsetMs: Double?
    package var limitMs: Double
    package var verdict: Verdict
    /// Why a file is unjudged or failed, in words.
    package var message: String?

    package var passed: Bool { verdict == .ok }

    /// The human lines: counts, offsets, verdict.
    package var summary: String {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.3f ms", $0) } ?? "-" }
        let transition = skipped.count { $0.reason == "transition" }
        var lines = ["\(file): \(flashes) flashes, \(clicks) clicks, \(pairs.count) pairs, \(skipped.count) skipped "
                     + "(\(transition) transition, \(skipped.count - transition) silence), "
                     + "\(flashesWithoutClick.count) flashes without a click"]
        lines.append("  median |offset| \(ms(medianAbsOffsetMs)), max |offset| \(ms(maxAbsOffsetMs)) (limit "
                     + String(format: "%g", limitMs) + " ms): " + (verdict == .ok ? "ok" : verdict == .fail ? "FAIL" : "UNJUDGED"))
        if let message { lines.append("  " + message) }
        return lines.joined(separator: "\n")
    }
}

/// Every file `vrender sync` judged: the `--json` document.
package struct SyncSummary: Codable, Sendable, Equatable {
    package var limitMs: Double
    package var ok: Bool
    package var files: [SyncReport]
}
