import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the process has used up to a moment: the monotonic clock, CPU time of all its threads
/// (user + system, `getrusage(RUSAGE_SELF)`) and its peak resident memory.
struct ProcessUsage: Sendable {
    var wallNanoseconds: UInt64
    var cpuSeconds: Double
    var peakResidentBytes: Int

    static func now() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        // ru_maxrss is the same peak in KiB, where /proc is not mounted.
        let peak = peakResidentFromProc() ?? Int(usage.ru_maxrss) * 1024
        return ProcessUsage(wallNanoseconds: MonotonicClock.now(), cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
                            peakResidentBytes: peak)
    }

    /// `VmHWM` ("high water mark": the peak resident set size) from /proc/self/status, in bytes.
    /// The process's peak since it started: vrender runs one command per process.
    static func peakResidentFromProc() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return peakResident(inStatus: status)
    }

    /// The `VmHWM:   123456 kB` line of a /proc/PID/status text, in bytes.
    static func peakResident(inStatus status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3, fields[2] == "kB", let kibibytes = Int(fields[1]) else { return nil }
        return kibibytes * 1024
    }
}
