import Foundation
import Testing
import VRenderCore
import VRenderImaging
import VRenderTestSupport
@testable import VRenderVerify

/// Record, check and diff on small videos made by the ffmpeg CLI from the shared test media.
@Suite struct GoldenRecordCheckTests {
    let scratch = ScratchFolder()
    static let original = TestMedia.path("small_a.mov")   // 30 frames, 320x240

    /// Variants of `original`, made once: re-encoded near-losslessly (x264 crf 10: 54.7 dB or
    /// more on every frame) and lossily (crf 30: 40.4 dB at most), and its first 20 frames losslessly (same frames,
    /// same time base).
    static let variants: (fine: String, coarse: String, cut: String) = {
        let folder = TestMedia.scratchDirectory()
        func make(_ name: String, _ arguments: [String]) -> String {
            let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", original, "-an"] + arguments + [folder + "/" + name])
            precondition(made.status == 0, made.standardError)
            return folder + "/" + name
        }
        return (make("fine.mov", ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "10"]),
                make("coarse.mov", ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "30"]),
                make("cut.mov", ["-frames:v", "20", "-c:v", "ffv1"]))
    }()

    private func record(_ video: String = original, _ name: String = "g", frames: FrameSelection = .standard,
                        tolerance: GoldenTolerance? = nil) throws -> GoldenRecordSummary {
        try GoldenRecorder(options: GoldenRecordOptions(video: video, golden: scratch.path + "/" + name, frames: frames,
                                                        tolerance: tolerance)).record()
    }

    private func check(_ video: String, _ name: String = "g", tolerance: GoldenTolerance? = nil,
                       threads: Int = 1) throws -> GoldenCheckReport {
        try GoldenChecker(options: GoldenCheckOptions(video: video, golden: scratch.path + "/" + name, tolerance: tolerance,
                                                      threads: threads)).check()
    }

    private func files(_ name: String = "g") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scratch.path + "/" + name)) ?? []).sorted()
    }

    @Test func anExactGoldenOfAVideoMatchesItAtAnyThreadCount() throws {
        let recorded = try record()
        #expect(recorded.frames == 30 && recorded.references == [0, 15, 29] && recorded.mode == "exact")
        #expect(files() == ["frame-000000.png", "frame-000015.png", "frame-000029.png", "frames.txt"])
        let reference = try PNGReader.read(scratch.path + "/g/frame-000015.png")
        #expect(reference.width == 320 && reference.height == 240)
        for threads in [1, 2] {
            let report = try check(Self.original, threads: threads)
            #expect(report.passed, "\(report.differences)")
            #expect(report.summary == "golden: 30 frames match \(scratch.path)/g (exact)")
        }
    }

    @Test func anExactGoldenFailsOnEveryChangedFrameAndMapsItsReferences() throws {
        _ = try record()
        let report = try check(Self.variants.fine)
        #expect(!report.passed)
        #expect(report.differences.filter { $0.what == "md5" }.count == 30)
        let pictures = report.differences.filter { $0.what == "picture" }
        #expect(pictures.map(\.frame) == [0, 15, 29])
        #expect(pictures.first?.got.hasPrefix("psnr ") == true)
        #expect(report.diffImages == [0, 15, 29].map { GoldenFolder(path: scratch.path + "/g").diffPath($0) })
        let map = try PNGReader.read(report.diffImages[0])
        #expect(map.width == 320 && map.height == 240 + HeatMap.legendHeight)
        #expect(report.failure.hasPrefix("does not match \(scratch.path)/g (exact): 33 difference(s) in 30 frame(s); heat maps: "))
        // Once the video matches again, the heat maps go.
        #expect(try check(Self.original).passed)
        #expect(!files().contains { $0.hasPrefix("diff-") })
    }

    @Test func aLossyGoldenHoldsEachReferenceToItsTolerance() throws {
        _ = try record(tolerance: .psnr(45))
        let fine = try check(Self.variants.fine)
        #expect(fine.passed, "\(fine.differences)")
        #expect(fine.scores.map(\.frame) == [0, 15, 29])
        #expect(fine.scores.allSatisfy { $0.psnr > 50 && $0.ssim > 0.99 })
        #expect(fine.summary.contains("(lossy, psnr >= 45 dB); worst reference frame "))

        let coarse = try check(Self.variants.coarse)
        #expect(!coarse.passed)
        #expect(coarse.differences.map(\.what) == ["psnr", "psnr", "psnr"])
        #expect(coarse.differences.first?.expected == ">= 45.00 dB")
        #expect(coarse.diffImages.count == 3)
        // A tighter tolerance fails the fine copy too; the hashes of a lossy golden are not checked.
        #expect(try !check(Self.variants.fine, tolerance: .psnr(60)).passed)
        #expect(throws: VRenderError.self) { try check(Self.variants.fine, tolerance: .ssim(0.5)) }
    }

    @Test("across containers: times compared and shown in seconds; a time base alone is only a note")
    func acrossContainers() throws {
        _ = try record()
        let folder = TestMedia.scratchDirectory()
        func remux(_ name: String, _ extra: [String]) throws -> String {
            let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", Self.original, "-an", "-c", "copy"]
                + extra + [folder + "/" + name])
            try #require(made.status == 0, "\(made.standardError)")
            return folder + "/" + name
        }
        let same = try check(try remux("same.mkv", []))
        #expect(same.passed, "\(same.differences)")
        #expect(same.summary.contains("; only the container's time base differs (1/1000, the golden's "), "\(same.summary)")
        let late = try check(try remux("late.mkv", ["-output_ts_offset", "0.5"]))
        #expect(!late.passed)
        #expect(late.differences.first?.what == "time base" && late.differences.first?.got == "1/1000")
        let first = try #require(late.differences.first { $0.what == "pts" && $0.frame == 0 })
        let expected = try #require(Double(first.expected.dropLast(2))), got = try #require(Double(first.got.dropLast(2)))
        #expect(first.got.hasSuffix(" s") && abs(got - expected - 0.5) < 1e-9, "\(first)")
        #expect(!late.differences.contains { $0.what == "duration" }, "the same durations in other units")
    }

    @Test func secondsAreShortAndExact() {
        #expect(FrameComparison.seconds(21, Rational(1, 30)) == "0.7 s")
        #expect(FrameComparison.seconds(512, Rational(1, 15360)) == "0.033333 s")
        #expect(FrameComparison.seconds(0, Rational(1, 1000)) == "0.0 s")
        #expect(FrameComparison.seconds(nil, Rational(1, 1000)) == "nopts")
    }

    @Test func missingAndExtraFramesAreReported() throws {
        _ = try record()
        let short = try check(Self.variants.cut)
        #expect(short.differences == [GoldenDifference(frame: nil, what: "frames", expected: "30", got: "20 (frames 20-29 missing)")])
        _ = try record(Self.variants.cut, "short", frames: .list([.last]))
        let long = try check(Self.original, "short")
        #expect(long.differences == [GoldenDifference(frame: nil, what: "frames", expected: "20", got: "30 (frames 20-29 extra)")])
    }

    @Test func recordingAgainReplacesTheGoldenAndItsStaleFiles() throws {
        _ = try record(frames: .list([.index(0), .index(5)]))
        _ = try check(Self.variants.fine)   // leaves heat maps
        #expect(files().contains("diff-000005.png"))
        let again = try record(frames: .every(10), tolerance: .ssim(0.95))
        #expect(again.removed.map { ($0 as NSString).lastPathComponent } == ["frame-000005.png", "diff-000000.png", "diff-000005.png"])
        #expect(files() == ["frame-000000.png", "frame-000010.png", "frame-000020.png", "frames.txt"])
        let text = try String(contentsOfFile: scratch.path + "/g/frames.txt", encoding: .utf8)
        #expect(text.contains("#mode: lossy\n#tolerance: ssim 0.95\n"))
        #expect(text.contains("#reference_frames: 0,10,20\n"))
        #expect(TestMedia.files(in: scratch.path + "/g", containing: "vrender-partial").isEmpty)
    }

    @Test func aFrameListBeyondTheVideoLeavesTheGoldenAsItWas() throws {
        _ = try record()
        let before = try String(contentsOfFile: scratch.path + "/g/frames.txt", encoding: .utf8)
        #expect { try record(frames: .list([.index(30)])) } throws: { error in
            "\(error)" == "--frames: frame 30 is beyond the end of \(Self.original), whose last frame is 29"
        }
        #expect(try String(contentsOfFile: scratch.path + "/g/frames.txt", encoding: .utf8) == before)
    }

    @Test func whatCannotBeCheckedIsAnErrorNamingIt() throws {
        let missing = scratch.path + "/none"
        #expect { try check(Self.original, "none") } throws: { "\($0)".hasPrefix("\(missing): no such golden folder") }
        try FileManager.default.createDirectory(atPath: scratch.path + "/empty", withIntermediateDirectories: true)
        #expect { try check(Self.original, "empty") } throws: { "\($0)".contains("/empty: is not a golden: it has no readable frames.txt") }
        _ = try record()
        let notes = TestMedia.path("bad/notes.mov")
        #expect { try check(notes) } throws: { "\($0)".hasPrefix("\(notes): ") }
        #expect { try check(scratch.path + "/missing.mov") } throws: { "\($0)" == "\(scratch.path)/missing.mov: no such file" }
        #expect { try check(Self.original, tolerance: .psnr(30)) } throws: { ($0 as? VRenderError)?.kind == .option }
        #expect { try record(notes, "other") } throws: { "\($0)".hasPrefix("\(notes): ") }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/other"), "a failed record makes no folder")
    }

    @Test func diffScoresEveryFrameAndNamesTheWorst() throws {
        let same = try VideoDiff.compare(Self.original, Self.original)
        #expect(same.scores.count == 30 && same.scores.allSatisfy { $0.psnr == .infinity && $0.ssim == 1 })
        #expect(same.meanPSNR == nil)
        let coarse = try VideoDiff.compare(Self.original, Self.variants.coarse)
        let worst = try #require(coarse.worst)
        #expect(coarse.scores.allSatisfy { $0.psnr >= worst.psnr })
        #expect(worst.psnr > 30 && worst.psnr < 40)
        let short = try VideoDiff.compare(Self.variants.cut, Self.original)
        #expect(short.scores.count == 20 && short.firstFrames == 20 && short.secondFrames == 30)
        let other = TestMedia.path("hevc_640x480_25_aac44k_mono.mp4")
        #expect { try VideoDiff.compare(Self.original, other) } throws: { error in
            "\(error)".contains("is 320x240 but \(other)'s is 640x480")
        }
    }
}
