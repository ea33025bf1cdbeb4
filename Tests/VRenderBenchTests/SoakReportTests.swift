import Testing
@testable import VRenderBench

/// The soak's verdict: flat passes, a leak of a file, a thread or memory each round fails.
@Suite struct SoakReportTests {
    private func rounds(files: (Int) -> Int = { _ in 9 }, threads: (Int) -> Int = { _ in 4 },
                        megabytes: (Int) -> Double = { _ in 120 }) -> SoakReport {
        SoakReport(rounds: (1...12).map { round in
            SoakRound(round: round, openFiles: files(round), threads: threads(round),
                      residentBytes: Int(megabytes(round) * 1_048_576), seconds: 2)
        })
    }

    @Test func flatRoundsPassEvenWithMallocNoiseAndAThreadStillExiting() {
        let noisy = rounds(threads: { $0 == 5 ? 5 : 4 }, megabytes: { $0 <= 3 ? 100 : 120 + Double($0 % 3) * 1.5 })
        #expect(noisy.growth == [])
    }

    @Test func aLeakedFileAThreadOrAFrameEachRoundFails() {
        #expect(rounds(files: { 9 + $0 }).growth == ["open files went from 13 to 19 (rounds 4…12)"])
        #expect(rounds(threads: { 4 + $0 }).growth == ["threads went from 8 to 14 (rounds 4…12)"])
        let leak = rounds(megabytes: { 120 + 3 * Double($0) }).growth
        #expect(leak == ["resident memory grew 3072 KB a round (limit 1024 KB)"])
    }
}
