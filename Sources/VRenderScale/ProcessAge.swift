import Foundation

/// How long this process has run, from the kernel's record of its start (`/proc/self/stat`,
/// in clock ticks since boot: 10 ms steps), so that a chunk's start-up counts what comes before
/// `main` too (loading vrender's and FFmpeg's libraries).
enum ProcessAge {
    /// Seconds since this process started; nil where /proc cannot tell.
    static func seconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3, the state;
        // field 22 is the start time.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard fields.count > 19, let ticks = Double(fields[19]), ticksPerSecond > 0 else { return nil }
        var now = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return nil }
        let age = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - ticks / Double(ticksPerSecond)
        return age >= 0 ? age : nil
    }
}
