import Foundation
import Testing
import VRenderCore
@testable import VRenderVerify

/// frames.txt, `--frames`/`--every`, and the rule that a check may only tighten a tolerance.
@Suite struct GoldenManifestTests {
    static let sample = GoldenManifest(
        tolerance: .psnr(33.5), decoderThreads: 1, references: [0, 2], timeBase: Rational(1, 15360), source: "export.mov",
        frames: (0..<3).map { GoldenFrame(index: $0, pts: Int64($0) * 512, duration: 512, width: 192, height: 108,
                                          pixelFormat: "yuv420p", md5: String(repeating: "\($0)", count: 32)) })

    @Test func rendersAndParsesBack() throws {
        let text = Self.sample.rendered()
        #expect(text.contains("#mode: lossy\n#tolerance: psnr 33.5 dB\n"))
        #expect(text.contains("\n1, 512, 512, 192x108, yuv420p, 11111111111111111111111111111111\n"))
        #expect(try GoldenManifest.parse(text, path: "g/frames.txt") == Self.sample)
        var exact = Self.sample
        exact.tolerance = nil
        exact.frames[1].pts = nil
        #expect(!exact.rendered().contains("#tolerance"))
        #expect(exact.rendered().contains("\n1, nopts, 512,"))
        #expect(try GoldenManifest.parse(exact.rendered(), path: "g/frames.txt") == exact)
    }

    @Test(arguments: [
        ("#vrender-golden: 1\n", "no '#mode:' line"),
        ("#vrender-golden: 9\n#mode: exact\n", "golden format 9"),
        ("#vrender-golden: 1\n#mode: lossy\n#tolerance: psnr x\n", "g/frames.txt:3: tolerance 'psnr x'"),
        ("#vrender-golden: 1\n#mode: fuzzy\n", "g/frames.txt:2: mode 'fuzzy'"),
        ("#vrender-golden: 1\n#mode: exact\n0, 0, 512, 192x108, yuv420p\n", "g/frames.txt:3: '0, 0, 512, 192x108, yuv420p' is not"),
        ("#vrender-golden: 1\n#mode: exact\n1, 0, 512, 192x108, yuv420p, 00000000000000000000000000000000\n",
         "frame 1 where frame 0 was expected"),
    ])
    func damagedFilesNameTheLine(text: String, message: String) {
        #expect {
            try GoldenManifest.parse(text, path: "g/frames.txt")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func referencesMustBeFramesOfTheGolden() {
        let text = Self.sample.rendered().replacingOccurrences(of: "#reference_frames: 0,2", with: "#reference_frames: 0,7")
        #expect(throws: VRenderError.self) { try GoldenManifest.parse(text, path: "g/frames.txt") }
    }

    @Test func frameListsResolveAgainstTheCount() throws {
        #expect(try FrameSelection.standard.resolve(frameCount: 90, video: "v") == [0, 45, 89])
        #expect(try FrameSelection.parse(frames: "last, 3,middle,3").resolve(frameCount: 10, video: "v") == [3, 5, 9])
        #expect(try FrameSelection.parse(every: 30).resolve(frameCount: 90, video: "v") == [0, 30, 60])
        #expect(try FrameSelection.standard.resolve(frameCount: 1, video: "v") == [0])
    }

    @Test(arguments: ["", "1,,2", "-1", "first", "1.5"])
    func badFrameListsNameTheOption(_ text: String) {
        #expect { try FrameSelection.parse(frames: text) } throws: { error in
            (error as? VRenderError)?.subject == "--frames"
        }
    }

    @Test func aFrameBeyondTheVideoIsAnError() {
        #expect { try FrameSelection.parse(frames: "0,90").resolve(frameCount: 90, video: "take.mov") } throws: { error in
            "\(error)" == "--frames: frame 90 is beyond the end of take.mov, whose last frame is 89"
        }
        #expect(throws: VRenderError.self) { try FrameSelection.parse(every: 0) }
    }

    @Test func aCheckMayOnlyTightenTheStoredTolerance() throws {
        #expect(try GoldenTolerance.effective(stored: .psnr(35), requested: nil, golden: "g") == .psnr(35))
        #expect(try GoldenTolerance.effective(stored: .psnr(35), requested: .psnr(40), golden: "g") == .psnr(40))
        #expect(try GoldenTolerance.effective(stored: .ssim(0.9), requested: .ssim(0.95), golden: "g") == .ssim(0.95))
        #expect(try GoldenTolerance.effective(stored: nil, requested: nil, golden: "g") == nil)
        #expect { try GoldenTolerance.effective(stored: .psnr(35), requested: .psnr(30), golden: "g") } throws: { error in
            "\(error)" == "--psnr: psnr 30 dB is looser than the psnr 35 dB g was recorded with: a check may only tighten it"
        }
        #expect { try GoldenTolerance.effective(stored: .psnr(35), requested: .ssim(0.99), golden: "g") } throws: { error in
            (error as? VRenderError)?.subject == "--ssim" && "\(error)".contains("psnr 35 dB")
        }
        #expect { try GoldenTolerance.effective(stored: nil, requested: .ssim(0.99), golden: "g") } throws: { error in
            "\(error)".contains("g is an exact golden")
        }
    }

    @Test func tolerancesReadBackAsWritten() {
        for tolerance in [GoldenTolerance.psnr(35), .psnr(33.5), .ssim(0.98), .ssim(1)] {
            #expect(GoldenTolerance(tolerance.description) == tolerance)
        }
        #expect(GoldenTolerance("psnr 35") == nil)
        #expect(GoldenTolerance("ssim 1.5") == nil)
    }
}
