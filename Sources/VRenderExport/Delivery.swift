import VRenderCore
import VRenderMedia

/// `vrender concat --for web|archive`: one flag for where the video goes. The preset chooses the
/// codec, quality, loudness and container a demanding user would pick for that place; any of
/// those options given on the command line wins over it, and the plan says what the preset set.
public enum DeliveryTarget: String, Sendable, CaseIterable, Codable {
    /// Publishing (YouTube, Vimeo, a web page): H.264 High + AAC-LC 48 kHz in .mp4 with the index
    /// first and no edit lists, a closed GOP every half second, 2 B-frames, quality capped at
    /// the platforms' recommended bit rate for the size and rate, -14 LUFS / -1 dBTP.
    case web
    /// A master to keep: FFV1 (lossless, checksummed slices) with the sound as 32-bit float PCM,
    /// in .mkv; levels as recorded.
    case archive

    /// The options the user gave: the preset leaves those as given.
    public struct Given: Sendable {
        public var codec = false, crf = false, loudness = false, output = false
        public init(codec: Bool = false, crf: Bool = false, loudness: Bool = false, output: Bool = false) {
            (self.codec, self.crf, self.loudness, self.output) = (codec, crf, loudness, output)
        }

        /// The options named as the command line spells them, for the plan's line.
        var names: [String] {
            [codec ? "--codec" : nil, crf ? "--crf" : nil, loudness ? "--loudness" : nil, output ? "-o" : nil].compactMap { $0 }
        }
    }

    /// `options` with the preset's choices where `given` says the user chose nothing.
    public func apply(to options: inout ExportOptions, given: Given) {
        options.delivery = self
        options.deliveryOverrides = given.names
        switch self {
        case .web:
            if !given.codec { options.codec = .encode(.h264) }
            if !given.crf { options.crf = Self.webCRF }
            if !given.loudness { options.loudness = -14 }
            if !given.output { options.output = "export.mp4" }
        case .archive:
            if !given.codec { options.codec = .encode(.ffv1) }
            if !given.output { options.output = "export.mkv" }
        }
    }

    /// x264's constant quality under the web preset's cap: visually clean at the cap's rates.
    static let webCRF = 20

    /// The bit rate platforms recommend for an upload (YouTube's SDR table, which Vimeo's
    /// matches): by the picture's shorter side, and for rates above 30 fps the higher column.
    static func webBitRate(width: Int, height: Int, frameRate: Double) -> Int {
        let lines = Swift.min(width, height)
        let fast = frameRate > 31
        let table: [(lines: Int, normal: Double, fast: Double)] = [
            (2160, 40, 60), (1440, 16, 24), (1080, 8, 12), (720, 5, 7.5), (480, 2.5, 4), (0, 1, 1.5),
        ]
        let row = table.first { lines >= $0.lines } ?? table[table.count - 1]
        return Int((fast ? row.fast : row.normal) * 1_000_000)
    }

    /// What the encoder is told beyond codec and quality, for a transcode at this size and rate.
    func tuning(width: Int, height: Int, frameRate: Rational) -> VideoTuning? {
        guard self == .web else { return nil }
        let rate = frameRate.doubleValue
        return VideoTuning(maxBitRate: Self.webBitRate(width: width, height: height, frameRate: rate),
                           keyframeInterval: Swift.max(1, Int((rate / 2).rounded())), bFrames: 2, profile: "high")
    }

    /// False for the web: its .mp4 has no edit lists (some players and sites ignore them).
    var editLists: Bool { self != .web }

    /// The sound's codec in a container that is not WebM.
    var audioCodec: AudioCodecChoice { self == .archive ? .pcm : .aac }

    /// The plan's line: what the preset chose, and what the user's options changed.
    func summary(_ plan: ExportPlan) -> String {
        let given = plan.encoding.deliveryOverrides
        return presetSummary(plan) + (given.isEmpty ? "" : "; as given: " + given.joined(separator: ", "))
    }

    private func presetSummary(_ plan: ExportPlan) -> String {
        switch self {
        case .web:
            let tuning = tuning(width: plan.canvasWidth, height: plan.canvasHeight, frameRate: plan.frameRate)
            let cap = tuning.map { String(format: "%.1f Mb/s", Double($0.maxBitRate ?? 0) / 1_000_000) } ?? "-"
            let gop = tuning?.keyframeInterval.map { "a closed GOP of \($0) frames" } ?? ""
            // x264 alone takes the profile; a Matroska file (-o x.mkv) has no edit lists to leave out.
            let profile = plan.videoCodec == .h264 ? tuning?.profile.map { " " + $0 } ?? "" : ""
            let file = plan.writesEditLists ? "" : " with faststart and no edit lists"
            return "for web: \(plan.videoCodec.rawValue)\(profile) crf \(plan.encoding.crf.map(String.init) ?? "default") "
                + "capped at \(cap), \(gop), \(tuning?.bFrames ?? 0) B-frames, \(plan.audioCodec.rawValue.uppercased()) 48 kHz, "
                + "\(plan.loudness.map { ValueSyntax.text($0.target) + " LUFS" } ?? "levels as recorded"), "
                + ".\(plan.output.fileExtension)\(file)"
        case .archive:
            return "for archive: \(plan.videoCodec.rawValue) (lossless), sound as \(plan.audioCodec.rawValue) 48 kHz, "
                + ".\(plan.output.fileExtension)"
        }
    }
}
