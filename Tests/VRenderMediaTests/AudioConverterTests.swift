import CFFmpeg
import Testing
@testable import VRenderMedia

/// A mono 44.1 kHz float frame of `count` samples at a constant level.
private func monoFrame(count: Int, level: Float) throws -> Frame {
    let frame = Frame()
    frame.pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
    frame.pointer.pointee.sample_rate = 44_100
    frame.pointer.pointee.nb_samples = Int32(count)
    av_channel_layout_default(&frame.pointer.pointee.ch_layout, 1)
    #expect(av_frame_get_buffer(frame.pointer, 0) >= 0)
    let samples = UnsafeMutableRawPointer(frame.pointer.pointee.data.0!).assumingMemoryBound(to: Float.self)
    samples.update(repeating: level, count: count)
    return frame
}

@Suite struct AudioConverterTests {
    @Test func resamplesToTheOutputRateAndLayout() throws {
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        var appended = 0
        for _ in 0..<10 { appended += try converter.append(try monoFrame(count: 4410, level: 0.25)).kept }
        appended += try converter.flushResampler()
        // One second at 44.1 kHz becomes one second at 48 kHz (the resampler's edges aside).
        #expect(abs(appended - 48_000) <= 64)
        #expect(converter.buffered == appended)
        let out = try #require(try converter.pop(count: 1024, pts: 0))
        #expect(out.sampleCount == 1024)
        #expect(out.pointer.pointee.ch_layout.nb_channels == 2)
    }

    @Test func trimsAndDropsExactly() throws {
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        let result = try converter.append(try monoFrame(count: 4410, level: 0.5), dropFirst: 100, limit: 1000)
        #expect(result.dropped == 100)
        #expect(result.kept == 1000)
        #expect(converter.buffered == 1000)
    }

    @Test func silenceIsZero() throws {
        let converter = AudioConverter(sampleRate: 48_000, channels: 2)
        try converter.appendSilence(5000)
        #expect(converter.buffered == 5000)
        let frame = try #require(try converter.pop(count: 4096, pts: 0))
        let left = UnsafeMutableRawPointer(frame.pointer.pointee.data.0!).assumingMemoryBound(to: Float.self)
        #expect((0..<4096).allSatisfy { left[$0] == 0 })
        #expect(converter.buffered == 904)
    }
}
