import VRenderMedia

extension Doctor {
    /// The video encoders behind `--codec`, then the sound encoders. The default codec (`auto`:
    /// x265, else x264) and AAC are core: every take and every .mov/.mp4 export needs them.
    /// `has` answers whether this FFmpeg has an encoder (a test passes its own).
    static func encoders(has: (String) -> Bool = FFmpegLibraries.hasEncoder) -> [DoctorFinding] {
        let video: [(VideoCodecChoice, String, String)] = [
            (.hevc, "x265", "HEVC: the default (--codec auto)"),
            (.h264, "x264", "H.264: --codec h264, and auto's fallback"),
            (.av1, "SVT-AV1", "AV1: --codec av1 (.webm, .mkv)"),
            (.vp9, "VP9", "VP9: --codec vp9 (.webm)"),
            (.ffv1, "FFV1", "lossless: --codec ffv1 (.mkv)"),
        ]
        let defaultWorks = VideoCodecChoice.auto.candidates.contains(where: has)
        // x265 and x264 are each optional while the other is here: core only when both are gone.
        var findings = video.map { codec, name, use in
            encoder(name: name, candidates: codec.candidates, use: use, isCore: !defaultWorks && [.hevc, .h264].contains(codec),
                    has: has)
        }
        findings.append(encoder(name: "AAC", candidates: ["aac"], use: "sound in .mov and .mp4", isCore: true, has: has))
        findings.append(encoder(name: "Opus", candidates: ["libopus"], use: "sound in .webm", isCore: false, has: has))
        return findings
    }

    /// One encoder line: the first of `candidates` this FFmpeg has, or what is missing.
    private static func encoder(name: String, candidates: [String], use: String, isCore: Bool,
                                has: (String) -> Bool) -> DoctorFinding {
        if let found = candidates.first(where: has) {
            return DoctorFinding(area: "encoder", name: name, status: .ok, detail: "\(found): \(use)", isCore: isCore)
        }
        return DoctorFinding(area: "encoder", name: name, status: .missing,
                             detail: "this FFmpeg has no \(candidates.joined(separator: " or ")): \(use)",
                             fix: "install Debian's FFmpeg libraries (libavcodec59 has it), or an FFmpeg built with it",
                             isCore: isCore)
    }
}
