internal import CFFmpeg
import VRenderCore

/// Converts decoded audio of any layout, rate and sample format into one format (float, planar
/// for AAC or interleaved for libopus; 48 kHz stereo by default) and buffers it until an encoder takes fixed-size frames.
///
/// Owns a `SwrContext` (re-created when the input format changes, i.e. per take), an
/// `AVAudioFifo` and one scratch frame. Confined to one thread.
package final class AudioConverter {
    package let sampleRate: Int
    package let channels: Int
    /// The output sample format: `AV_SAMPLE_FMT_FLTP`, or `AV_SAMPLE_FMT_FLT` when interleaved.
    private let format: AVSampleFormat
    /// Buffers per frame (one per channel when planar) and bytes per sample in each.
    private let planeCount: Int
    private let bytesPerSample: Int
    private var resampler: OpaquePointer?
    private var inputSignature: (rate: Int32, format: Int32, channels: Int32)?
    private let fifo: OpaquePointer
    private let scratch = Frame()
    private var scratchCapacity = 0
    private let outputFrame = Frame()
    /// Called with every block of samples about to be buffered (converted, silence,
    /// interleaved), which it may change in place: a transition's fade or cross-fade. nil: none.
    package var shaper: ((SampleBlock) -> Void)?

    package init(sampleRate: Int = 48_000, channels: Int = 2, interleaved: Bool = false) {
        self.sampleRate = sampleRate
        self.channels = channels
        format = interleaved ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_FLTP
        planeCount = interleaved ? 1 : channels
        bytesPerSample = interleaved ? 4 * channels : 4
        guard let fifo = av_audio_fifo_alloc(format, Int32(channels), 4096) else {
            fatalError("av_audio_fifo_alloc: out of memory")
        }
        self.fifo = fifo
    }

    deinit {
        av_audio_fifo_free(fifo)
        swr_free(&resampler)
    }

    /// Samples waiting for the encoder.
    package var buffered: Int { Int(av_audio_fifo_size(fifo)) }

    /// Converts `frame` and appends it, after dropping its first `dropFirst` converted samples
    /// and keeping at most `limit`. Returns how many samples were dropped and appended.
    @discardableResult
    package func append(_ frame: Frame, dropFirst: Int = 0, limit: Int = .max) throws -> (dropped: Int, kept: Int) {
        try prepareResampler(for: frame)
        let source = frame.pointer.pointee
        // A decoded audio frame: `extended_data` points at its planes (at `data` for few channels).
        let planes = UnsafeMutableRawPointer(source.extended_data!).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let converted = try convert(input: planes, count: Int(source.nb_samples))
        return try appendScratch(count: converted, dropFirst: dropFirst, limit: limit)
    }

    /// Drains what the resampler still holds (its filter delay) at the end of a take.
    @discardableResult
    package func flushResampler(limit: Int = .max) throws -> Int {
        guard resampler != nil else { return 0 }
        let converted = try convert(input: nil, count: 0)
        let appended = try appendScratch(count: converted, dropFirst: 0, limit: limit).kept
        swr_free(&resampler)
        inputSignature = nil
        return appended
    }

    /// Appends interleaved float samples already at the output's rate and channel count (a
    /// microphone's sound, aligned by the recorder): no resampling, only de-interleaving for
    /// a planar encoder.
    package func appendInterleaved(_ samples: UnsafeBufferPointer<Float>) throws {
        let count = samples.count / channels
        guard count > 0 else { return }
        try ensureScratch(capacity: count)
        let planes = scratchPlanes()   // planes 0..<planeCount allocated: see `scratchPlanes`
        if planeCount == 1 {
            planes[0]!.copyMemory(from: samples.baseAddress!, byteCount: count * bytesPerSample)
        } else {
            for channel in 0..<channels {
                let plane = planes[channel]!.assumingMemoryBound(to: Float.self)
                for index in 0..<count { plane[index] = samples[index * channels + channel] }
            }
        }
        try write(planes, count: count)
    }

    /// Appends `count` samples of silence.
    package func appendSilence(_ count: Int) throws {
        var remaining = count
        while remaining > 0 {
            let chunk = Swift.min(remaining, 4096)
            try ensureScratch(capacity: chunk)
            let data = scratchPlanes()   // planes 0..<planeCount allocated: see `scratchPlanes`
            for plane in 0..<planeCount { data[plane]!.initializeMemory(as: UInt8.self, repeating: 0, count: chunk * bytesPerSample) }
            try write(data, count: chunk)
            remaining -= chunk
        }
    }

    /// Takes up to `count` samples out as a frame stamped `pts` (in samples). The frame is
    /// reused between calls: the caller must be done with it (e.g. have sent it to an encoder,
    /// which copies or references it) before calling again.
    package func pop(count: Int, pts: Int64) throws -> Frame? {
        let available = Swift.min(count, buffered)
        guard available > 0 else { return nil }
        let frame = outputFrame.pointer
        if frame.pointee.nb_samples != Int32(available) || !outputFrame.isWritable {
            try allocate(outputFrame, samples: available)
        }
        let read = frame.pointee.extended_data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: planeCount) {
            av_audio_fifo_read(fifo, $0, Int32(available))
        }
        try check(read, "av_audio_fifo_read")
        frame.pointee.pts = pts
        return outputFrame
    }

    /// Takes up to `count` samples out as interleaved floats, appended to `samples` (the
    /// loudness shaper and meter work on them in Swift). Returns how many were taken.
    @discardableResult
    package func popInterleaved(count: Int, into samples: inout [Float]) throws -> Int {
        let available = Swift.min(count, buffered)
        guard available > 0 else { return 0 }
        try ensureScratch(capacity: available)
        let planes = scratchPlanes()   // planes 0..<planeCount allocated: see `scratchPlanes`
        try check(av_audio_fifo_read(fifo, planes.baseAddress, Int32(available)), "av_audio_fifo_read")
        let start = samples.count
        samples.append(contentsOf: repeatElement(0, count: available * channels))
        samples.withUnsafeMutableBufferPointer { out in
            if planeCount == 1 {
                let source = planes[0]!.assumingMemoryBound(to: Float.self)
                for index in 0..<available * channels { out[start + index] = source[index] }
            } else {
                for channel in 0..<channels {
                    let plane = planes[channel]!.assumingMemoryBound(to: Float.self)
                    for index in 0..<available { out[start + index * channels + channel] = plane[index] }
                }
            }
        }
        return available
    }

    /// Takes the last `count` buffered samples out (fewer when fewer are buffered), one array
    /// per channel; the ones before them stay buffered, in order.
    package func removeTail(_ count: Int) throws -> [[Float]] {
        let total = buffered
        let tail = Swift.min(count, total)
        guard tail > 0 else { return Array(repeating: [], count: channels) }
        let all = Frame()
        try allocate(all, samples: total)   // threw unless `extended_data` and every plane are allocated
        let planes = UnsafeMutableBufferPointer(
            start: UnsafeMutableRawPointer(all.pointer.pointee.extended_data)!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
            count: planeCount)
        try check(av_audio_fifo_read(fifo, planes.baseAddress, Int32(total)), "av_audio_fifo_read")
        try writeUnshaped(planes, count: total - tail)
        let block = SampleBlock(planes: planes, count: total, channels: channels, interleaved: planeCount == 1 && channels > 1)
        return (0..<channels).map { channel in (0..<tail).map { block[channel, total - tail + $0] } }
    }

    /// Appends samples given one array per channel (all of one length), as they are: `shaper`
    /// does not see them.
    package func appendUnshaped(_ samples: [[Float]]) throws {
        let count = samples.first?.count ?? 0
        guard count > 0, samples.count == channels else { return }
        try ensureScratch(capacity: count)
        let planes = scratchPlanes()
        let block = SampleBlock(planes: planes, count: count, channels: channels, interleaved: planeCount == 1 && channels > 1)
        for channel in 0..<channels {
            for index in 0..<count { block[channel, index] = samples[channel][index] }
        }
        try writeUnshaped(planes, count: count)
    }

    // MARK: - Internals

    private func prepareResampler(for frame: Frame) throws {
        let source = frame.pointer.pointee
        let signature = (source.sample_rate, source.format, source.ch_layout.nb_channels)
        if let current = inputSignature, current == signature, resampler != nil { return }
        swr_free(&resampler)
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        var inLayout = source.ch_layout
        if inLayout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inLayout, inLayout.nb_channels)
        }
        try check(swr_alloc_set_opts2(&resampler, &outLayout, format, Int32(sampleRate),
                                      &inLayout, AVSampleFormat(rawValue: source.format), source.sample_rate, 0, nil),
                  "swr_alloc_set_opts2")
        try check(swr_init(resampler), "swr_init")
        inputSignature = signature
    }

    /// Runs the resampler into the scratch frame; returns the number of samples produced.
    private func convert(input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int) throws -> Int {
        let capacity = Int(swr_get_out_samples(resampler, Int32(count))) + 32
        try ensureScratch(capacity: capacity)
        let output = scratchPlanes()
        let produced = output.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self) { out in
            swr_convert(resampler, out.baseAddress, Int32(capacity), input, Int32(count))
        }
        return Int(try check(produced, "swr_convert"))
    }

    private func appendScratch(count: Int, dropFirst: Int, limit: Int) throws -> (dropped: Int, kept: Int) {
        let skip = Swift.min(dropFirst, count)
        let keep = Swift.max(0, Swift.min(count - skip, limit))
        guard keep > 0 else { return (skip, 0) }
        let planes = scratchPlanes()
        var shifted = planes.map { $0.map { $0 + skip * bytesPerSample } }
        try shifted.withUnsafeMutableBufferPointer { try write($0, count: keep) }
        return (skip, keep)
    }

    /// Every sample that enters the buffer passes `shaper` first (when set), silence included.
    private func write(_ planes: UnsafeMutableBufferPointer<UnsafeMutableRawPointer?>, count: Int) throws {
        shaper?(SampleBlock(planes: planes, count: count, channels: channels, interleaved: planeCount == 1 && channels > 1))
        try writeUnshaped(planes, count: count)
    }

    private func writeUnshaped(_ planes: UnsafeMutableBufferPointer<UnsafeMutableRawPointer?>, count: Int) throws {
        guard count > 0 else { return }
        let written = av_audio_fifo_write(fifo, planes.baseAddress, Int32(count))
        try check(written, "av_audio_fifo_write")
    }

    private func ensureScratch(capacity: Int) throws {
        guard capacity > scratchCapacity else { return }
        try allocate(scratch, samples: capacity)
        scratchCapacity = capacity
    }

    /// Gives `frame` fresh buffers for `samples` samples of the output format.
    private func allocate(_ frame: Frame, samples: Int) throws {
        let pointer = frame.pointer
        av_frame_unref(pointer)
        pointer.pointee.format = format.rawValue
        pointer.pointee.sample_rate = Int32(sampleRate)
        pointer.pointee.nb_samples = Int32(samples)
        av_channel_layout_default(&pointer.pointee.ch_layout, Int32(channels))
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer(audio)")
    }

    /// The scratch frame's planes, each non-nil: `ensureScratch` allocated them
    /// (`av_frame_get_buffer`, which throws rather than leave one out), `extended_data` too.
    private func scratchPlanes() -> UnsafeMutableBufferPointer<UnsafeMutableRawPointer?> {
        UnsafeMutableBufferPointer(
            start: UnsafeMutableRawPointer(scratch.pointer.pointee.extended_data)!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
            count: planeCount)
    }
}

/// A block of float samples on its way into an `AudioConverter`'s buffer, planar or
/// interleaved, read and written by channel and index. Valid only during the call it is given to.
public struct SampleBlock {
    let planes: UnsafeMutableBufferPointer<UnsafeMutableRawPointer?>
    /// Samples per channel.
    public let count: Int
    public let channels: Int
    let interleaved: Bool

    public subscript(channel: Int, index: Int) -> Float {
        get { pointer(channel, index).pointee }
        nonmutating set { pointer(channel, index).pointee = newValue }
    }

    /// `planes` come from `scratchPlanes` or an allocated frame: none of them is nil.
    private func pointer(_ channel: Int, _ index: Int) -> UnsafeMutablePointer<Float> {
        interleaved ? planes[0]!.assumingMemoryBound(to: Float.self) + index * channels + channel
            : planes[channel]!.assumingMemoryBound(to: Float.self) + index
    }
}
