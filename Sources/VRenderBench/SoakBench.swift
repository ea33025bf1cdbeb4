import Foundation
import VRenderCore
import VRenderDemo
import VRenderExport
import VRenderFilters

/// `vrender bench soak`: the demo's whole job (three synthetic takes recorded, then exported
/// with mono) over and over in one process, measuring after each round what a leak would make
/// grow: open file descriptors, threads and resident memory. A server that records and renders
/// all day must not creep.
package struct SoakBench: Sendable {
    package var rounds: Int
    /// Where the rounds' takes and export go; nil: a temporary folder, removed afterwards.
    package var directory: String?
    package var size: (width: Int, height: Int)
    package var gpu: FilterBackendChoice

    /// Rounds run before the baseline is taken: the first rounds fill pools, caches and
    /// malloc's arenas, which is not a leak.
    package static let warmUpRounds = 3

    package init(rounds: Int, directory: String?, size: (width: Int, height: Int), gpu: FilterBackendChoice) {
        self.rounds = rounds
        self.directory = directory
        self.size = size
        self.gpu = gpu
    }

    /// Runs the rounds; `each` sees every round's measurement as it comes.
    package func run(each: (SoakRound) -> Void = { _ in }) throws -> SoakReport {
        let folder = directory ?? NSTemporaryDirectory() + "vrender-soak-" + UUID().uuidString
        defer { if directory == nil { try? FileManager.default.removeItem(atPath: folder) } }
        var measured: [SoakRound] = []
        for round in 1...rounds {
            let start = MonotonicClock.now()
            let job = DemoJob(directory: folder, size: size, gpu: gpu)
            _ = try job.run()
            let sample = SoakRound(round: round, openFiles: ProcessCensus.openFiles(), threads: ProcessCensus.threads(),
                                   residentBytes: ProcessCensus.residentBytesAfterTrim(),
                                   seconds: MonotonicClock.seconds(since: start))
            measured.append(sample)
            each(sample)
        }
        return SoakReport(rounds: measured)
    }
}

/// What one round left behind in the process.
package struct SoakRound: Sendable, Codable, Equatable {
    package var round: Int
    package var openFiles: Int
    package var threads: Int
    package var residentBytes: Int
    package var seconds: Double
}

/// The rounds, and whether the process stayed flat after the warm-up.
package struct SoakReport: Sendable, Codable, Equatable {
    package var rounds: [SoakRound]

    /// The most resident memory may grow per round after the warm-up. Resident memory is
    /// measured after `malloc_trim`, and compared as the least of three rounds at each end, so
    /// a round that ends with more in its pools, or a pool that fills once under load, does not
    /// count; a leak raises every round after it.
    package static let residentSlopeLimit = 1024 * 1024

    /// Threads the process may end with beyond the ones it had after the warm-up: Dispatch
    /// keeps idle workers of `concurrentPerform` (the filter bands) alive for a while, up to
    /// about one per processor, and a loaded machine makes rounds end with them still there.
    /// A thread leaked each round outgrows it within the rounds compared.
    package static var threadAllowance: Int { ThreadBudget.machine.processors }

    /// Why the process did not stay flat, one line per measure; empty when it did.
    package var growth: [String] { growth(threadAllowance: Self.threadAllowance) }

    func growth(threadAllowance: Int) -> [String] {
        let steady = Array(rounds.dropFirst(SoakBench.warmUpRounds))
        guard let first = steady.first, let last = steady.last, steady.count >= 6 else { return [] }
        // Each measure as the least of three rounds at each end: a thread may still be exiting,
        // or a pool still hold a frame, when a round ends.
        func ends(_ value: (SoakRound) -> Int) -> (early: Int, late: Int) {
            (steady.prefix(3).map(value).min() ?? 0, steady.suffix(3).map(value).min() ?? 0)
        }
        var found: [String] = []
        let files = ends(\.openFiles), threads = ends(\.threads)
        let span = "(rounds \(first.round)…\(last.round))"
        if files.late != files.early { found.append("open files went from \(files.early) to \(files.late) \(span)") }
        if threads.late > threads.early + threadAllowance {
            found.append("threads went from \(threads.early) to \(threads.late) \(span)")
        }
        let resident = ends(\.residentBytes)
        let slope = Double(resident.late - resident.early) / Double(steady.count - 3)
        if slope > Double(Self.residentSlopeLimit) {
            found.append(String(format: "resident memory grew %.0f KB a round (limit %d KB)", slope / 1024, Self.residentSlopeLimit / 1024))
        }
        return found
    }

    /// Throws, naming `vrender bench soak`, when the process did not stay flat (`growth`).
    package func requireFlat() throws {
        let growth = growth
        if !growth.isEmpty { throw VRenderError(.runtime, subject: "bench soak", reason: growth.joined(separator: "; ")) }
    }
}
