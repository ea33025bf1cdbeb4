import Foundation

/// The summary of one measured run (`StageTimings.report()`): what `vrender bench` prints and
/// `--json` / `concat --timings` write. Every key carries its unit in its name or doc; README
/// "Measuring" documents the schema.
public struct TimingReport: Codable, Sendable, Equatable {
    /// What was measured: "concat", "capture" or "filter".
    public var kind: String
    /// What the run was made with (inputs, codec, filter, backend, size...), as text.
    public var settings: [String: String]
    /// Seconds from the start of the run to its end.
    public var wallSeconds: Double
    /// CPU seconds of every thread of the process (user + system) during the run.
    public var cpuSeconds: Double
    /// The process's peak resident memory (VmHWM), in bytes.
    public var peakMemoryBytes: Int
    /// Frames that came in (video packets read, frames captured, frames filtered).
    public var framesIn: Int
    /// Frames that went out (frames encoded into the output, frames written to takes).
    public var framesOut: Int
    /// Seconds of video produced, for "× real time"; nil where that means nothing (filter).
    public var mediaSeconds: Double?
    /// Frames lost on the way (a live capture's ring dropping the oldest frame).
    public var drops: Int
    /// Every stage, in pipeline order.
    public var stages: [StageReport]
    /// Every queue between stages that was watched.
    public var queues: [QueueReport]
    /// A stage's speed against a baseline measured in the same run (the filter against memcpy).
    public var baseline: BaselineRatio?

    /// Frames out per wall second.
    public var fps: Double { wallSeconds > 0 ? Double(framesOut) / wallSeconds : 0 }

    /// Seconds of video made per wall second; nil without `mediaSeconds`.
    public var realTimeFactor: Double? {
        guard let mediaSeconds, wallSeconds > 0 else { return nil }
        return mediaSeconds / wallSeconds
    }

    public func stage(_ name: String) -> StageReport? { stages.first { $0.name == name } }

    /// The report as JSON (keys sorted, indented; derived values `fps` and `realTimeFactor`
    /// included), written atomically (`AtomicFile`). Errors name `path`.
    public func write(to path: String) throws {
        try AtomicFile.writeJSON(self, to: path)
    }

    public func jsonData() throws -> Data {
        try JSONEncoder.readable().encode(self)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, settings, wallSeconds, cpuSeconds, peakMemoryBytes, framesIn, framesOut, mediaSeconds, drops
        case stages, queues, baseline, fps, realTimeFactor
    }

    public init(kind: String, settings: [String: String], wallSeconds: Double, cpuSeconds: Double, peakMemoryBytes: Int,
                framesIn: Int, framesOut: Int, mediaSeconds: Double?, drops: Int, stages: [StageReport],
                queues: [QueueReport], baseline: BaselineRatio?) {
        self.kind = kind
        self.settings = settings
        self.wallSeconds = wallSeconds
        self.cpuSeconds = cpuSeconds
        self.peakMemoryBytes = peakMemoryBytes
        self.framesIn = framesIn
        self.framesOut = framesOut
        self.mediaSeconds = mediaSeconds
        self.drops = drops
        self.stages = stages
        self.queues = queues
        self.baseline = baseline
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try values.decode(String.self, forKey: .kind),
                  settings: try values.decode([String: String].self, forKey: .settings),
                  wallSeconds: try values.decode(Double.self, forKey: .wallSeconds),
                  cpuSeconds: try values.decode(Double.self, forKey: .cpuSeconds),
                  peakMemoryBytes: try values.decode(Int.self, forKey: .peakMemoryBytes),
                  framesIn: try values.decode(Int.self, forKey: .framesIn),
                  framesOut: try values.decode(Int.self, forKey: .framesOut),
                  mediaSeconds: try values.decodeIfPresent(Double.self, forKey: .mediaSeconds),
                  drops: try values.decode(Int.self, forKey: .drops),
                  stages: try values.decode([StageReport].self, forKey: .stages),
                  queues: try values.decode([QueueReport].self, forKey: .queues),
                  baseline: try values.decodeIfPresent(BaselineRatio.self, forKey: .baseline))
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(kind, forKey: .kind)
        try values.encode(settings, forKey: .settings)
        try values.encode(wallSeconds, forKey: .wallSeconds)
        try values.encode(cpuSeconds, forKey: .cpuSeconds)
        try values.encode(peakMemoryBytes, forKey: .peakMemoryBytes)
        try values.encode(framesIn, forKey: .framesIn)
        try values.encode(framesOut, forKey: .framesOut)
        try values.encodeIfPresent(mediaSeconds, forKey: .mediaSeconds)
        try values.encode(drops, forKey: .drops)
        try values.encode(stages, forKey: .stages)
        try values.encode(queues, forKey: .queues)
        try values.encodeIfPresent(baseline, forKey: .baseline)
        try values.encode(fps, forKey: .fps)
        try values.encodeIfPresent(realTimeFactor, forKey: .realTimeFactor)
    }
}

