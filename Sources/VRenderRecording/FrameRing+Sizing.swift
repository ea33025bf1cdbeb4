import Foundation
import VRenderCapture

/// How many slots a recording's ring starts with, and how far a live one may grow while its
/// writer is behind (`FrameRing`).
struct RingSizing: Equatable {
    var initialSlots: Int
    var maxSlots: Int

    /// Seconds of frames made at once beyond the pre-roll: a live encoder's usual delay.
    static let workingSeconds = 0.5
    /// Seconds of frames a live ring may grow to hold while the writer is behind: under qemu's
    /// emulation (vivid, 640x480 at 25 fps) measuring the codecs takes 2.7 s and opening a
    /// take's encoder 0.6 s, where 0.5 s of slots dropped up to half of a 4 s take.
    static let backlogSeconds = 5.0
    /// The most memory the growth may take, whatever the frame size.
    static let backlogByteLimit = 256 << 20

    init(initialSlots: Int, maxSlots: Int) {
        self.initialSlots = initialSlots
        self.maxSlots = maxSlots
    }

    /// For `format` with `prerollFrames` of pre-roll; growth is held to `backlogSeconds` of
    /// frames and to an eighth of `physicalMemory` (a small VM must not swap to save frames),
    /// at most `backlogByteLimit`.
    init(format: NegotiatedFormat, prerollFrames: Int, physicalMemory: Int = RingSizing.physicalMemory()) {
        let rate = format.frameRate.doubleValue
        initialSlots = prerollFrames + Swift.max(8, Int((rate * Self.workingSeconds).rounded()))
        let frameBytes = Swift.max(1, format.width * format.height * 3 / 2)
        let byteLimit = Swift.min(Self.backlogByteLimit, physicalMemory / 8)
        let growth = Swift.min(Int((rate * Self.backlogSeconds).rounded()), byteLimit / frameBytes)
        maxSlots = initialSlots + Swift.max(0, growth)
    }

    /// The machine's memory in bytes (0 when the system does not say).
    static func physicalMemory() -> Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), pageSize = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && pageSize > 0 ? pages * pageSize : 0
    }
}
