import Foundation
import VRenderCore

/// How close a lossy golden's reference frames must stay: every reference frame's PSNR (dB) or
/// SSIM against its PNG at least this. Exact goldens have none: they compare hashes.
public enum GoldenTolerance: Sendable, Equatable, CustomStringConvertible {
    case psnr(Double)
    case ssim(Double)

    /// The option that sets it: `--psnr` or `--ssim`.
    public var optionName: String {
        switch self {
        case .psnr: "--psnr"
        case .ssim: "--ssim"
        }
    }

    public var threshold: Double {
        switch self {
        case .psnr(let value), .ssim(let value): value
        }
    }

    /// "psnr 35 dB", "ssim 0.98": as frames.txt stores it and messages show it.
    public var description: String {
        switch self {
        case .psnr(let decibels): "psnr \(ValueSyntax.text(decibels)) dB"
        case .ssim(let index): "ssim \(ValueSyntax.text(index))"
        }
    }

    /// Parses `description`'s form back ("psnr 35 dB", "ssim 0.98"); nil for anything else.
    public init?(_ text: String) {
        let words = text.split(separator: " ")
        guard words.count >= 2, let value = Double(words[1]), value.isFinite, value > 0 else { return nil }
        switch (words[0], words.count) {
        case ("psnr", 3) where words[2] == "dB": self = .psnr(value)
        case ("ssim", 2) where value <= 1: self = .ssim(value)
        default: return nil
        }
    }

    /// True when a measured PSNR or SSIM is good enough.
    public func accepts(psnr: Double, ssim: Double) -> Bool {
        switch self {
        case .psnr(let decibels): psnr >= decibels
        case .ssim(let index): ssim >= index
        }
    }

    /// The tolerance a check runs with: the golden's own, or `requested` when it is at least as
    /// strict (a check may tighten what was recorded, never loosen it). Throws an option error
    /// naming the stored value, and refuses any tolerance on an exact golden, whose frames must
    /// match bit for bit.
    public static func effective(stored: GoldenTolerance?, requested: GoldenTolerance?,
                                 golden: String) throws -> GoldenTolerance? {
        guard let requested else { return stored }
        guard let stored else {
            throw VRenderError.option(requested.optionName, "\(golden) is an exact golden: its frames must match bit for bit, "
                                      + "so it takes no tolerance")
        }
        switch (stored, requested) {
        case (.psnr(let recorded), .psnr(let asked)) where asked >= recorded,
             (.ssim(let recorded), .ssim(let asked)) where asked >= recorded:
            return requested
        case (.psnr, .psnr), (.ssim, .ssim):
            throw VRenderError.option(requested.optionName, "\(requested) is looser than the \(stored) \(golden) was recorded "
                                      + "with: a check may only tighten it")
        default:
            throw VRenderError.option(requested.optionName, "\(golden) was recorded with a \(stored) tolerance: "
                                      + "tighten it with \(stored.optionName), not \(requested.optionName)")
        }
    }
}
