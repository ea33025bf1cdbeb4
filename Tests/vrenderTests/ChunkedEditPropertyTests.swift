import Foundation
import Testing
import VRenderCore
import VRenderTestSupport

/// Issue 36: a chunked export (`--engine local --chunks N`) is the one-pass export, picture for
/// picture and sample for sample, whatever the edit. Each case is drawn from a seed: 1–5 takes
/// in a random order with random in and out points, 2, 3 or 5 chunks, with or without
/// `--trim-silence`, `--cut-pauses`, `--transition fade`/`dip` and `--loudness`; both exports
/// are lossless (FFV1) and judged by ffmpeg: the framemd5 of every picture (timestamps
/// included) and the md5 of the decoded sound. The seeds are fixed, so a failing case fails
/// again by its seed; `VRENDER_WIDE=1` (`make test-chunks-wide`) runs many more of them.
@Suite struct ChunkedEditPropertyTests {
    /// The quick run's seeds, picked so that between them every option is on and off, every
    /// take count and chunk count comes up, and some take starts past its first keyframe
    /// (`fastSeedsCoverEveryOption` checks it).
    static let fastSeeds: [UInt64] = [6, 10, 13, 19, 27, 28]
    static let seeds: [UInt64] = ProcessInfo.processInfo.environment["VRENDER_WIDE"] == "1" ? Array(1...60) : fastSeeds

    @Test("chunked equals one pass", arguments: seeds.map(EditCase.init))
    func chunkedExportEqualsOnePass(edit: EditCase) throws {
        let folder = try TakeLibrary.folder(for: edit.takes)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard let (onePass, chunked) = try exportBothWays(folder, options: edit.options, chunks: edit.chunks) else {
            #expect(!Self.fastSeeds.contains(edit.seed), "a quick case must be an edit that can be made: \(edit)")
            return
        }
        let expected = decoded(onePass), got = decoded(chunked)
        #expect(!expected.pictures.isEmpty && !expected.sound.isEmpty, "\(edit)")
        #expect(got.pictures == expected.pictures, "pictures of \(edit)")
        #expect(got.sound == expected.sound, "sound of \(edit)")
    }

    /// The report: a take trimmed at 2 s lost the first 88 ms of its sound in chunks (the clap
    /// at 2.000 s with it), where one pass kept them; so did an in point of 1.5 s. The sound
    /// job read the take from its start, through the hole between its AAC priming packet and
    /// its first sound (`TakeSoundTrack.begin`), and the hole came out as silence at the in point.
    @Test("a take trimmed at the start keeps its first sound in chunks", arguments: [(2.0, 0.0), (1.5, 0.5)])
    func trimmedStartKeepsItsSound(inPoint: Double, firstClap: Double) throws {
        let folder = try TakeLibrary.folder(for: [Trimmed(take: 0, inPoint: inPoint, outPoint: nil)])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (onePass, chunked) = try #require(try exportBothWays(folder, options: [], chunks: 2))
        let expected = decoded(onePass), got = decoded(chunked)
        #expect(got.sound == expected.sound && got.pictures == expected.pictures)
        // The synthetic clapper claps on every whole second of the take: the first one kept is
        // heard `firstClap` seconds after the first picture, in both exports.
        let videoStart = try #require(Double(ProgramRun.ffprobe(chunked, stream: "v", entries: "stream=start_time")))
        let clicks = ProgramRun.clickTimes(chunked, scratch: folder)
        let first = try #require(clicks.first, "no clap in the chunked export")
        #expect(abs(first - videoStart - firstClap) < 0.002, "first clap at \(first) s, video from \(videoStart) s")
        #expect(clicks == ProgramRun.clickTimes(onePass, scratch: folder))
    }

