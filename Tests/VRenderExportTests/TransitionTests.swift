import Foundation
import Testing
import VRenderCore
import VRenderFilters
import VRenderTestSupport
@testable import VRenderExport

/// `--transition`: the timeline's arithmetic, the option's errors, the blend kernel, and exports
/// of takes made by ffmpeg (moving pictures, sines of different frequencies and phases) judged
/// by ffmpeg: length, sound without clicks, dissolved pictures, chunks equal to one pass.
@Suite struct TransitionTests {
    let directory = TestMedia.scratchDirectory()

    // MARK: - Timeline and plan arithmetic

    @Test func overlapsShortenTheTimelineByWholeFrames() {
        let timeline = Timeline(durations: [3, 2, 2, 2], frameRate: Rational(30, 1), overlapSlots: 15)
        #expect(timeline.takes.map(\.firstSlot) == [0, 75, 120, 165])
        #expect(timeline.takes.map(\.slotCount) == [90, 60, 60, 60])
        #expect(timeline.totalSlots == 270 - 3 * 15)
        #expect((1...3).map { timeline.overlapSamples(beforeTake: $0) } == [24_000, 24_000, 24_000])
        #expect(timeline.totalSamples == 225 * 1600)
    }

    @Test func overlapRoundingNeverAccumulates() {
        // 30 takes of 1/7 s at 25 fps, 1 frame shared at each join: exactly 29 frames shorter
        // than the same takes cut, which stay within half a frame of the exact sum.
        let durations = Array(repeating: 1.0 / 7.0, count: 30)
        let cut = Timeline(durations: durations, frameRate: Rational(25, 1))
        let faded = Timeline(durations: durations, frameRate: Rational(25, 1), overlapSlots: 1)
        #expect(faded.totalSlots == cut.totalSlots - 29)
        #expect(zip(cut.takes, faded.takes).allSatisfy { $0.slotCount == $1.slotCount })
    }

    @Test func soundOverlapsTheSameInstantsAsThePictures() {
        // NTSC: a frame is 1601.6 samples, so overlaps of 7 frames are 11211 or 11212 samples.
        let timeline = Timeline(durations: [1.01, 2.37, 0.5, 3], frameRate: Rational(30000, 1001), overlapSlots: 7)
        for index in 1..<timeline.takes.count {
            let take = timeline.takes[index], previous = timeline.takes[index - 1]
            #expect(take.firstSample == timeline.sample(atSlot: take.firstSlot))
            #expect(previous.firstSample + previous.sampleCount == timeline.sample(atSlot: previous.firstSlot + previous.slotCount))
            #expect(abs(Double(timeline.overlapSamples(beforeTake: index)) - 7 * 48_000 * 1001 / 30000) <= 1)
        }
        #expect(timeline.totalSamples == timeline.sample(atSlot: timeline.totalSlots))
    }

    @Test func planRoundsToFramesAndSaysWhatItDoes() throws {
        let cuts = Timeline(durations: [3, 2, 2, 2], frameRate: Rational(30, 1))
        let paths = ["a", "b", "c", "d"]
        let fade = try #require(try TransitionPlan.make(.fade(seconds: 0.51), cuts: cuts, paths: paths))
        #expect(fade.frames == 15 && fade.joins == 3 && fade.overlapSlots == 15)
        #expect(fade.description == "fade 0.50 s at 3 joins, -1.50 s")
        let dip = try #require(try TransitionPlan.make(.dip(seconds: 0.5), cuts: cuts, paths: paths))
        #expect(dip.frames == 8 && dip.overlapSlots == 0 && dip.lengthChange == 0)
        #expect(dip.description.hasPrefix("dip 0.53 s at 3 joins, +0.00 s"))
        #expect(try TransitionPlan.make(.cut, cuts: cuts, paths: paths) == nil)
        #expect(try TransitionPlan.make(.fade(seconds: 1), cuts: Timeline(durations: [3], frameRate: Rational(30, 1)), paths: ["a"]) == nil)
        #expect(fade.dissolveWeight(7) == 0.5)
        #expect(dip.dipOutGain(7) == 0 && dip.dipInGain(7) == 1)
    }

    @Test(arguments: ["fade", "fade:", "fade:0", "fade:-1", "fade:x", "fade:nan", "fade:11", "wipe:1", "cut:1", "dip", ""])
    func badTransitionsAreRefusedByName(_ text: String) {
        let error = #expect(throws: VRenderError.self) { try Transition(parsing: text) }
        #expect(error?.description.hasPrefix("--transition: '\(text)' is not cut, fade:TIME or dip:TIME") == true)
    }

