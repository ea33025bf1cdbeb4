import Glibc
import NIOCore
import Synchronization
import VRenderCore

/// How many connections the studio's server keeps, and for how long (issue 37 item 4).
///
/// Every connection is a file descriptor, and the recorder shares the process's descriptors:
/// its camera, take files, FFmpeg, and libdispatch, which reads `/proc/TID/stat` every second
/// and kills the process (SIGILL, "registered worker exited prematurely") when that open fails.
/// 1,100 idle connections at `ulimit -n 1024` once took the studio down mid-take that way. So
/// connections stay well below the limit, and one that does not ask for anything is closed.
package struct ConnectionLimits: Sendable, Equatable {
    /// Most connections open at once; the server closes the one idle longest to take another.
    package var maximum: Int
    /// From accepting a connection to the end of its first request's head (slow or silent
    /// clients: the browser sends its head at once).
    package var headerTimeout: Duration
    /// A kept-alive connection with no request in progress (Hummingbird's idle timeout).
    package var idleTimeout: Duration

    package init(maximum: Int, headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60)) {
        self.maximum = maximum
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
    }

    /// Descriptors kept for everything but connections: at least this many, or a quarter.
    package static let reservedDescriptors = 256
    /// A few pages need a few connections; more is someone else's.
    package static let mostConnections = 1024

    /// The limits for a process that may open `descriptors` files.
    package static func forDescriptors(_ descriptors: Int) -> ConnectionLimits {
        let reserved = max(reservedDescriptors, descriptors / 4)
        return ConnectionLimits(maximum: min(mostConnections, max(16, descriptors - reserved)))
    }

    /// Raises this process's soft descriptor limit to its hard limit (a desktop's 1024 is
    /// often a soft limit over a much higher hard one), and returns the soft limit in force.
    @discardableResult
    package static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }
}

/// The server's open connections, and when each was last active (a read or a write), across
/// all of NIO's event loops: at the cap, a new connection closes the one idle longest, so the
/// owner's request gets in however many connections strangers hold open, and a page's
/// WebSocket, which sends the preview all the time, is the last to go.
package final class ConnectionTable: Sendable {
    /// One connection's last activity, a tick of `clock`; written by its event loop without
    /// the table's lock.
    final class Activity: Sendable {
        let tick = Atomic<UInt64>(0)
    }

    private struct Entry {
        let channel: any Channel
        let activity: Activity
    }

    package let maximum: Int
    private let entries = Mutex([ObjectIdentifier: Entry]())
    /// Orders activity without reading a clock on every read and write.
    private let clock = Atomic<UInt64>(0)

    package init(maximum: Int) {
        self.maximum = maximum
    }

    package var count: Int { entries.withLock { $0.count } }

    /// Counts `channel` in (removed when it closes), first closing the connections idle
    /// longest when the table is full. Returns its activity, for the connection's handler.
    func admit(_ channel: any Channel) -> Activity {
        let activity = Activity()
        activity.tick.store(touch(), ordering: .relaxed)
        let key = ObjectIdentifier(channel)
        let evicted = entries.withLock { entries -> [any Channel] in
            var evicted: [any Channel] = []
            while entries.count >= maximum, let oldest = entries.min(by: { Self.older($0.value, $1.value) }) {
                entries[oldest.key] = nil
                evicted.append(oldest.value.channel)
            }
            entries[key] = Entry(channel: channel, activity: activity)
            return evicted
        }
        for channel in evicted { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.entries.withLock { _ = $0.removeValue(forKey: key) }
        }
        return activity
    }

    /// The next tick: the connection doing something now is the youngest.
    func touch() -> UInt64 {
        clock.wrappingAdd(1, ordering: .relaxed).newValue
    }

    private static func older(_ first: Entry, _ second: Entry) -> Bool {
        first.activity.tick.load(ordering: .relaxed) < second.activity.tick.load(ordering: .relaxed)
    }
}