    /// Pure: the quick seeds still cover what the property is about (a change to how cases are
    /// drawn must pick them again).
    @Test func fastSeedsCoverEveryOption() {
        let edits = Self.fastSeeds.map(EditCase.init)
        let options = edits.map(\.options)
        #expect(Set(edits.map(\.takes.count)) == Set(1...5))
        #expect(Set(edits.map(\.chunks)) == [2, 3, 5])
        for option in ["--trim-silence", "--cut-pauses", "--loudness", "--transition"] {
            #expect(options.contains { $0.contains(option) } && options.contains { !$0.contains(option) }, "\(option)")
        }
        for transition in ["fade:0.2", "dip:0.2"] {
            #expect(options.contains { $0.contains(transition) }, "\(transition)")
        }
        #expect(edits.contains { $0.takes.contains { ($0.inPoint ?? 0) >= 1.5 } }, "an in point past the first keyframe")
    }

    // MARK: - Exports

    /// The one-pass and the chunked export of `folder` with `options`; nil when one pass
    /// refused the edit (a take cut shorter than its transitions), which the chunked export
    /// must then refuse with the same words.
    func exportBothWays(_ folder: String, options: [String], chunks: Int) throws -> (onePass: String, chunked: String)? {
        let common = ["concat", folder, "--codec", "ffv1", "--progress", "none"] + options
        let onePass = folder + "/one-pass.mkv", chunked = folder + "/chunked.mkv"
        let whole = ProgramRun.run(CommandLineTests.binary, common + ["-o", onePass])
        let split = ProgramRun.run(CommandLineTests.binary, common + ["-o", chunked, "--engine", "local",
                                                                       "--chunks", "\(chunks)", "--workers", "2"])
        if whole.status != 0 {
            #expect(split.status == whole.status && split.standardError.contains(whole.standardError.errorLine),
                    "one pass refused (\(whole.standardError)); chunked: \(split.standardError)")
            return nil
        }
        try #require(split.status == 0, "\(split.standardError)")
        return (onePass, chunked)
    }

    /// Every picture's framemd5 line (stream, timestamps, size, hash) and the decoded sound's md5.
    func decoded(_ file: String) -> (pictures: [Substring], sound: String) {
        let pictures = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        let sound = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:a", "-f", "md5", "-"])
        return (pictures.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") },
                sound.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

private extension String {
    /// The `vrender: error:` line of a failed run's standard error.
    var errorLine: String {
        split(separator: "\n").first { $0.hasPrefix("vrender: error:") }.map(String.init) ?? self
    }
}

/// One take of the library in a case, with its trim (nil: none; seconds from its first picture).
struct Trimmed: Sendable, Equatable {
    var take: Int
    var inPoint: Double?
    var outPoint: Double?
}

/// One drawn edit. Trims keep at least 1.2 s of a take (in points up to 1.8 s, past the first
/// keyframe at 1 s), so that silence cuts still leave room for the transitions.
struct EditCase: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    let seed: UInt64
    var takes: [Trimmed] = []
    var chunks = 2
    var options: [String] = []

    init(seed: UInt64) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        let count = random.next(in: 1...5)
        var order = Array(0..<TakeLibrary.count)
        for index in stride(from: order.count - 1, to: 0, by: -1) {
            order.swapAt(index, random.next(in: 0...index))
        }
        for take in order.prefix(count) {
            let kind = random.next(in: 0...3)  // bit 0: an in point, bit 1: an out point
            let inMilliseconds = kind & 1 != 0 ? random.next(in: 0...1800) : 0
            let outMilliseconds = kind & 2 != 0 ? Swift.min(3000, inMilliseconds + 1200 + random.next(in: 0...600)) : nil
            takes.append(Trimmed(take: take, inPoint: kind == 0 ? nil : Double(inMilliseconds) / 1000,
                                 outPoint: outMilliseconds.map { Double($0) / 1000 }))
        }
        chunks = [2, 3, 5][random.next(in: 0...2)]
        if random.next(in: 0...1) == 1 {
            options += ["--trim-silence"]
            if random.next(in: 0...1) == 1 { options += ["--cut-pauses", "0.3s"] }
        }
        let transition = [nil, "fade:0.2", "dip:0.2"][random.next(in: 0...2)]
        if let transition { options += ["--transition", transition] }
        if random.next(in: 0...1) == 1 { options += ["--loudness", "-16"] }
    }

    var description: String {
        let trims = takes.map { "\($0.take + 1)[\($0.inPoint.map { "\($0)" } ?? "")–\($0.outPoint.map { "\($0)" } ?? "")]" }
        return "seed \(seed): takes \(trims.joined(separator: " ")), \(chunks) chunks \(options.joined(separator: " "))"
    }

    var testDescription: String { description }
}

