import Synchronization
import Testing
import VRenderCore

/// `RowBands` against its promise: every row in exactly one band, in order, bands starting on
/// the alignment, no more bands than threads, and a band too thin to pay for itself never made.
@Suite struct RowBandsTests {
    static let shapes: [RowBands] = [.yuv420, RowBands(minimumRows: 8), RowBands(minimumRows: 16, alignment: 2),
                                     RowBands(minimumRows: 1, alignment: 4)]

    @Test(arguments: shapes)
    func bandsCoverEveryRowOnceOnAlignedStarts(bands shape: RowBands) {
        for rows in [0, 1, 2, 3, 7, 31, 32, 33, 64, 65, 135, 361, 1080, 2161] {
            for threads in [1, 2, 3, 4, 8, 64] {
                let bands = shape.split(rows: rows, threads: threads)
                let context = "\(rows) rows, \(threads) threads, \(shape)"
                #expect(bands.flatMap { Array($0) } == Array(0..<rows), "\(context): \(bands)")
                #expect(bands.allSatisfy { !$0.isEmpty && $0.lowerBound % shape.alignment == 0 }, "\(context): \(bands)")
                #expect(bands.count <= Swift.max(1, threads), "\(context)")
                if rows < 2 * shape.minimumRows { #expect(bands.count <= 1, "\(context): \(bands)") }
            }
        }
    }

    @Test func oneRowIsOneBand() {
        #expect(RowBands.yuv420.split(rows: 1, threads: 8) == [0..<1])
        #expect(RowBands(minimumRows: 1, alignment: 2).split(rows: 1, threads: 8) == [0..<1])
    }

    @Test func fewerRowsThanBandsGivesAlignedBandsOnly() {
        // Eight threads asked, five rows, bands on even rows: three bands, the last one row.
        #expect(RowBands(minimumRows: 1, alignment: 2).split(rows: 5, threads: 8) == [0..<2, 2..<4, 4..<5])
        #expect(RowBands(minimumRows: 1).split(rows: 3, threads: 8) == [0..<1, 1..<2, 2..<3])
    }

    @Test func noRowsNoBands() {
        #expect(RowBands.yuv420.split(rows: 0, threads: 4).isEmpty)
        let calls = Mutex(0)
        RowBands.yuv420.run(rows: 0, threads: 4) { _ in calls.withLock { $0 += 1 } }
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func yuv420BandsStartOnChromaRows() {
        #expect(RowBands.yuv420.alignment == ChromaGeometry.yuv420.blockHeight)
        #expect(RowBands.yuv420.split(rows: 135, threads: 4) == [0..<32, 32..<66, 66..<100, 100..<135])
    }

    @Test func runVisitsEveryRowOnceWithTheBandsIndex() {
        let bands = RowBands(minimumRows: 4, alignment: 2).split(rows: 101, threads: 5)
        let seen = Mutex([Int](repeating: 0, count: 101))
        let indices = Mutex([Int]())
        RowBands.run(bands) { index, rows in
            #expect(bands[index] == rows)
            indices.withLock { $0.append(index) }
            seen.withLock { for row in rows { $0[row] += 1 } }
        }
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: 101))
        #expect(indices.withLock { $0.sorted() } == Array(bands.indices))
    }

    @Test func processorsAreCountedOnce() {
        #expect(Processors.active >= 1)
        #expect(ThreadBudget.machine.pictureBands == Swift.min(8, Processors.active))
    }
}
