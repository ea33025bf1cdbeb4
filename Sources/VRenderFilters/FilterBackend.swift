import VRenderCore

/// `--gpu`: where filters run.
public enum FilterBackendChoice: String, Sendable, CaseIterable {
    /// A hardware Vulkan GPU when there is one, the CPU otherwise.
    case auto
    /// Any Vulkan device, a software one (lavapipe) included; an error when there is none.
    case vulkan
    /// The CPU only; Vulkan is never touched.
    case cpu
}

/// Runs a filter chain over whole pictures, on some backend. One executor serves one export
/// stage (one thread); the CPU and Vulkan executors give identical bytes.
public protocol FilterExecutor: AnyObject {
    /// "cpu", or the GPU's name.
    var backendName: String { get }
    /// Filters `source` into `destination` (same size and layout; may be the same picture).
    func run(source: YUVImage, destination: YUVImage) throws
}

/// The CPU backend: vectorized kernels split by rows across up to `threads` threads.
///
/// Whether splitting a picture pays depends on the chain, the size and the machine: handing a
/// band to another core costs tens of microseconds and moves its rows between caches, which is
/// more than a light look takes over a whole 1080p picture with the AVX-512 kernels (`mono`:
/// ~45 µs on one core, ~70 µs split in two), while a chain of colour looks or a 4K picture
/// gains from every core. So the first pictures are a trial (`BandTrial`): they alternate
/// between `threads` bands and one band, and the faster by median time is kept. The bytes are
/// the same either way (`RowBands`), so only the speed depends on the choice.
package final class CPUFilterExecutor: FilterExecutor {
    package let chain: FilterChain
    package let threads: Int
    package let backendName = "cpu"
    /// Bands per picture once the trial has chosen (`threads` until then).
    package private(set) var bands: Int
    private var trial: BandTrial?

    package init(chain: FilterChain, threads: Int) {
        self.chain = chain
        self.threads = max(1, threads)
        bands = max(1, threads)
        trial = threads > 1 ? BandTrial(candidates: [max(1, threads), 1]) : nil
    }

    package func run(source: YUVImage, destination: YUVImage) throws {
        guard var trial else {
            return chain.run(source: source, destination: destination, threads: bands)
        }
        let candidate = trial.next
        let start = MonotonicClock.now()
        chain.run(source: source, destination: destination, threads: candidate)
        trial.record(candidate, seconds: MonotonicClock.seconds(since: start))
        if let choice = trial.choice {
            bands = choice
            self.trial = nil
        } else {
            self.trial = trial
        }
    }
}

/// Picks the faster of a few band counts by timing each on the same number of pictures, taken
/// in turn (so a clock ramping up or a busy neighbour weighs on all alike), by median. Each
/// candidate's first `warmUpEach` pictures are not counted: they pay for the thread pool's
/// start and cold caches.
struct BandTrial {
    static let warmUpEach = 2
    static let picturesEach = 8
    let candidates: [Int]
    private var runs: [Int]
    private var times: [[Double]]

    init(candidates: [Int]) {
        self.candidates = candidates
        runs = candidates.map { _ in 0 }
        times = candidates.map { _ in [] }
    }

    /// The band count the next picture runs with: the one run least so far.
    var next: Int { candidates[runs.indices.min { runs[$0] < runs[$1] }!] }

    mutating func record(_ candidate: Int, seconds: Double) {
        guard let index = candidates.firstIndex(of: candidate) else { return }
        runs[index] += 1
        if runs[index] > Self.warmUpEach { times[index].append(seconds) }
    }

    /// The candidate with the lowest median, once each has `picturesEach` counted times; ties
    /// go to the first (more bands).
    var choice: Int? {
        guard times.allSatisfy({ $0.count >= Self.picturesEach }) else { return nil }
        let medians = times.map { $0.sorted()[$0.count / 2] }
        return candidates[medians.indices.min { medians[$0] < medians[$1] }!]
    }
}