    /// One syntax for times, editors' names for the kinds, and a hint by meaning or spelling.
    @Test func transitionsTakeAnyTimeSyntaxAndTheirOtherNames() throws {
        #expect(try Transition(parsing: "dissolve:0.5") == .fade(seconds: 0.5))
        #expect(try Transition(parsing: "fade:0.5s") == .fade(seconds: 0.5))
        #expect(try Transition(parsing: "crossfade:500ms") == .fade(seconds: 0.5))
        #expect(try Transition(parsing: "Dip-to-black:1") == .dip(seconds: 1))
        #expect(try Transition(parsing: "none") == .cut)
        let bare = #expect(throws: VRenderError.self) { try Transition(parsing: "dissolve") }
        #expect(bare?.description.hasSuffix("; give fade a length: fade:0.5") == true)
        let typo = #expect(throws: VRenderError.self) { try Transition(parsing: "fdae:1") }
        #expect(typo?.description.hasSuffix("; did you mean 'fade'?") == true, "\(String(describing: typo))")
    }

    @Test func goodTransitionsParseBack() throws {
        for text in ["cut", "fade:0.5", "dip:1.25", "fade:10"] {
            #expect(try Transition(parsing: try Transition(parsing: text).specification) == Transition(parsing: text))
        }
        #expect(try Transition(parsing: "fade:0.5") == .fade(seconds: 0.5))
    }

    @Test func takesTooShortAndTransitionsShorterThanAFrameAreRefused() {
        let cuts = Timeline(durations: [2, 0.5, 2], frameRate: Rational(30, 1))
        #expect(throws: VRenderError.option("--transition", "b.mov lasts 0.50 s (15 frames), shorter than the 18 frames its two "
                                            + "transitions need: use a shorter fade or leave the take out")) {
            try TransitionPlan.make(.fade(seconds: 0.3), cuts: cuts, paths: ["a.mov", "b.mov", "c.mov"])
        }
        #expect(throws: VRenderError.option("--transition", "fade:0.01 s is shorter than one frame at 30 fps")) {
            try TransitionPlan.make(.fade(seconds: 0.01), cuts: cuts, paths: ["a.mov", "b.mov", "c.mov"])
        }
        // Two transitions of 7 frames fit a take of 15: the take is never shown alone for a frame.
        #expect((try? TransitionPlan.make(.fade(seconds: 7.0 / 30), cuts: cuts, paths: ["a", "b", "c"])) != nil)
    }

    // MARK: - Blend kernel

    @Test func blendAveragesAndFadesToBlackIn8And10Bits() throws {
        var a = [UInt8](repeating: 100, count: 64 * 64 + 2 * 32 * 32)
        var b = [UInt8](repeating: 201, count: a.count)
        var out = [UInt8](repeating: 0, count: a.count)
        func image(_ bytes: UnsafeMutablePointer<UInt8>) -> YUVImage {
            YUVImage(luma: PlaneView(base: bytes, stride: 64, width: 64, height: 64),
                     cb: PlaneView(base: bytes + 4096, stride: 32, width: 32, height: 32),
                     cr: PlaneView(base: bytes + 5120, stride: 32, width: 32, height: 32))
        }
        a.withUnsafeMutableBufferPointer { a in
            b.withUnsafeMutableBufferPointer { b in
                out.withUnsafeMutableBufferPointer { out in
                    PictureBlend.blend(image(a.baseAddress!), image(b.baseAddress!), weight: 128, into: image(out.baseAddress!), threads: 3)
                }
            }
        }
        #expect(Set(out) == [151])  // (100 + 201 + 1) / 2
        a.withUnsafeMutableBufferPointer { a in
            PictureBlend.blend(image(a.baseAddress!), nil, weight: 256, into: image(a.baseAddress!), threads: 2)
        }
        #expect(Set(a[0..<4096]) == [16] && Set(a[4096...]) == [128])

        var wide = [UInt16](repeating: 940, count: 64 * 64 + 2 * 32 * 32)
        wide.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            let picture = YUVImage16(luma: PlaneView16(base: base, strideBytes: 128, width: 64, height: 64),
                                     cb: PlaneView16(base: base + 8192, strideBytes: 64, width: 32, height: 32),
                                     cr: PlaneView16(base: base + 10240, strideBytes: 64, width: 32, height: 32), bitDepth: 10)
            PictureBlend.blend(picture, nil, weight: 128, into: picture, threads: 4)
        }
        #expect(Set(wide[0..<4096]) == [502] && Set(wide[4096...]) == [726])  // (940+64)/2, (940+512)/2
    }
}
