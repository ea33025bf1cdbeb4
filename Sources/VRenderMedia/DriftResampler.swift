internal import CFFmpeg
import VRenderCore

/// Converts a microphone's interleaved samples (S16, S32 or float; 8–192 kHz; 1–8 channels)
/// into interleaved float at the take's rate and channel count, and absorbs the device clock's
/// drift by resampling by a tiny ratio (libswresample's compensation) rather than by dropping
/// or repeating audible chunks.
///
/// Owns one `SwrContext` and one output buffer, reused for every period. Confined to the
/// audio thread.
package final class DriftResampler {
    package let inputRate: Int
    package let outputRate: Int
    package let outputChannels: Int
    private let inputChannels: Int
    private let bytesPerInputFrame: Int
    private var context: OpaquePointer?
    /// The output buffer (`outputCapacity` samples per channel), grown when a period needs more.
    private var output = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var outputCapacity = 0

    package init(inputRate: Int, inputChannels: Int, inputFormat: AudioSampleFormat,
                outputRate: Int, outputChannels: Int) throws {
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.outputChannels = outputChannels
        self.inputChannels = inputChannels
        bytesPerInputFrame = inputChannels * inputFormat.bytesPerSample
        var inLayout = AVChannelLayout()
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(inputChannels))
        av_channel_layout_default(&outLayout, Int32(outputChannels))
        let sampleFormat: AVSampleFormat = switch inputFormat {
        case .s16: AV_SAMPLE_FMT_S16
        case .s32: AV_SAMPLE_FMT_S32
        case .f32: AV_SAMPLE_FMT_FLT
        }
        try check(swr_alloc_set_opts2(&context, &outLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate),
                                      &inLayout, sampleFormat, Int32(inputRate), 0, nil), "swr_alloc_set_opts2")
        // Resample even at equal rates: compensation needs the resampler's filter in the path.
        av_opt_set_int(UnsafeMutableRawPointer(context), "flags", Int64(SWR_FLAG_RESAMPLE), 0)
        try check(swr_init(context), "swr_init")
    }

    deinit {
        swr_free(&context)
        output.deallocate()
    }

    /// Output samples (per channel) still inside the resampler's filter: what a period's output
    /// lags its input by.
    package var delay: Double {
        Double(swr_get_delay(context, Int64(outputRate)))
    }

    /// Asks the resampler to stretch (`samples` > 0) or squeeze its output by `samples` output
    /// samples spread over the next `distance` output samples. Replaces any earlier request.
    package func compensate(samples: Int, over distance: Int) throws {
        try check(swr_set_compensation(context, Int32(samples), Int32(Swift.max(distance, 1))), "swr_set_compensation")
    }

    /// Converts `frames` interleaved input frames. Returns the output, interleaved float,
    /// valid until the next call.
    package func convert(_ input: UnsafeRawBufferPointer, frames: Int) throws -> UnsafeBufferPointer<Float> {
        precondition(input.count >= frames * bytesPerInputFrame, "a period shorter than its frame count")
        // Generous room: the ratio may move by a few per mille, and the filter releases its delay.
        let capacity = Int(swr_get_out_samples(context, Int32(frames))) + 64
        if outputCapacity < capacity {
            output.deallocate()
            output = .allocate(capacity: capacity * outputChannels)
            outputCapacity = capacity
        }
        var outPlane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self)
        var inPlane: UnsafePointer<UInt8>? = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let produced = try check(swr_convert(context, &outPlane, Int32(capacity), &inPlane, Int32(frames)), "swr_convert")
        return UnsafeBufferPointer(start: output, count: Int(produced) * outputChannels)
    }
}
