#if canImport(Glibc)
import Glibc
#endif

/// The capture time of a period from ALSA's own timestamp (the arithmetic of the brief, kept
/// pure so it is tested without a sound card).
enum ALSAClock {
    /// `snd_pcm_htimestamp` says that at `timestamp` (CLOCK_MONOTONIC seconds) `available`
    /// frames had been captured and not yet read. The `framesRead` frames just read came before
    /// those, so the first of them was captured `(available + framesRead) / rate` earlier.
    static func firstSampleTime(timestamp: Double, available: Int, framesRead: Int, sampleRate: Int) -> Double {
        timestamp - Double(available + framesRead) / Double(sampleRate)
    }

    /// A `timespec` as seconds. Zero means the driver has not stamped a position yet (before the
    /// first period completes), which callers treat as "no timestamp".
    static func seconds(seconds: Int, nanoseconds: Int) -> Double {
        Double(seconds) + Double(nanoseconds) / 1e9
    }
}

/// What a negative ALSA return code means to the reading loop.
enum ALSAReadOutcome: Equatable {
    /// Nothing to read yet, or a signal interrupted the wait: wait again.
    case again
    /// An overrun (-EPIPE): the ring overflowed while vrender was late. Prepare and start the
    /// device again; the next period's timestamp shows the gap, which becomes silence.
    case overrun
    /// The device is gone (unplugged, suspended, closed under us): end the source.
    case gone
    /// Anything else: a real error.
    case failed

    static func classify(_ code: Int) -> ALSAReadOutcome {
        switch Int32(-code) {
        case EAGAIN, EINTR: return .again
        case EPIPE: return .overrun
        case ENODEV, ESTRPIPE, EBADFD, EIO, ENXIO: return .gone
        default: return .failed
        }
    }
}
