/// What `vrender takes recover DIR` did (`TakesRecovery.recover(_:)`): one line per take file
/// it looked at, and what became of `takes.json`. `--json` prints it as it is.
public struct TakesRecoveryReport: Sendable, Codable, Equatable {
    public enum Outcome: String, Sendable, Codable, CaseIterable {
        /// Finished and listed in `takes.json`: left exactly as it was.
        case kept
        /// Unfinished (no trailer, last fragment possibly cut): its whole packets were copied
        /// into a finished file, which replaced it once it was read back and checked.
        case recovered
        /// Finished, but not in `takes.json` (a rebuilt or lost manifest): listed again.
        case listed
        /// Could not be saved (no decodable frame, not a video, the copy did not check out):
        /// left as it was and not listed.
        case unsaveable
        /// Listed in `takes.json`, but its file is gone: the entry is kept
        /// (`vrender takes rm DIR N` removes it).
        case missing
        /// Open in another process, e.g. a capture still recording it: left alone.
        case inUse = "in-use"
    }

    public struct Take: Sendable, Codable, Equatable {
        public var file: String
        public var outcome: Outcome
        /// Frames that decode, as `takes.json` now lists them (nil for a take not listed).
        public var frames: Int?
        /// Seconds, as `takes.json` now lists them (nil for a take not listed).
        public var duration: Double?
        /// What was done or found, in words ("1 packet cut short by the end of the file
        /// dropped", "no decodable frames").
        public var detail: String?
    }

    /// The takes folder, as given.
    public var directory: String
    /// Every take looked at, in the order of the new `takes.json`, then those it does not list
    /// (unsaveable, in use).
    public var takes: [Take]
    /// True when `takes.json` was written (created, rebuilt or updated).
    public var manifestWritten: Bool
    /// The name in the folder under which a damaged `takes.json` was kept, if it was damaged.
    public var damagedManifestCopy: String?
    /// Temporary files of killed vrender runs removed from the folder (`AtomicFile.removeLeftovers`).
    public var removedTemporaries: [String] = []
    /// False when any take could not be saved, is missing or is in use: the command exits 1.
    public var allSaved: Bool

    init(directory: String, takes: [Take], manifestWritten: Bool, damagedManifestCopy: String?) {
        self.directory = directory
        self.takes = takes
        self.manifestWritten = manifestWritten
        self.damagedManifestCopy = damagedManifestCopy
        allSaved = !takes.contains { [.unsaveable, .missing, .inUse].contains($0.outcome) }
    }

    /// How many takes had `outcome`.
    public func count(_ outcome: Outcome) -> Int { takes.filter { $0.outcome == outcome }.count }

    /// True when there was nothing to do: every take kept, `takes.json` not written.
    public var nothingToRecover: Bool {
        !manifestWritten && removedTemporaries.isEmpty && takes.allSatisfy { $0.outcome == .kept }
    }
}
