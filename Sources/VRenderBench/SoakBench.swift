import Foundation
import VRenderCore
import VRenderDemo
import VRenderExport
import VRenderFilters

/// `vrender bench soak`: the demo's whole job (three synthetic takes recorded, then exported
/// with mono) over and over in one process, measuring after each round what a leak would make
/// grow: open file descriptors, threads and resident memory. A server that records and renders
/// all day must not creep.
public struct SoakBench: Sendable {
    public var rounds: Int
    /// Where the rounds' takes and export go; nil: a temporary folder, removed afterwards.
    public var directory: String?
    public var size: (width: Int, height: Int)
    public var gpu: FilterBackendChoice

    /// Rounds run before the baseline is taken: the first rounds fill pools, caches and
    /// malloc's arenas, which is not a leak.
    public static let warmUpRounds = 3

    public init(rounds: Int, directory: String?, size: (width: Int, height: Int), gpu: FilterBackendChoice) {
        self.rounds = rounds
        self.directory = directory
        self.size = size
        self.gpu = gpu
    }

    /// Runs the rounds; `each` sees every round's measurement as it comes.
    public func run(each: (SoakRound) -> Void = { _ in }) throws -> SoakReport {
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
public struct SoakRound: Sendable, Codable, Equatable {
    public var round: Int
    public var openFiles: Int
    public var threads: Int
    public var residentBytes: Int
    public var seconds: Double
}

/// The rounds, and whether the process stayed flat after the warm-up.
public struct SoakReport: Sendable, Codable, Equatable {
    public var rounds: [SoakRound]

    /// The most resident memory may grow per round after the warm-up, fitted over all rounds:
    /// malloc's own noise moves single rounds by a few MB, which over a dozen rounds fits to
    /// well under this; a leaked 1080p frame a round (3 MB) does not.
    public static let residentSlopeLimit = 1024 * 1024

    /// Why the process did not stay flat, one line per measure; empty when it did.
    public var growth: [String] {
        let steady = Array(rounds.dropFirst(SoakBench.warmUpRounds))
        guard let first = steady.first, let last = steady.last, steady.count >= 6 else { return [] }
        var found: [String] = []
        // A thread may still be exiting when a round ends (it signals before it returns), so
        // counts are compared as the least of three rounds at each end: a leak of one a round
        // still shows.
        for (what, count) in [("open files", \SoakRound.openFiles), ("threads", \SoakRound.threads)] {
            let early = steady.prefix(3).map { $0[keyPath: count] }.min() ?? 0
            let late = steady.suffix(3).map { $0[keyPath: count] }.min() ?? 0
            if late != early { found.append("\(what) went from \(early) to \(late) (rounds \(first.round)…\(last.round))") }
        }
        let slope = residentSlope(steady)
        if slope > Double(Self.residentSlopeLimit) {
            found.append(String(format: "resident memory grew %.0f KB a round (limit %d KB)", slope / 1024, Self.residentSlopeLimit / 1024))
        }
        return found
    }

    /// Throws, naming `vrender bench soak`, when the process did not stay flat (`growth`).
    public func requireFlat() throws {
        let growth = growth
        if !growth.isEmpty { throw VRenderError(.runtime, subject: "bench soak", reason: growth.joined(separator: "; ")) }
    }

    /// Bytes per round: the least-squares slope of resident memory over the rounds.
    public func residentSlope(_ rounds: [SoakRound]) -> Double {
        let n = Double(rounds.count)
        let meanX = rounds.map { Double($0.round) }.reduce(0, +) / n
        let meanY = rounds.map { Double($0.residentBytes) }.reduce(0, +) / n
        let covariance = rounds.map { (Double($0.round) - meanX) * (Double($0.residentBytes) - meanY) }.reduce(0, +)
        let variance = rounds.map { (Double($0.round) - meanX) * (Double($0.round) - meanX) }.reduce(0, +)
        return variance == 0 ? 0 : covariance / variance
    }
}
