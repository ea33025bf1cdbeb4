// The custom metrics the CI gate reads (Benchmarks/Tools/BenchGate/GateRules.swift), defined
// once so the benchmarks that record them and the gate that checks them agree on every name.
//
// Each is a figure that stays put on a shared machine: a count that only changes when the code
// does, or a cost relative to a memcpy of the same frame measured in the same iteration.

import Benchmark

public enum GateMetric {
    /// 100 × CPU time of one unit of work ÷ CPU time of a memcpy of the same frame, both timed in
    /// the same iteration (`CPUCost.versusMemcpy`): 500 means the work costs five copies of
    /// its frame. The inverse of "fps ÷ memcpy fps", scaled to keep integer resolution for
    /// cheap kernels (~300) and expensive stages (~5,000) alike.
    public static let costVersusMemcpy = BenchmarkMetric.custom("time vs memcpy (%)", polarity: .prefersSmaller,
                                                                useScalingFactor: false)

    /// Video frames the output lacks (or has in excess) against the frames that went in.
    public static let framesLost = BenchmarkMetric.custom("frames lost", polarity: .prefersSmaller,
                                                          useScalingFactor: false)

    /// Frames a capture ring dropped (live policy: the writer fell behind).
    public static let framesDropped = BenchmarkMetric.custom("frames dropped", polarity: .prefersSmaller,
                                                             useScalingFactor: false)

    /// Frames an export reported as damaged (inputs are clean, so any is a bug).
    public static let damagedFrames = BenchmarkMetric.custom("damaged frames", polarity: .prefersSmaller,
                                                             useScalingFactor: false)

    /// Takes a chunk job probed: its plan carries their probes, so none.
    public static let takesProbed = BenchmarkMetric.custom("takes probed", polarity: .prefersSmaller,
                                                           useScalingFactor: false)
}
