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
    public typealias Chooser = @Sendable (NegotiatedFormat) -> Choice

    /// The most of the time between frames HEVC may take and still be chosen.
    static let hevcShare = 0.5
    /// Above this share even H.264 is likely to drop frames: the choice says so.
    static let h264Share = 0.8

    /// Measures this machine: under half a second, while capture runs (its load counts too).
    public static let measure: Chooser = { format in
        guard let pictures = try? syntheticPictures(format: format, count: 4) else {
            return decide(format: format, hevc: nil, h264: nil)
        }
        let hevc = secondsPerFrame(.hevc, pictures: pictures, format: format, budget: 0.25)
        // H.264 is measured only when HEVC is not chosen, and briefly: it is several times faster.
        let keepsUp = hevc.map { $0 <= hevcShare / format.frameRate.doubleValue } ?? false
        let h264 = keepsUp ? nil : secondsPerFrame(.h264, pictures: pictures, format: format, budget: 0.1)
        return decide(format: format, hevc: hevc, h264: h264)
    }

    /// The most seconds `measure` takes on a machine that can capture at all (two encoder opens,
    /// two bursts, the flushes): what the ring must hold while it runs.
    static let longestSeconds = 0.75

    /// The choice, from seconds per frame measured for each codec (nil: not measured, or the
    /// encoder does not open).
    static func decide(format: NegotiatedFormat, hevc: Double?, h264: Double?) -> Choice {
        let interval = 1 / format.frameRate.doubleValue
        let size = "\(format.width)x\(format.height)"
        if let hevc, hevc <= hevcShare * interval {
            return Choice(codec: .hevc, reason: "HEVC encodes a \(size) frame in \(describe(hevc, of: interval)), it keeps up")
        }
        let why = hevc.map { "HEVC encodes a \(size) frame in \(describe($0, of: interval)), too slow to keep up" }
            ?? "no HEVC encoder opens"
        guard let h264 else { return Choice(codec: .hevc, reason: why + ", and no H.264 encoder opens either") }
        let warning = h264 > h264Share * interval ? "; expect dropped frames (try a smaller --size or a lower --fps)" : ""
        return Choice(codec: .h264, reason: why + "; H.264 in \(describe(h264, of: interval))" + warning)
    }

    /// "12.5 ms (31% of the 40.0 ms between frames)".
    static func describe(_ seconds: Double, of interval: Double) -> String {
        String(format: "%.1f ms (%.0f%% of the %.1f ms between frames)", seconds * 1000, seconds / interval * 100, interval * 1000)
    }

    /// Wall-clock seconds per frame for `codec` with the live encoder settings, over a burst
    /// of synthetic frames after a short warm-up, flush included (a frame-threaded encoder
    /// returns before its frames are done). Nil when the encoder does not open.
    static func secondsPerFrame(_ codec: VideoCodecChoice, pictures: [Frame], format: NegotiatedFormat,
                                warmUp: Int = 2, budget: Double, maxFrames: Int = 16) -> Double? {
        var measured = format
        (measured.width, measured.height) = (pictures[0].width, pictures[0].height)
        guard let encoder = try? Encoder.video(SegmentWriter.encoderSettings(format: measured, codec: codec, live: true),
                                               globalHeader: false) else { return nil }
        var pts: Int64 = 0
        func encode(_ frame: Frame?) throws {
            if let frame {
                frame.prepareForEncoding(pts: pts)
                pts += 1
            }
            try encoder.encode(frame, makePacket: Packet.init) { $0.unref() }
        }
        do {
            for index in 0..<warmUp { try encode(pictures[index % pictures.count]) }
            let start = MonotonicClock.now()
            var frames = 0
            while frames < maxFrames && Double(MonotonicClock.now() &- start) / 1e9 < budget {
                try encode(pictures[frames % pictures.count])
                frames += 1
            }
            try encode(nil)
            return Double(MonotonicClock.now() &- start) / 1e9 / Double(frames)
        } catch {
            return nil
        }
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
