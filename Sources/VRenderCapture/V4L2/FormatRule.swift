import VRenderCore

/// Chooses what to capture from what a device offers (DESIGN "Capture"; the seed's
/// `setFrameRateLocked`). Pure: no device needed, so every case is unit-tested.
///
/// The rule, in order:
/// 1. `request.size` narrows the formats to that size (an option error when there is none).
/// 2. Among the formats whose frame-interval range reaches the requested rate, the highest
///    resolution wins. **Resolution beats rawness**: a camera offering YUYV 640x480@30 and MJPEG
///    1920x1080@30 records 1080p MJPEG, because the design asks for "the highest resolution whose
///    frame-interval range reaches the requested fps" first, and decoding MJPEG is cheap next to
///    losing two thirds of the picture.
/// 3. At that resolution a raw format is preferred when one reaches the rate (no decoding, no
///    compression artefacts), in the order yuv420p, nv12, yuyv (least conversion to the 4:2:0
///    frames vrender records); MJPEG otherwise.
/// 4. If nothing reaches the rate: the highest rate available, then the highest resolution at
///    that rate (raw preferred again), and the reason says so.
///
/// A rate within 1% counts as reaching (a 29.97 fps camera reaches "30").
package enum FormatRule {
    static let tolerance = 0.01

    /// Picks the format and the frame rate to lock: the requested rate when it is reachable (the
    /// device's own spelling of it when it lists one within 1%, e.g. 30000/1001), else the
    /// fallback format's fastest rate.
    ///
    /// - Throws: `VRenderError.option("--size", …)` when `request.size` is not offered,
    ///   `VRenderError.input(device, …)` when `formats` is empty.
    package static func choose(from formats: [CaptureFormat], for request: CaptureRequest,
                              device: String = "the device") throws(VRenderError) -> NegotiatedFormat {
        guard !formats.isEmpty else {
            throw .input(device, "offers no format vrender can capture (yuyv, nv12, yuv420, mjpeg)")
        }
        var candidates = formats
        var sizeNote = ""
        if let size = request.size {
            candidates = formats.filter { $0.width == size.width && $0.height == size.height }
            guard !candidates.isEmpty else {
                throw .option("--size", "\(device) has no \(size.width)x\(size.height) format; it offers: "
                              + offeredSizes(formats).joined(separator: ", "))
            }
            sizeNote = " (--size \(size.width)x\(size.height))"
        }

        let wanted = request.frameRate.doubleValue
        let reaching = candidates.filter { $0.maxFrameRate >= wanted * (1 - tolerance) }
        if let best = preferred(reaching) {
            let rate = best.frameRates.first { abs($0.doubleValue - wanted) <= wanted * tolerance } ?? request.frameRate
            var reason = "\(label(best)) at \(fps(rate)) fps: the highest resolution that reaches \(fps(request.frameRate)) fps\(sizeNote)"
            if best.pixelFormat == .mjpeg {
                reason += "; no raw format reaches it at that size, so MJPEG (decoded)"
            }
            return negotiated(best, rate: rate, reason: reason)
        }

        let fastest = candidates.map(\.maxFrameRate).max() ?? 0
        // `candidates` is not empty (checked above), so neither can the fastest of them be.
        guard let best = preferred(candidates.filter { $0.maxFrameRate >= fastest - 1e-9 }) else {
            throw .input(device, "offers no format vrender can capture")
        }
        guard fastest > 0, let rate = best.frameRates.max(by: { $0.doubleValue < $1.doubleValue }) else {
            // The driver reported no rates at all: ask for the requested one and see what it sets.
            return negotiated(best, rate: request.frameRate,
                              reason: "\(label(best)): the highest resolution\(sizeNote); the device reports no frame rates, so \(fps(request.frameRate)) fps is asked for")
        }
        return negotiated(best, rate: rate,
                          reason: "no format reaches \(fps(request.frameRate)) fps\(sizeNote); highest available is \(fps(rate)) fps at \(label(best))")
    }

    /// The highest resolution, then raw before MJPEG (yuv420p, nv12, yuyv, mjpeg).
    static func preferred(_ formats: [CaptureFormat]) -> CaptureFormat? {
        formats.min { a, b in
            let pixelsA = a.width * a.height, pixelsB = b.width * b.height
            if pixelsA != pixelsB { return pixelsA > pixelsB }
            if a.width != b.width { return a.width > b.width }
            return rank(a.pixelFormat) < rank(b.pixelFormat)
        }
    }

    private static func rank(_ format: CapturePixelFormat) -> Int {
        switch format {
        case .yuv420p: return 0
        case .nv12: return 1
        case .yuyv: return 2
        case .mjpeg: return 3
        }
    }

    /// Distinct sizes, largest first, as "640x480".
    static func offeredSizes(_ formats: [CaptureFormat]) -> [String] {
        var seen = Set<String>()
        return formats.sorted { $0.width * $0.height > $1.width * $1.height }
            .map { "\($0.width)x\($0.height)" }
            .filter { seen.insert($0).inserted }
    }

    private static func negotiated(_ format: CaptureFormat, rate: Rational, reason: String) -> NegotiatedFormat {
        NegotiatedFormat(pixelFormat: format.pixelFormat, width: format.width, height: format.height,
                         frameRate: rate, reason: reason)
    }

    private static func label(_ format: CaptureFormat) -> String {
        "\(format.width)x\(format.height) \(format.pixelFormat.rawValue)"
    }

    /// "25", "12.5", "29.97": a rate as people write it.
    package static func fps(_ rate: Rational) -> String {
        if rate.denominator == 1 { return "\(rate.numerator)" }
        let hundredths = (rate.doubleValue * 100).rounded()
        if hundredths.truncatingRemainder(dividingBy: 100) == 0 { return "\(Int(hundredths) / 100)" }
        return "\(hundredths / 100)"
    }
}