/// One stage's frame times, in milliseconds.
public struct StageReport: Codable, Sendable, Equatable {
    public enum Measure: String, Codable, Sendable {
        /// A thread's work on each frame: the stage's busy time.
        case work
        /// How long each frame waited for a thread (a capture ring's wait): no one's busy time.
        case wait
    }

    public var name: String
    public var measures: Measure
    /// Frames the stage worked on (samples).
    public var frames: Int
    /// Nearest-rank percentiles (`Percentile`), the maximum and the mean of the frame times.
    public var p50Ms: Double
    public var p95Ms: Double
    public var p99Ms: Double
    public var maxMs: Double
    public var meanMs: Double
    /// Sum of the frame times.
    public var totalMs: Double
    /// Work outside any one frame (an encoder's final flush, audio packets through the muxer).
    public var otherMs: Double
    /// (total + other) ÷ wall time: the share of the run the stage was working. The busiest
    /// stage is the bottleneck (normalize and filter share one thread: add them). 0 for a wait.
    public var busyFraction: Double
    /// Every frame's time, in the order the stage handled them (µs precision).
    public var frameMs: [Double]

    init(timer: StageTimer, wallSeconds: Double) {
        let samples = timer.nanoseconds
        let sorted = samples.sorted()
        func ms(_ nanoseconds: UInt64) -> Double { Self.milliseconds(nanoseconds) }
        let total = samples.reduce(UInt64(0), &+)
        name = timer.name
        measures = timer.measures
        frames = samples.count
        p50Ms = ms(Percentile.nearestRank(50, ofSorted: sorted))
        p95Ms = ms(Percentile.nearestRank(95, ofSorted: sorted))
        p99Ms = ms(Percentile.nearestRank(99, ofSorted: sorted))
        maxMs = ms(sorted.last ?? 0)
        meanMs = samples.isEmpty ? 0 : Double(total) / Double(samples.count) / 1e6
        totalMs = ms(total)
        otherMs = ms(timer.otherNanoseconds)
        let busy = Double(total &+ timer.otherNanoseconds) / 1e9
        busyFraction = wallSeconds > 0 && measures == .work ? busy / wallSeconds : 0
        frameMs = samples.map(ms)
    }

    /// Nanoseconds as milliseconds rounded to the microsecond (what a frame time needs; keeps
    /// the JSON short).
    static func milliseconds(_ nanoseconds: UInt64) -> Double {
        (Double(nanoseconds) / 1e3).rounded() / 1e3
    }
}

/// How full one queue was (see `OccupancyHistogram`), in items.
public struct QueueReport: Codable, Sendable, Equatable {
    public var name: String
    public var capacity: Int
    /// Pushes sampled.
    public var samples: Int
    /// Items found waiting by a push: mean, nearest-rank p95 and maximum.
    public var meanDepth: Double
    public var p95Depth: Int
    public var maxDepth: Int
    /// The share of pushes that found the queue full.
    public var fullFraction: Double

    public init(name: String, _ histogram: OccupancyHistogram) {
        self.name = name
        capacity = histogram.capacity
        samples = histogram.samples
        meanDepth = histogram.mean
        p95Depth = histogram.percentile(95)
        maxDepth = histogram.max
        fullFraction = histogram.fullFraction
    }
}

/// `stage`'s frames per second divided by `baseline`'s, both measured in the same run on the
/// same frames (total time over the same number of frames): 0.25 means the stage is four
/// times slower than the baseline.
public struct BaselineRatio: Codable, Sendable, Equatable {
    public var stage: String
    public var baseline: String
    public var ratio: Double

    static func speedRatio(of stage: StageReport, to baseline: StageReport) -> Double {
        guard stage.totalMs > 0, baseline.totalMs > 0, stage.frames > 0, baseline.frames > 0 else { return 0 }
        let stageFPS = Double(stage.frames) / stage.totalMs
        let baselineFPS = Double(baseline.frames) / baseline.totalMs
        return stageFPS / baselineFPS
    }
}
