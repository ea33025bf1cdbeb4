import VRenderCapture
import VRenderMedia

/// Where an interactive capture shows its picture while it records (`vrender studio`'s page).
///
/// The capture thread offers every frame it has put in the ring; the preview takes a reference
/// (`Frame.reference`, no copy) when it is ready for one and lets the others go. Recording has
/// priority: `offer` never waits, so a slow preview skips frames and the takes never do.
public protocol LivePreview: Sendable {
    /// Called on the capture thread for each frame, right after it went into the ring.
    /// `time`: seconds since capture started (the take's clock); `monotonic`: the same instant
    /// on CLOCK_MONOTONIC, seconds, when the source knows its origin there (nil: not known).
    /// Must return at once: reference the frame or drop it, never copy it here or wait.
    func offer(_ frame: Frame, time: Double, monotonic: Double?, sequence: Int)
}