/// Five 3 s takes at 96x64 that the cases draw from, recorded once per test run: three from the
/// synthetic microphone at 48 kHz mono with a 700 ms dropout at 1 s (a pause for
/// `--cut-pauses`), two at 44.1 kHz stereo with a clock 300 ppm fast (resampled on export).
/// Every take has a hole between its AAC priming packet and its first sound: issue 36's.
enum TakeLibrary {
    static let count = 5

    /// The folder of the five takes and their takes.json entries, in the order A B A B A.
    private static let recorded: Result<(folder: String, entries: Data), LibraryError> = record()

    struct LibraryError: Error { var message: String }

    private static func record() -> Result<(folder: String, entries: Data), LibraryError> {
        let folder = TestMedia.scratchDirectory()
        let script = folder + "/dropout.txt"
        let common = ["capture", "--device", "synthetic", "--audio", "synthetic", "--duration", "3s",
                      "--size", "96x64", "--codec", "h264"]
        do {
            try "at 1s audio-gap 700ms\n".write(toFile: script, atomically: true, encoding: .utf8)
            let mono = ProgramRun.run(CommandLineTests.binary, common + ["--takes", "3", "--script", script, "--out", folder + "/a"])
            let stereo = ProgramRun.run(CommandLineTests.binary, common + [
                "--takes", "2", "--audio-rate", "44100", "--audio-channels", "2", "--audio-drift", "300", "--out", folder + "/b"])
            guard mono.status == 0, stereo.status == 0 else {
                return .failure(LibraryError(message: mono.standardError + stereo.standardError))
            }
            let a = try manifest(folder + "/a"), b = try manifest(folder + "/b")
            let entries = [a[0], b[0], a[1], b[1], a[2]]
            for (entry, source) in zip(entries, ["a", "b", "a", "b", "a"]) {
                guard let file = entry["file"] as? String else { return .failure(LibraryError(message: "a take without a file")) }
                try FileManager.default.moveItem(atPath: "\(folder)/\(source)/\(file)", toPath: "\(folder)/\(file)")
            }
            return .success((folder, try JSONSerialization.data(withJSONObject: entries)))
        } catch {
            return .failure(LibraryError(message: "\(error)"))
        }
    }

    /// A new takes folder holding `takes` in that order with their trims (copies of the files).
    static func folder(for takes: [Trimmed]) throws -> String {
        let library = try recorded.get()
        let entries = try #require(try JSONSerialization.jsonObject(with: library.entries) as? [[String: Any]])
        let folder = TestMedia.scratchDirectory()
        var chosen: [[String: Any]] = []
        for take in takes {
            var entry = entries[take.take]
            let file = try #require(entry["file"] as? String)
            try FileManager.default.copyItem(atPath: "\(library.folder)/\(file)", toPath: "\(folder)/\(file)")
            if take.inPoint != nil || take.outPoint != nil {
                var trim: [String: Double] = ["in": take.inPoint ?? 0]
                trim["out"] = take.outPoint
                entry["trim"] = trim
            }
            chosen.append(entry)
        }
        let data = try JSONSerialization.data(withJSONObject: ["takes": chosen], options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: folder + "/takes.json"))
        return folder
    }
}
