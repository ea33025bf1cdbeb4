import Foundation

/// The one count of processors every default thread count starts from.
public enum Processors {
    /// Processors this process may run on (`ProcessInfo.activeProcessorCount`, which follows
    /// the affinity mask a scheduler such as Slurm sets), at least 1.
    public static let active = Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
}

/// The processors one job may use (`concat --threads`, a chunk worker's share of its machine,
/// or the whole machine), and the one place each stage's thread count is worked out from
/// them: picture bands (filters, tone mapping, transitions), the codecs' threads
/// (`CodecThreads`), the stabilizer's motion search. A stage never asks `Processors` itself,
/// so a share given to a job is a share of every stage.
public struct ThreadBudget: Sendable, Equatable, CustomStringConvertible {
    /// Processors the job may use, at least 1.
    public let processors: Int
    /// True when the job was given a share (`--threads`, a chunk's), which codecs that would
    /// otherwise size their own pools to the machine (x265) must keep to.
    public let isShare: Bool

    /// The whole machine (`Processors.active`).
    public static let machine = ThreadBudget(processors: Processors.active, isShare: false)

    /// A share of `processors` (at least 1); nil: the whole machine.
    public static func share(_ processors: Int?) -> ThreadBudget {
        processors.map { ThreadBudget(processors: $0, isShare: true) } ?? .machine
    }

    /// `processors` clamped to at least 1.
    public init(processors: Int, isShare: Bool) {
        self.processors = Swift.max(1, processors)
        self.isShare = isShare
    }

    /// Bands one picture's rows are split into (`RowBands`): one per processor, at most 8,
    /// beyond which bands get too thin to pay for their dispatch.
    public var pictureBands: Int { Swift.min(8, processors) }

    /// The stabilizer's motion-search threads: half the processors (the pipeline's other
    /// stages run beside it), at least 1, at most 8.
    public var motionSearchThreads: Int { Swift.max(1, Swift.min(8, processors / 2)) }

    public var description: String { isShare ? "\(processors) processors (a share)" : "\(processors) processors" }
}
