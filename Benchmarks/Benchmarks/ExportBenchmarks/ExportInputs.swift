// The media the export benchmarks read: takes made once by the ffmpeg CLI (so vrender reads files
// it did not write), cached in a folder that survives between runs, and written under a
// temporary name first so an interrupted run never leaves half a take behind.

import Foundation
import VRenderMedia

enum ExportInputs {
    /// `VRENDER_BENCH_MEDIA`, else `Benchmarks/.build/bench-media` (git-ignored; a clean clone
    /// makes it on its first run, in a few seconds).
    static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment["VRENDER_BENCH_MEDIA"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // This file is Benchmarks/Benchmarks/ExportBenchmarks/ExportInputs.swift.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return package.appendingPathComponent(".build/bench-media", isDirectory: true)
    }()

    /// Where the benchmarks write their outputs (overwritten by every run).
    static func scratch(_ name: String) throws -> String {
        let outputs = folder.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        return outputs.appendingPathComponent(name).path
    }

    /// Take `number` (1 or 2): 1 s of 1920x1080 30 fps H.264 (libx264 veryfast, a keyframe
    /// every 30 frames, B-frames) + AAC 48 kHz stereo in .mov, as a camera records; a different
    /// tone per take. Single-threaded, bit-exact encoding: the same bytes on every machine with
    /// the same FFmpeg.
    static func take(_ number: Int) throws -> String {
        let path = folder.appendingPathComponent("take-1080p30-h264-aac-\(number).mov").path
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let partial = path + ".partial.mov"
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=1",
            "-f", "lavfi", "-i", "sine=frequency=\(220 * (number + 1)):sample_rate=48000:duration=1",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-ac", "2", "-shortest", "-threads", "1", "-map_metadata", "-1",
            "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", partial,
        ])
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    /// Video frames in `path`: its video stream's packets, one per frame for every codec these
    /// benchmarks read and write.
    static func videoFrameCount(_ path: String) throws -> Int {
        let video = try Probe.probe(path).video.index
        let demuxer = try Demuxer(path: path)
        let packet = Packet()
        var frames = 0
        while demuxer.read(into: packet) {
            if packet.streamIndex == video { frames += 1 }
        }
        return frames
    }

    private static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ExportInputsError(description: "ffmpeg failed (status \(process.terminationStatus)) making \(arguments.last ?? "")")
        }
    }
}

struct ExportInputsError: Error, CustomStringConvertible {
    let description: String
}
