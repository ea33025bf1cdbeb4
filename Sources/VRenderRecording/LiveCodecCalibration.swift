import Foundation
import VRenderCapture
import VRenderCore
import VRenderMedia

/// `--codec auto` for a live source: HEVC makes takes half the size of H.264's at the same
/// quality, but costs several times the CPU, and a live capture whose encoder falls behind
/// drops frames (27 of 75 on vivid under qemu's emulation). So before the first take, this
/// machine encodes a short burst of synthetic frames at the capture size with the live
/// settings, and HEVC is chosen only when it needs at most half the time between frames: the
/// other half is for capture, conversion, thumbnails and whatever else the machine is doing.
public enum LiveCodecCalibration {
    /// The codec chosen, and why, in words for the user.
    public struct Choice: Sendable, Equatable {
        public var codec: VideoCodecChoice
        public var reason: String
    }

    /// Picks the live codec for `format` (a choice; never throws: an encoder that cannot be
    /// measured is not chosen).
    package typealias Chooser = @Sendable (NegotiatedFormat) -> Choice

    /// The most of the time between frames HEVC may take and still be chosen.
    static let hevcShare = 0.5
    /// Above this share even H.264 is likely to drop frames: the choice says so.
    static let h264Share = 0.8

    /// What a burst measured: wall-clock seconds per frame, or (`atLeast`) a bound the encoder
    /// was already slower than when measuring stopped early.
    package struct Measurement: Sendable, Equatable {
        package var seconds: Double
        package var atLeast = false
    }

    /// Measures this machine, while capture runs (its load counts too): a few tenths of a
    /// second where HEVC keeps up; where it cannot, HEVC only until that is plain, then H.264
    /// (measured to the end: it is the choice either way, and the figure warns of drops).
    package static let measure: Chooser = { format in
        guard let pictures = try? syntheticPictures(format: format, count: 2) else {
            return decide(format: format, hevc: nil, h264: nil)
        }
        let interval = 1 / format.frameRate.doubleValue
        let hevc = secondsPerFrame(.hevc, pictures: pictures, format: format, budget: 0.25, limit: hevcShare * interval)
        // H.264 is measured only when HEVC is not chosen, and briefly: it is several times faster.
        let keepsUp = hevc.map { !$0.atLeast && $0.seconds <= hevcShare * interval } ?? false
        let h264 = keepsUp ? nil : secondsPerFrame(.h264, pictures: pictures, format: format, budget: 0.1)
        return decide(format: format, hevc: hevc, h264: h264)
    }

    /// The choice, from what was measured for each codec (nil: the encoder does not open).
    static func decide(format: NegotiatedFormat, hevc: Measurement?, h264: Measurement?) -> Choice {
        let interval = 1 / format.frameRate.doubleValue
        let size = "\(format.width)x\(format.height)"
        if let hevc, !hevc.atLeast, hevc.seconds <= hevcShare * interval {
            return Choice(codec: .hevc, reason: "HEVC encodes a \(size) frame in \(describe(hevc, of: interval)), it keeps up")
        }
        let why = hevc.map { "HEVC encodes a \(size) frame in \(describe($0, of: interval)), too slow to keep up" }
            ?? "no HEVC encoder opens"
        guard let h264 else { return Choice(codec: .hevc, reason: why + ", and no H.264 encoder opens either") }
        let warning = h264.seconds > h264Share * interval ? "; expect dropped frames (try a smaller --size or a lower --fps)" : ""
        return Choice(codec: .h264, reason: why + "; H.264 in \(describe(h264, of: interval))" + warning)
    }

    /// "12.5 ms (31% of the 40.0 ms between frames)", or "at least 56.0 ms (140% …)".
    static func describe(_ measured: Measurement, of interval: Double) -> String {
        (measured.atLeast ? "at least " : "")
            + String(format: "%.1f ms (%.0f%% of the %.1f ms between frames)",
                     measured.seconds * 1000, measured.seconds / interval * 100, interval * 1000)
    }

    /// Seconds before measuring may stop early: a slow call or two must not condemn an
    /// encoder, while under emulation one HEVC frame takes half a second, more than the whole
    /// verdict needs.
    static let earliestStop = 0.1
    /// Packets whose spacing makes a steady-state figure.
    static let steadyPackets = 4

    /// Wall-clock seconds per frame for `codec` with the live encoder settings, from the
    /// spacing of its packets once its frame threads are all busy: filling and draining them
    /// is delay, not cost, and counting it made H.264 look five times slower than it encodes
    /// under emulation. Measuring stops once `budget` seconds have passed with a steady
    /// figure, or early when the encoder is plainly (twice) slower than `limit`: in `t`
    /// seconds it cannot have done more than the `n` frames fed, so `t / n` bounds its cost
    /// from below (over its first frames, which can be slower than the rest: hence twice).
    /// Nil when the encoder does not open.
    static func secondsPerFrame(_ codec: VideoCodecChoice, pictures: [Frame], format: NegotiatedFormat,
                                budget: Double, limit: Double = .infinity, maxFrames: Int = 32) -> Measurement? {
        var measured = format
        (measured.width, measured.height) = (pictures[0].width, pictures[0].height)
        guard let encoder = try? Encoder.video(SegmentWriter.encoderSettings(format: measured, codec: codec, live: true),
                                               globalHeader: false) else { return nil }
        var packetTimes: [UInt64] = []
        func encode(_ index: Int) throws {
            let frame = pictures[index % pictures.count]
            frame.prepareForEncoding(pts: Int64(index))
            try encoder.encode(frame, makePacket: Packet.init) { packet in
                packetTimes.append(MonotonicClock.now())
                packet.unref()
            }
        }
        // The first frame sets the encoder up (x265 starts its thread pool: 0.1 s at 720p):
        // not a frame's cost, so not timed.
        do { try encode(0) } catch { return nil }
        let start = MonotonicClock.now()
        func elapsed() -> Double { MonotonicClock.seconds(since: start) }
        do {
            for fed in 1...maxFrames {
                try encode(fed)
                let soFar = elapsed()
                if soFar >= earliestStop, soFar / Double(fed) > 2 * limit { return Measurement(seconds: soFar / Double(fed), atLeast: true) }
                if packetTimes.count >= steadyPackets, soFar >= budget { break }
            }
        } catch {
            return nil
        }
        guard packetTimes.count >= 2, let first = packetTimes.first, let last = packetTimes.last, last > first else {
            return Measurement(seconds: elapsed() / Double(maxFrames), atLeast: true)
        }
        return Measurement(seconds: Double(last &- first) / 1e9 / Double(packetTimes.count - 1))
    }

    /// Frames of the synthetic camera's scene at the capture size (moving shapes, gradients,
    /// a timecode: about as hard to encode as a quiet room).
    static func syntheticPictures(format: NegotiatedFormat, count: Int) throws -> [Frame] {
        let even = (width: format.width & ~1, height: format.height & ~1)
        let limits = SyntheticCamera.sizeLimits
        let size = (width: Swift.min(Swift.max(even.width, limits.lowerBound), limits.upperBound),
                    height: Swift.min(Swift.max(even.height, limits.lowerBound), limits.upperBound))
        let camera = try SyntheticCamera(specification: "synthetic", request: CaptureRequest(frameRate: format.frameRate, size: size))
        camera.start()
        defer { camera.stop() }
        return try (0..<count).map { _ in
            let frame = try Frame.picture(width: size.width, height: size.height)
            _ = try camera.nextFrame(into: frame)
            return frame
        }
    }
}
