#if canImport(Glibc)
import Glibc
#endif

/// Background work that must yield to recording (the studio's preview, the takes' playable
/// copies and checks) runs at a lower priority: on Linux niceness is per thread, and the
/// threads a thread starts (an export's stages, a codec's workers) inherit it. Threads get it
/// from `StageGroup.start(_:niceness:_:)`, the one place it is set.
enum ThreadNiceness {
    /// Lowers the calling thread's priority to `niceness` (0 normal ... 19 lowest). A failure
    /// leaves it at normal priority, which is only slower to yield, so it is not reported.
    static func lowerCurrentThread(to niceness: Int32) {
        #if os(Linux)
        // `who` 0 is the calling task, which on Linux is this thread, not the whole process
        // (setpriority(2), NOTES).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }
}
