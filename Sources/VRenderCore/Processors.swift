import Foundation

/// The one count of processors every default thread count starts from.
public enum Processors {
    /// Processors this process may run on (`ProcessInfo.activeProcessorCount`, which follows
    /// the affinity mask a scheduler such as Slurm sets), at least 1.
    public static let active = Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Threads for splitting one picture's rows (`RowBands`): at most 8, beyond which a
    /// frame's bands get too thin to pay for their dispatch.
    public static var pictureThreads: Int { Swift.min(8, active) }
}
