import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the process has used up to a moment: the monotonic clock, CPU time of all its threads
/// (user + system, `getrusage(RUSAGE_SELF)`) and its peak resident memory.
package struct ProcessUsage: Sendable {
    package var wallNanoseconds: UInt64
    package var cpuSeconds: Double
    package var peakResidentBytes: Int

    package static func now() -> ProcessUsage {
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
    static func peakResidentFromProc() -> Int? { ProcessCensus.statusBytes("VmHWM") }

    /// The `VmHWM:   123456 kB` line of a /proc/PID/status text, in bytes.
    static func peakResident(inStatus status: String) -> Int? { ProcessCensus.bytes("VmHWM", inStatus: status) }
}

/// What this process holds now, from /proc/self: open file descriptors, threads, resident
/// memory (what a leak makes grow; `vrender bench soak` watches them).
package enum ProcessCensus {
    package static func openFiles() -> Int { entries("/proc/self/fd") }
    package static func threads() -> Int { entries("/proc/self/task") }
    /// `VmRSS`, in bytes (0 where /proc is not mounted).
    package static func residentBytes() -> Int { statusBytes("VmRSS") ?? 0 }

    /// `VmRSS` after handing malloc's free pages back to the kernel (`malloc_trim(0)`): what the
    /// process still holds, without the pages freed blocks left resident, which move single
    /// rounds of `bench soak` by several MB up or down and are not a leak.
    package static func residentBytesAfterTrim() -> Int {
        // Glibc's Swift module leaves out malloc_trim (malloc.h); it is looked up instead.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        return residentBytes()
    }

    /// A `kB` field of /proc/self/status, in bytes.
    static func statusBytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return bytes(field, inStatus: status)
    }

    /// The `FIELD:   123456 kB` line of a /proc/PID/status text, in bytes.
    static func bytes(_ field: String, inStatus status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3, fields[2] == "kB", let kibibytes = Int(fields[1]) else { return nil }
        return kibibytes * 1024
    }

    private static func entries(_ folder: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).count
    }
}

/// Process-wide settings vrender's entry point makes before any work.
package enum ProcessTuning {
    /// glibc's malloc gives threads up to 8 arenas per core and keeps what each arena once
    /// held. vrender starts fresh threads for every take and export, so a long-running process
    /// crept from 110 to 180 MB over 20 record-and-export rounds (`vrender bench soak`) without
    /// leaking anything; with a few arenas it stays flat. Frames come from pools, so the
    /// arenas are not contended on the per-frame path. Three, not two: a stream copy's audio
    /// check (`CopyAudioCheck`) allocates per packet beside the copying thread (FFmpeg's
    /// `av_malloc` is `posix_memalign`, which always takes the arena's lock), and with two
    /// arenas it often shared the copying thread's: 11,000-35,000 futex calls in an hour's
    /// copy instead of 4,500. The soak stays flat with three (20 rounds within 84.8-88.1 MB).
    package static func limitMallocArenas() {
        // Glibc's Swift module leaves out mallopt (malloc.h); it is looked up instead.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: MallOpt.self)(-8, 3)   // M_ARENA_MAX, 3
    }
}
