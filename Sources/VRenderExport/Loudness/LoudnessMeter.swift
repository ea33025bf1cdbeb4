internal import CEBUR128
import Foundation
import VRenderCore

/// Integrated loudness and true peak of a stereo signal (ITU-R BS.1770-4 / EBU R128), by
/// libebur128. Feed it interleaved floats, then read the results.
final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?

    init(sampleRate: Int) throws {
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
        guard let state = ebur128_init(2, UInt(sampleRate), mode) else {
            throw VRenderError(.runtime, subject: "loudness", reason: "libebur128 could not start (out of memory?)")
        }
        self.state = state
    }

    deinit { ebur128_destroy(&state) }

    func add(_ samples: [Float]) throws {
        let frames = samples.count / 2
        guard frames > 0 else { return }
        let result = samples.withUnsafeBufferPointer { ebur128_add_frames_float(state, $0.baseAddress, frames) }
        try check(result, "ebur128_add_frames_float")
    }

    /// Integrated loudness in LUFS; nil when the signal is silent (no block above the absolute
    /// gate, -70 LUFS).
    func integrated() throws -> Double? {
        var loudness = 0.0
        try check(ebur128_loudness_global(state, &loudness), "ebur128_loudness_global")
        return loudness.isFinite ? loudness : nil
    }

    /// The larger channel's true peak in dBTP; nil when every sample is zero.
    func truePeak() throws -> Double? {
        var peak = 0.0
        for channel in 0..<2 {
            var value = 0.0
            try check(ebur128_true_peak(state, UInt32(channel), &value), "ebur128_true_peak")
            peak = Swift.max(peak, value)
        }
        return peak > 0 ? 20 * log10(peak) : nil
    }

    private func check(_ result: Int32, _ call: String) throws {
        guard result != Int32(EBUR128_SUCCESS.rawValue) else { return }
        throw VRenderError(.runtime, subject: "loudness", reason: "\(call) failed (libebur128 error \(result))")
    }
}
