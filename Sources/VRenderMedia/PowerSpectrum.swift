internal import CFFmpeg

/// The power spectrum of blocks of real samples, by FFmpeg's real FFT (`av_tx`): what caption
/// alignment builds its spectral features on. One per thread: it keeps its buffers.
// @unchecked Sendable: moved between threads, used by one at a time (the buffers are scratch).
package final class PowerSpectrum: @unchecked Sendable {
    /// Samples per block (a power of two).
    package let length: Int
    /// `length / 2 + 1` bins, from 0 Hz to half the sample rate.
    package var binCount: Int { length / 2 + 1 }

    private var context: OpaquePointer?
    private let transform: av_tx_fn
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<AVComplexFloat>

    /// - Throws: `FFmpegError` when FFmpeg has no transform of this length.
    package init(length: Int) throws {
        precondition(length >= 16 && length & (length - 1) == 0, "a power of two")
        self.length = length
        var scale: Float = 1
        var function: av_tx_fn?
        _ = try check(av_tx_init(&context, &function, AV_TX_FLOAT_RDFT, 0, Int32(length), &scale, 0), "av_tx_init")
        guard let function else { throw FFmpegError("av_tx_init", code: -1) }
        transform = function
        // av_malloc: the alignment the transform's SIMD code expects.
        input = av_malloc(length * MemoryLayout<Float>.size)!.assumingMemoryBound(to: Float.self)
        output = av_malloc((length / 2 + 1) * MemoryLayout<AVComplexFloat>.size)!.assumingMemoryBound(to: AVComplexFloat.self)
    }

    deinit {
        av_tx_uninit(&context)
        av_free(input)
        av_free(output)
    }

    /// |X(k)|² of `samples` (at most `length`; zero-padded) multiplied by `window` (as long as
    /// `samples`), into `power` (`binCount` values).
    package func power(of samples: UnsafeBufferPointer<Float>, window: [Float], into power: inout [Float]) {
        precondition(samples.count <= length && window.count >= samples.count && power.count == binCount)
        for index in 0..<samples.count { input[index] = samples[index] * window[index] }
        for index in samples.count..<length { input[index] = 0 }
        transform(context, output, input, MemoryLayout<Float>.size)
        for bin in 0..<binCount {
            let value = output[bin]
            power[bin] = value.re * value.re + value.im * value.im
        }
    }
}
