import Foundation
import VRenderCore

/// `vrender concat --stabilize [STRENGTH]`: the app's cinematic mode done offline. STRENGTH
/// runs from 0 (exclusive) to 1; it sets how long a stretch of camera motion is averaged away
/// and how far the picture is zoomed in to hide the borders the corrections open:
///
/// - smoothing radius: 2 · STRENGTH seconds of output frames each side (0.5 at 30 fps: ±30 frames,
///   a Gaussian of σ = half that: motion slower than about 0.3 Hz is kept, faster shake removed);
/// - zoom: 4% + 8% · STRENGTH (8% at 0.5), a fixed crop for the whole export, as the app crops;
///   every correction is clamped to the margin the zoom leaves, so no border ever shows.
public struct StabilizeRequest: Sendable, Equatable, Codable {
    /// Used when `--stabilize` is given without a value.
    public static let defaultStrength = 0.5

    public var strength: Double

    public init(strength: Double = StabilizeRequest.defaultStrength) throws {
        guard strength.isFinite, strength > 0, strength <= 1 else {
            throw VRenderError.option("--stabilize", "a strength from 0 to 1 (e.g. 0.5), not \(strength)")
        }
        self.strength = strength
    }

    /// Parses `--stabilize`'s value ("default", or "", when given bare: the default strength).
    public init(parsing text: String) throws {
        if text.isEmpty || text == "default" {
            try self.init()
            return
        }
        guard let value = Double(text) else {
            throw VRenderError.option("--stabilize", "a strength from 0 to 1 (e.g. 0.5), not \"\(text)\"")
        }
        try self.init(strength: value)
    }

    /// How far the picture is zoomed in, in percent.
    public var zoomPercent: Double { 4 + 8 * strength }

    /// The smoothing radius in output frames at `frameRate` (at least 1).
    public func radius(frameRate: Rational) -> Int {
        max(1, Int((2 * strength * frameRate.doubleValue).rounded()))
    }
}

/// What an export's stabilization does, fixed by the plan so that every chunk does the same.
package struct StabilizePlan: Sendable, Equatable {
    package var strength: Double
    /// Smoothing radius in output frames: each frame's correction averages the camera path over
    /// the frames this many output frames before and after it, within its take.
    package var radius: Int
    package var zoomPercent: Double

    package init(_ request: StabilizeRequest, frameRate: Rational) {
        strength = request.strength
        radius = request.radius(frameRate: frameRate)
        zoomPercent = request.zoomPercent
    }

    /// How many output frames before a chunk's first frame a chunk reads of a take that began
    /// earlier, so that its frames see the same motion as a read from the take's start: the
    /// radius, and as much again for a source frame that fills several output frames.
    var leadIn: Int { 2 * radius + 2 }

    /// How many output frames after a chunk's last frame it reads (the frames ahead that the
    /// last frames' corrections average over).
    var leadOut: Int { radius + 1 }

    /// The plan line's text.
    package var summary: String {
        "strength \(String(format: "%g", strength)): camera path smoothed over ±\(radius) frames, "
            + "zoomed in \(String(format: "%g", zoomPercent))% to hide the borders"
    }
}
