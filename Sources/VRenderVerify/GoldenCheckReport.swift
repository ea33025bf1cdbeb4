import Foundation
import VRenderCore

/// One way a video differs from its golden: a row of the table a failed check prints.
public struct GoldenDifference: Sendable, Equatable {
    /// The frame, or nil for the video as a whole (frame count, time base).
    public var frame: Int?
    /// What differs: "frames", "time base", "size", "pix_fmt", "pts", "duration", "md5",
    /// "psnr", "ssim", "picture", "reference size".
    public var what: String
    public var expected: String
    public var got: String

    public init(frame: Int?, what: String, expected: String, got: String) {
        self.frame = frame
        self.what = what
        self.expected = expected
        self.got = got
    }
}

/// How close a reference frame came to its PNG.
public struct ReferenceScore: Sendable, Equatable {
    public var frame: Int
    /// dB; `.infinity` when identical.
    public var psnr: Double
    public var ssim: Double
}

/// The outcome of `vrender golden check`.
public struct GoldenCheckReport: Sendable {
    public var golden: String
    public var video: String
    /// "exact" or "lossy".
    public var mode: String
    /// The tolerance checked (the golden's own or a tighter one); nil for an exact golden.
    public var tolerance: GoldenTolerance?
    /// Frames the golden lists.
    public var expectedFrames: Int
    /// Frames decoded from the video.
    public var frames: Int
    /// Empty when the video matches.
    public var differences: [GoldenDifference]
    /// Reference frames whose pictures were compared, with their scores.
    public var scores: [ReferenceScore]
    /// Heat maps written for the frames that failed (`DIR/diff-NNNNNN.png`).
    public var diffImages: [String]
    /// What differs but is no difference (only the container's time base), for the summary.
    public var note: String? = nil

    public var passed: Bool { differences.isEmpty }

    /// The lowest-PSNR reference frame compared, if any.
    public var worst: ReferenceScore? { scores.min { $0.psnr < $1.psnr } }

    /// "exact", or "lossy, psnr ≥ 35 dB".
    public var modeDescription: String {
        guard let tolerance else { return mode }
        switch tolerance {
        case .psnr(let decibels): return "\(mode), psnr >= \(ValueSyntax.text(decibels)) dB"
        case .ssim(let index): return "\(mode), ssim >= \(ValueSyntax.text(index))"
        }
    }

    /// The line a passing check prints.
    public var summary: String {
        var line = "golden: \(frames) frames match \(golden) (\(modeDescription))"
        if tolerance != nil, let worst {
            line += "; worst reference frame \(worst.frame): \(Self.decibels(worst.psnr)), ssim \(Self.index(worst.ssim))"
        }
        if let note { line += "; " + note }
        return line
    }

    /// Why a failing check failed, after the video's name: "does not match DIR (exact): ...".
    public var failure: String {
        let framesDiffering = Set(differences.compactMap(\.frame)).count
        var line = "does not match \(golden) (\(modeDescription)): \(differences.count) difference(s)"
        if framesDiffering > 0 { line += " in \(framesDiffering) frame(s)" }
        if !diffImages.isEmpty { line += "; heat maps: \(diffImages.joined(separator: ", "))" }
        return line
    }

    /// "38.52 dB", "inf dB".
    public static func decibels(_ value: Double) -> String {
        value.isInfinite ? "inf dB" : String(format: "%.2f dB", value)
    }

    /// "0.9871".
    public static func index(_ value: Double) -> String { String(format: "%.4f", value) }
}
