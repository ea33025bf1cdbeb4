import VRenderCore
import VRenderImaging

/// One frame's scores in `vrender golden diff`.
public struct FrameScore: Sendable, Equatable, Codable {
    public var frame: Int
    /// dB; `.infinity` when the frames are identical (encoded as JSON null).
    public var psnr: Double
    public var ssim: Double

    public init(frame: Int, psnr: Double, ssim: Double) {
        self.frame = frame
        self.psnr = psnr
        self.ssim = ssim
    }

    private enum CodingKeys: String, CodingKey { case frame, psnr, ssim }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(frame, forKey: .frame)
        try container.encode(psnr.isFinite ? psnr : nil, forKey: .psnr)
        try container.encode(ssim, forKey: .ssim)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        frame = try container.decode(Int.self, forKey: .frame)
        psnr = try container.decodeIfPresent(Double.self, forKey: .psnr) ?? .infinity
        ssim = try container.decode(Double.self, forKey: .ssim)
    }
}

/// Every frame of two videos compared: what `vrender golden diff A B` prints.
public struct VideoDiffReport: Sendable, Encodable {
    public var first: String
    public var second: String
    public var width: Int
    public var height: Int
    public var firstFrames: Int
    public var secondFrames: Int
    /// One per frame both videos have, in order.
    public var scores: [FrameScore]

    /// The frame with the lowest PSNR (then the lowest SSIM); nil when nothing was compared.
    public var worst: FrameScore? {
        scores.min { ($0.psnr, $0.ssim) < ($1.psnr, $1.ssim) }
    }

    /// Mean PSNR over the frames that differ at all; nil when every frame is identical.
    public var meanPSNR: Double? {
        let finite = scores.map(\.psnr).filter(\.isFinite)
        return finite.isEmpty ? nil : finite.reduce(0, +) / Double(finite.count)
    }

    public var meanSSIM: Double { scores.isEmpty ? 1 : scores.map(\.ssim).reduce(0, +) / Double(scores.count) }

    private enum CodingKeys: String, CodingKey {
        case first, second, width, height, firstFrames, secondFrames, scores, worst, meanPSNR, meanSSIM
    }

    /// The fields, plus the worst frame and the means (`--json`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(first, forKey: .first)
        try container.encode(second, forKey: .second)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(firstFrames, forKey: .firstFrames)
        try container.encode(secondFrames, forKey: .secondFrames)
        try container.encode(scores, forKey: .scores)
        try container.encode(worst, forKey: .worst)
        try container.encode(meanPSNR, forKey: .meanPSNR)
        try container.encode(meanSSIM, forKey: .meanSSIM)
    }
}

/// Compares two videos frame by frame (PSNR and SSIM over RGB), decoding both side by side.
public enum VideoDiff {
    /// Both videos must have one picture size (an error names both otherwise); frames beyond
    /// the shorter video are counted, not compared.
    public static func compare(_ first: String, _ second: String, threads: Int = 1) throws -> VideoDiffReport {
        let a = try DecodedFrames(path: first, threads: threads)
        let b = try DecodedFrames(path: second, threads: threads)
        let metrics = PictureMetrics()
        var pictureA = RGBImage(width: 0, height: 0), pictureB = RGBImage(width: 0, height: 0)
        var scores: [FrameScore] = []
        var size: (width: Int, height: Int)?
        while true {
            let frameA = try a.next(), frameB = try b.next()
            guard let frameA, let frameB else { break }
            guard frameA.width == frameB.width, frameA.height == frameB.height else {
                throw VRenderError.input(first, "frame \(scores.count) is \(frameA.width)x\(frameA.height) but \(second)'s is "
                                         + "\(frameB.width)x\(frameB.height): golden diff compares videos of one size")
            }
            size = size ?? (frameA.width, frameA.height)
            try a.picture(of: frameA, into: &pictureA)
            try b.picture(of: frameB, into: &pictureB)
            scores.append(FrameScore(frame: scores.count, psnr: metrics.psnr(pictureA, pictureB),
                                     ssim: metrics.ssim(pictureA, pictureB)))
        }
        // Whichever video is longer: count the rest of its frames.
        while try a.next() != nil {}
        while try b.next() != nil {}
        return VideoDiffReport(first: first, second: second, width: size?.width ?? 0, height: size?.height ?? 0,
                               firstFrames: a.count, secondFrames: b.count, scores: scores)
    }
}
