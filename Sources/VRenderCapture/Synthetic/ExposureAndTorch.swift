import VRenderCore

/// Auto-exposure of the simulated camera: it meters a region around the point of interest and
/// moves that region's brightness part of the way toward mid-grey, as a phone's continuous
/// auto-exposure does after a tap.
///
/// Metering reads the pre-rendered static scene of the lens in use, not the finished frame:
/// exposure then depends only on the camera's settings, not on which moving shape happens to
/// cross the region, so it neither flickers nor depends on earlier frames.
enum Exposure {
    /// Mid-grey in limited-range luma (halfway between 16 and 235).
    static let targetLuma = 126
    /// Errors within ±¼ stop leave exposure alone: the scene's centre (the zone plate, mean
    /// mid-grey) meters inside it, so the default camera renders with gain exactly 1.
    static let deadBandStops = 0.25
    /// Fraction of the remaining error corrected: a region moves toward mid-grey, not onto it.
    static let strength = 0.75
    static let maximumCorrectionStops = 2.0
    /// The metered region spans a fifth of the picture each way around the point of interest.
    static let regionHalfSize = 0.1

    /// Linear gain on (luma − 16) for `camera` looking through `layer`.
    static func gain(layer: LensLayer, camera: CameraSnapshot) -> Double {
        let crop = camera.cropFactor
        // The point is where the user sees it; on the front camera the picture is mirrored.
        let offsetX = (camera.pointOfInterest.x - 0.5) / crop
        let mean = layer.meanLuma(
            centreX: camera.position == .front ? 0.5 - offsetX : 0.5 + offsetX,
            centreY: 0.5 + (camera.pointOfInterest.y - 0.5) / crop,
            halfWidth: regionHalfSize / crop, halfHeight: regionHalfSize / crop)
        return gain(forMeanLuma: mean)
    }

    static func gain(forMeanLuma mean: Int) -> Double {
        let error = DeterministicMath.log2(Double(targetLuma - 16) / Double(Swift.max(mean - 16, 1)))
        guard Swift.abs(error) > deadBandStops else { return 1 }
        let beyond = error > 0 ? error - deadBandStops : error + deadBandStops
        let correction = Swift.min(Swift.max(strength * beyond, -maximumCorrectionStops), maximumCorrectionStops)
        return DeterministicMath.exp2(correction)
    }
}

/// Per-frame lookup tables that apply exposure and torch to every sample: 256 entries per plane,
/// built once per frame, so the per-pixel cost is one table read (none when a table is the
/// identity, the default camera's case).
///
/// - Back torch: an LED lighting the scene: luma scaled up by up to 40 % plus a lift of 8,
///   chroma shifted warm (Cr up, Cb down by up to 10).
/// Highlights then roll off toward white rather than clip (`shoulder`).
/// - Front "screen torch" (the seed's white screen): a soft fill light that lifts dark tones
///   more than bright ones (30 % of the way to white at full level), lower saturation and a
///   cool shift (Cb up 8, Cr down 6).
struct ToneTables: Sendable {
    var luma: [UInt8]
    var cb: [UInt8]
    var cr: [UInt8]
    var lumaIsIdentity: Bool
    var chromaIsIdentity: Bool

    init(gain: Double, torch: Double, position: CameraPosition) {
        let identity = (0...255).map { UInt8($0) }
        lumaIsIdentity = gain == 1 && torch == 0
        chromaIsIdentity = torch == 0
        luma = lumaIsIdentity ? identity : (0...255).map { value in
            let exposed = Double(value - 16) * gain
            let lit = position == .back
                ? exposed * (1 + 0.4 * torch) + 8 * torch
                : exposed + 0.3 * torch * Swift.max(219 - exposed, 0)
            return Self.clamp(16 + Self.shoulder(lit), 16, 235)
        }
        guard !chromaIsIdentity else {
            cb = identity
            cr = identity
            return
        }
        let saturation = position == .back ? 1 : 1 - 0.1 * torch
        let shiftCb = position == .back ? -10 * torch : 8 * torch
        let shiftCr = position == .back ? 10 * torch : -6 * torch
        cb = (0...255).map { Self.clamp(128 + Double($0 - 128) * saturation + shiftCb, 16, 240) }
        cr = (0...255).map { Self.clamp(128 + Double($0 - 128) * saturation + shiftCr, 16, 240) }
    }

    /// Rolls highlights off toward white instead of clipping them: identity up to 200 (luma
    /// 216, above everything the scene itself contains but the sun), then approaching 219.
    private static func shoulder(_ level: Double) -> Double {
        let knee = 200.0, headroom = 19.0
        guard level > knee else { return level }
        return knee + (level - knee) / (1 + (level - knee) / headroom)
    }

    private static func clamp(_ value: Double, _ low: Double, _ high: Double) -> UInt8 {
        UInt8(Swift.min(Swift.max(value, low), high).rounded())
    }
}
