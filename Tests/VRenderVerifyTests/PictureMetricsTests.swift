import Foundation
import Testing
import VRenderImaging
import VRenderTestSupport
@testable import VRenderVerify

/// PSNR and SSIM from their definitions, and against FFmpeg's `psnr` and `ssim` filters.
@Suite struct PictureMetricsTests {
    let scratch = ScratchFolder()

    /// A deterministic picture: gradients, a pattern and pseudo-random grain from `seed`.
    static func picture(width: Int = 96, height: Int = 64, seed: UInt64, grain: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let noise = grain == 0 ? 0 : Int(state >> 33) % (2 * grain + 1) - grain
                    let base = (x * 255 / width + channel * 60 + ((x / 8 + y / 8) % 2) * 40) % 256
                    image.pixels[(y * width + x) * 3 + channel] = UInt8(clamping: base + noise)
                }
            }
        }
        return image
    }

    @Test func identicalPicturesAreInfinitePSNRAndSSIMOne() {
        let image = Self.picture(seed: 1, grain: 20)
        let metrics = PictureMetrics()
        #expect(metrics.psnr(image, image) == .infinity)
        #expect(metrics.ssim(image, image) == 1)
    }

    @Test func psnrFollowsItsDefinition() {
        let a = RGBImage(width: 10, height: 10, fill: (100, 100, 100))
        var b = a
        b.pixels[0] = 110   // one sample off by 10: MSE = 100 / 300
        let expected = 10 * log10(255.0 * 255.0 / (100.0 / 300.0))
        #expect(abs(PictureMetrics().psnr(a, b) - expected) < 1e-9)
    }

    @Test func ssimOfAFlatShiftFollowsTheLuminanceTerm() {
        // Flat pictures have no variance: SSIM is (2·μa·μb + C1) / (μa² + μb² + C1) everywhere.
        let a = RGBImage(width: 32, height: 32, fill: (100, 100, 100))
        let b = RGBImage(width: 32, height: 32, fill: (120, 120, 120))
        let c1 = (0.01 * 255) * (0.01 * 255)
        let expected = (2 * 100 * 120 + c1) / (100 * 100 + 120 * 120 + c1)
        #expect(abs(PictureMetrics().ssim(a, b) - expected) < 1e-12)
    }

    @Test func tinyPicturesAreOneWindow() {
        let a = RGBImage(width: 5, height: 3, fill: (10, 20, 30))
        var b = a
        b.pixels[4] = 40
        let ssim = PictureMetrics().ssim(a, b)
        #expect(ssim > 0 && ssim < 1)
    }

    @Test func threadCountDoesNotChangeABit() {
        let a = Self.picture(width: 320, height: 240, seed: 2, grain: 30)
        let b = Self.picture(width: 320, height: 240, seed: 3, grain: 30)
        let one = PictureMetrics(threads: 1), four = PictureMetrics(threads: 4), seven = PictureMetrics(threads: 7)
        #expect(one.psnr(a, b).bitPattern == four.psnr(a, b).bitPattern)
        #expect(one.ssim(a, b).bitPattern == four.ssim(a, b).bitPattern)
        #expect(one.ssim(a, b).bitPattern == seven.ssim(a, b).bitPattern)
        // Reusing the buffers for another size changes nothing either.
        let small = (Self.picture(seed: 4, grain: 5), Self.picture(seed: 5, grain: 5))
        #expect(four.ssim(small.0, small.1) == PictureMetrics(threads: 1).ssim(small.0, small.1))
    }

    @Test func moreNoiseScoresLower() {
        let clean = Self.picture(seed: 6, grain: 0)
        let metrics = PictureMetrics()
        let light = metrics.psnr(clean, Self.picture(seed: 7, grain: 4))
        let heavy = metrics.psnr(clean, Self.picture(seed: 7, grain: 40))
        #expect(light > heavy)
        #expect(metrics.ssim(clean, Self.picture(seed: 7, grain: 4)) > metrics.ssim(clean, Self.picture(seed: 7, grain: 40)))
    }

    /// The ffmpeg CLI's `average:` (psnr) and `All:` (ssim) for two PNGs.
    private func ffmpeg(_ filter: String, _ key: String, _ first: String, _ second: String) -> Double? {
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-hide_banner", "-i", first, "-i", second, "-lavfi", "[0][1]\(filter)",
                                                     "-f", "null", "-"])
        guard let range = run.standardError.range(of: key) else { return nil }
        return Double(run.standardError[range.upperBound...].prefix { "0123456789.".contains($0) })
    }

    /// FFmpeg's filters agree within 0.01 dB (PSNR: the same definition) and 0.002 (SSIM:
    /// FFmpeg's windows are ours, its statistics use x264's 63/64 normalisation, ours Wang's).
    @Test(arguments: [4, 12, 40])
    func agreesWithFFmpegsFilters(grain: Int) throws {
        let a = Self.picture(width: 160, height: 120, seed: 8, grain: 0)
        let b = Self.picture(width: 160, height: 120, seed: 9, grain: grain)
        let first = scratch.path + "/a-\(grain).png", second = scratch.path + "/b-\(grain).png"
        try PNGWriter.write(a, to: first)
        try PNGWriter.write(b, to: second)
        let metrics = PictureMetrics()
        let psnr = try #require(ffmpeg("psnr", "average:", first, second))
        let ssim = try #require(ffmpeg("ssim", "All:", first, second))
        #expect(abs(metrics.psnr(a, b) - psnr) < 0.01, "ours \(metrics.psnr(a, b)), ffmpeg \(psnr)")
        #expect(abs(metrics.ssim(a, b) - ssim) < 0.002, "ours \(metrics.ssim(a, b)), ffmpeg \(ssim)")
    }

    @Test func heatMapShowsWhereAndHowMuch() {
        let a = RGBImage(width: 40, height: 30, fill: (50, 50, 50))
        var b = a
        b.fill(x: 10, y: 10, width: 5, height: 5, color: (90, 50, 50))
        let map = HeatMap.render(expected: a, got: b)
        #expect(map.width == 40 && map.height == 30 + HeatMap.legendHeight)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(map.pixels[((y * 40 + x) * 3)..<((y * 40 + x) * 3 + 3)]) }
        #expect(pixel(0, 0) == [0, 0, 0], "no difference is black")
        #expect(pixel(12, 12) == [255, 255, 255], "the largest difference is the top of the ramp")
    }
}
