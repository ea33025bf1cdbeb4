import Testing
import VRenderCore
@testable import VRenderScale

@Suite("Where chunks start")
struct ChunkLayoutTests {
    @Test("N chunks: as equal as whole GOPs allow, covering every frame once")
    func countSplitsOnGOPs() {
        let spans = ChunkLayout.spans(totalFrames: 610, keyframeInterval: 60, frameRate: 30, sizing: .count(3))
        #expect(spans == [0..<180, 180..<420, 420..<610])
        for span in spans { #expect(span.lowerBound % 60 == 0) }
    }

    @Test("never more chunks than GOPs; one frame a GOP for intra-only codecs")
    func fewerGOPsThanChunks() {
        #expect(ChunkLayout.spans(totalFrames: 100, keyframeInterval: 60, frameRate: 30, sizing: .count(7)) == [0..<60, 60..<100])
        let intra = ChunkLayout.spans(totalFrames: 150, keyframeInterval: 1, frameRate: 30, sizing: .count(7))
        #expect(intra.count == 7 && intra.first?.lowerBound == 0 && intra.last?.upperBound == 150)
        #expect(zip(intra, intra.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(ChunkLayout.spans(totalFrames: 0, keyframeInterval: 60, frameRate: 30, sizing: .count(3)).isEmpty)
    }

    @Test("S seconds: rounded to whole GOPs, the last chunk shorter")
    func secondsRoundToGOPs() {
        let spans = ChunkLayout.spans(totalFrames: 1000, keyframeInterval: 60, frameRate: 30, sizing: .seconds(10))
        #expect(spans == [0..<300, 300..<600, 600..<900, 900..<1000])
        // Shorter than a GOP still gets one GOP a chunk.
        #expect(ChunkLayout.spans(totalFrames: 120, keyframeInterval: 60, frameRate: 30, sizing: .seconds(0.1)).count == 2)
    }

    @Test func keyframeIntervalIsTwoSecondsOrEveryFrameForFFV1() {
        #expect(ChunkPlan.keyframeInterval(codec: .h264, frameRate: Rational(30000, 1001)) == 60)
        #expect(ChunkPlan.keyframeInterval(codec: .hevc, frameRate: Rational(25, 1)) == 50)
        #expect(ChunkPlan.keyframeInterval(codec: .ffv1, frameRate: Rational(60, 1)) == 1)
    }

    @Test func chunkListsReadAsSlurmArrays() {
        #expect(ChunkList.text([5, 0, 1, 2, 3, 9, 10]) == "0-3,5,9-10")
        #expect(ChunkList.text([4]) == "4")
        #expect(SlurmClient.taskNumbers("0-3,5,9-10") == [0, 1, 2, 3, 5, 9, 10])
        #expect(SlurmClient.taskNumbers("2-6%2") == [2, 3, 4, 5, 6])
    }

    /// 30 GOPs in 8 chunks are 3 or 4 GOPs each; in plan order, 2 workers took 16 GOPs' time.
    @Test("the local engine runs the sound, then the longest chunks first")
    func longestChunksRunFirst() throws {
        var json = WorkFolderFileTests.planJSON()
        let frames = [3, 4, 4, 4, 3, 4, 4, 4]
        json["chunks"] = frames.indices.map { ["index": $0, "firstFrame": frames[..<$0].reduce(0, +), "frameCount": frames[$0]] }
        json["sound"] = "mp4"
        let plan = try WorkFolderFileTests.load(json)
        #expect(LocalEngine.longestFirst(plan.jobs, plan: plan) == [8, 1, 2, 3, 5, 6, 7, 0, 4])
        #expect(LocalEngine.longestFirst([4, 0, 7], plan: plan) == [7, 4, 0], "a resume's missing chunks alike")
    }
}
