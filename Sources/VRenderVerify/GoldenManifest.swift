import Foundation
import VRenderCore
import VRenderMedia

/// One decoded frame as a golden remembers it: one line of frames.txt, in the order and form
/// of FFmpeg's framemd5 (`index, pts, duration, WxH, pix_fmt, md5`).
public struct GoldenFrame: Sendable, Equatable {
    public var index: Int
    /// Presentation timestamp in the golden's time base; nil when the decoder knew none.
    public var pts: Int64?
    /// Duration in the same time base (0 when unknown).
    public var duration: Int64
    public var width: Int
    public var height: Int
    /// FFmpeg's name of the decoded pixel format the hash is computed in ("yuv420p").
    public var pixelFormat: String
    /// MD5 of the decoded planes, tightly packed: what `ffmpeg -f framemd5` prints.
    public var md5: String

    public init(index: Int, pts: Int64?, duration: Int64, width: Int, height: Int, pixelFormat: String, md5: String) {
        self.index = index
        self.pts = pts
        self.duration = duration
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.md5 = md5
    }

    public var size: String { "\(width)x\(height)" }
    public var ptsText: String { pts.map(String.init) ?? "nopts" }

    var line: String { "\(index), \(ptsText), \(duration), \(size), \(pixelFormat), \(md5)" }
}

/// A golden's frames.txt: `#key: value` header lines (format version, mode, tolerance, how the
/// hashes and references are made, decoder threads, reference frames, time base, source), then
/// one `GoldenFrame` line per decoded frame of the first video stream.
public struct GoldenManifest: Sendable, Equatable {
    static let formatVersion = 1
    /// What the hashes are of (written for readers; a change of method changes the version).
    static let hashMethod = "md5 of each frame's planes as decoded, tightly packed, in its line's pix_fmt (ffmpeg -f framemd5)"
    static let referenceMethod = "rgb24 png; swscale bicubic, accurate rounding, bit-exact; colours as tagged, else bt709 for hd, bt601 for sd"

    /// nil: an exact golden (every frame's hash must match); else a lossy one.
    public var tolerance: GoldenTolerance?
    /// Decoder threads the golden was recorded with (for information: any count must match).
    public var decoderThreads: Int
    /// Frames with a reference PNG, ascending.
    public var references: [Int]
    /// Time base of `pts` and `duration`.
    public var timeBase: Rational
    /// File name of the recorded video, for information.
    public var source: String
    public var frames: [GoldenFrame]

    public init(tolerance: GoldenTolerance?, decoderThreads: Int, references: [Int], timeBase: Rational, source: String,
                frames: [GoldenFrame]) {
        self.tolerance = tolerance
        self.decoderThreads = decoderThreads
        self.references = references
        self.timeBase = timeBase
        self.source = source
        self.frames = frames
    }

    /// "exact" or "lossy".
    public var mode: String { tolerance == nil ? "exact" : "lossy" }

    /// The file's text.
    public func rendered() -> String {
        var lines = ["#vrender-golden: \(Self.formatVersion)", "#mode: \(mode)"]
        if let tolerance { lines.append("#tolerance: \(tolerance)") }
        lines += [
            "#hashes: \(Self.hashMethod)",
            "#references: \(Self.referenceMethod)",
            "#reference_frames: \(references.map(String.init).joined(separator: ","))",
            "#decoder_threads: \(decoderThreads)",
            "#time_base: \(timeBase.numerator)/\(timeBase.denominator)",
            "#source: \(source)",
            "#frame, pts, duration, WxH, pix_fmt, md5",
        ]
        lines += frames.map(\.line)
        return lines.joined(separator: "\n") + "\n"
    }
}

extension GoldenManifest {
    /// Reads frames.txt's text. Every problem is an input error naming `path` and the line.
    public static func parse(_ text: String, path: String) throws -> GoldenManifest {
        var header: [String: (value: String, line: Int)] = [:]
        var frames: [GoldenFrame] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty else { continue }
            if line.hasPrefix("#") {
                // `#key: value`; the column names line has no ": " and is only for readers.
                guard let colon = line.range(of: ": ") else { continue }
                header[String(line[line.index(after: line.startIndex)..<colon.lowerBound])] =
                    (String(line[colon.upperBound...]), offset + 1)
                continue
            }
            frames.append(try parseFrame(line, expectedIndex: frames.count, location: "\(path):\(offset + 1)"))
        }
        return try manifest(header: header, frames: frames, path: path)
    }

    private static func manifest(header: [String: (value: String, line: Int)], frames: [GoldenFrame],
                                 path: String) throws -> GoldenManifest {
        func value(_ key: String) throws -> (value: String, line: Int) {
            guard let entry = header[key] else { throw VRenderError.input(path, "is not a vrender golden: no '#\(key):' line") }
            return entry
        }
        guard try value("vrender-golden").value == String(formatVersion) else {
            throw VRenderError.input(path, "golden format \(try value("vrender-golden").value) is not one this vrender reads (\(formatVersion))")
        }
        let mode = try value("mode")
        var tolerance: GoldenTolerance?
        switch mode.value {
        case "exact":
            guard header["tolerance"] == nil else { throw VRenderError.input("\(path):\(try value("tolerance").line)", "an exact golden has no tolerance") }
        case "lossy":
            let stored = try value("tolerance")
            guard let parsed = GoldenTolerance(stored.value) else {
                throw VRenderError.input("\(path):\(stored.line)", "tolerance '\(stored.value)' is not 'psnr N dB' or 'ssim X'")
            }
            tolerance = parsed
        default:
            throw VRenderError.input("\(path):\(mode.line)", "mode '\(mode.value)' is not exact or lossy")
        }
        let references = try value("reference_frames")
        let indices = references.value.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard indices.allSatisfy({ $0.map { (0..<frames.count).contains($0) } ?? false }) else {
            throw VRenderError.input("\(path):\(references.line)", "reference frames '\(references.value)' are not frame numbers of its \(frames.count) frames")
        }
        let threads = try value("decoder_threads")
        guard let threadCount = Int(threads.value), threadCount >= 0 else {
            throw VRenderError.input("\(path):\(threads.line)", "decoder_threads '\(threads.value)' is not a number")
        }
        let base = try value("time_base")
        let parts = base.value.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
            throw VRenderError.input("\(path):\(base.line)", "time_base '\(base.value)' is not N/D")
        }
        return GoldenManifest(tolerance: tolerance, decoderThreads: threadCount, references: indices.compactMap { $0 }.sorted(),
                              timeBase: Rational(parts[0], parts[1]), source: header["source"]?.value ?? "", frames: frames)
    }

    /// `index, pts, duration, WxH, pix_fmt, md5`.
    private static func parseFrame(_ line: String, expectedIndex: Int, location: String) throws -> GoldenFrame {
        let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let size = fields.count == 6 ? fields[3].split(separator: "x").compactMap { Int($0) } : []
        guard fields.count == 6, let index = Int(fields[0]), let duration = Int64(fields[2]), size.count == 2,
              duration >= 0, size.allSatisfy({ (1...MediaLimits.maxSide).contains($0) }),
              fields[1] == "nopts" || Int64(fields[1]) != nil, fields[5].count == 32 else {
            throw VRenderError.input(location, "'\(line)' is not 'frame, pts, duration, WxH, pix_fmt, md5'")
        }
        guard index == expectedIndex else {
            throw VRenderError.input(location, "frame \(index) where frame \(expectedIndex) was expected")
        }
        return GoldenFrame(index: index, pts: Int64(fields[1]), duration: duration, width: size[0], height: size[1],
                           pixelFormat: fields[4], md5: fields[5])
    }
}
