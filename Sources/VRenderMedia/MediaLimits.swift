import Foundation
import VRenderCore

/// What vrender accepts from a file's headers. A header is only a claim: a damaged or hostile
/// one can state a picture of 65535×65535, a frame every 11 days or a take of a million
/// seconds, and believing it would exhaust memory, or encode for days. Probing refuses such a
/// take up front, with an error naming the file; decoders refuse pictures over the budget.
package enum MediaLimits {
    /// Pixels per side: 16384 is the most that FFmpeg's H.264, HEVC and VP9 encoders and
    /// hardware decoders take.
    package static let maxSide = 16384

    /// Pixels per picture: 8192×4352, the largest picture of H.264 and HEVC level 6.2 (8K UHD
    /// fits). A 4:2:0 picture this size is 53 MB (10-bit: 107 MB), and an export holds a few
    /// dozen at once (decoder references, queues, pools): the most one machine should be asked for.
    package static let maxPixels = 8192 * 4352

    /// Frame rates a take may have: from one frame an hour to the 1000 frames a second `--fps`
    /// allows. Outside that, each second of the take would become thousands of output frames
    /// (or none at all) when it is joined with an ordinary one.
    package static let frameRates = 1.0 / 3600...1000.0

    /// The longest take: a day. No camera take is longer; a longer length is a damaged header,
    /// and would make an export encode (or pad audio) for days.
    package static let maxDuration = 24.0 * 3600

    /// Why a picture of this size is refused, nil when it is not.
    package static func sizeRefusal(width: Int, height: Int) -> String? {
        if width > maxSide || height > maxSide {
            return "picture size \(width)x\(height) is over vrender's limit of \(maxSide) pixels per side"
        }
        if width * height > maxPixels {
            let megapixels = String(format: "%.1f", Double(width * height) / 1e6)
            return "picture size \(width)x\(height) (\(megapixels) Mpixels) is over vrender's limit of "
                + "\(String(format: "%.1f", Double(maxPixels) / 1e6)) Mpixels (8192x4352)"
        }
        return nil
    }
}
