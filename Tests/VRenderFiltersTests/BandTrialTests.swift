import Testing
import VRenderCore
@testable import VRenderFilters

/// The CPU executor's trial of band counts: which count runs next, which one wins, and that
/// pictures come out the same during and after it.
@Suite struct BandTrialTests {
    @Test func candidatesTakeTurns() {
        var trial = BandTrial(candidates: [4, 1])
        var order: [Int] = []
        for _ in 0..<6 {
            let next = trial.next
            order.append(next)
            trial.record(next, seconds: 1)
        }
        #expect(order == [4, 1, 4, 1, 4, 1])
    }

    @Test func lowestMedianWinsOnceEachIsTimedEnough() {
        var trial = BandTrial(candidates: [2, 1])
        // The warm-up pictures are not counted (the single band's first two are very slow);
        // one slow outlier later does not decide either: medians do.
        for _ in 0..<BandTrial.warmUpEach {
            trial.record(2, seconds: 0.07)
            trial.record(1, seconds: 9)
        }
        trial.record(1, seconds: 0.30)
        for _ in 1..<BandTrial.picturesEach {
            trial.record(2, seconds: 0.07)
            trial.record(1, seconds: 0.045)
        }
        #expect(trial.choice == nil)   // two bands have one counted time fewer
        trial.record(2, seconds: 0.07)
        #expect(trial.choice == 1)
    }

    @Test func tiesGoToMoreBands() {
        var trial = BandTrial(candidates: [2, 1])
        for _ in 0..<(BandTrial.warmUpEach + BandTrial.picturesEach) {
            trial.record(2, seconds: 0.1)
            trial.record(1, seconds: 0.1)
        }
        #expect(trial.choice == 2)
    }

    @Test func picturesAreTheSameDuringAndAfterTheTrial() throws {
        let chain = try FilterRegistry.chain("chrome,process")
        let executor = CPUFilterExecutor(chain: chain, threads: 3)
        let source = FilterTestFrame(width: 322, height: 182, layout: .yuv420p, seed: 5)
        let expected = FilterTestReference.apply(chain.filters, to: source)
        for picture in 0..<(2 * (BandTrial.warmUpEach + BandTrial.picturesEach) + 3) {
            let output = FilterTestFrame(width: 322, height: 182, layout: .yuv420p, seed: nil)
            let ran = source.withImage { src in output.withImage { dst in Result { try executor.run(source: src, destination: dst) } } }
            try ran.get()
            #expect(output.firstDifference(from: expected) == nil, "picture \(picture)")
        }
        #expect([3, 1].contains(executor.bands))
        #expect(CPUFilterExecutor(chain: chain, threads: 1).bands == 1)
    }
}
