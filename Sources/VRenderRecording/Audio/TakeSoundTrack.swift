import Foundation
import VRenderCore
import VRenderMedia

/// A take's sound in its file: reads the take's span of the `AudioTimeline` (from the capture
/// time of the take's first frame, pre-roll included, to the end of its last), encodes it as AAC
/// and hands the packets to the take's muxer beside the video. The writer calls `write(through:)`
/// before each frame, so every fragment holds both streams up to the same instant.
/// Confined to the writer thread.
final class TakeSoundTrack {
    let stream: Int
    private let timeline: AudioTimeline
    private let encoder: Encoder
    private let converter: AudioConverter
    /// The next timeline index to read.
    private var next: Int64 = 0
    private var samplesEncoded: Int64 = 0
    private var scratch: UnsafeMutableBufferPointer<Float>
    private(set) var missingFrames = 0
    private var peak: Float = 0

    /// Frames read from the timeline at a time.
    private static let chunkFrames = 4096
    /// How long the end of a live take waits for its last sound to arrive: a device's latency is
    /// tens of milliseconds, but an audio thread starved on a loaded machine fell two seconds
    /// behind in a ten-minute take (a debug build beside a full test run), and a one-second wait
    /// lost that sound. The ring holds the frames meanwhile.
    static let finalWaitNanoseconds: UInt64 = 3_000_000_000

    init(timeline: AudioTimeline, muxer: Muxer) throws {
        self.timeline = timeline
        encoder = try Encoder.aac(sampleRate: timeline.rate, channels: timeline.channels,
                                  bitRate: 64_000 * timeline.channels, globalHeader: muxer.needsGlobalHeader)
        converter = AudioConverter(sampleRate: timeline.rate, channels: timeline.channels)
        stream = try muxer.addStream(from: encoder)
        scratch = .allocate(capacity: Self.chunkFrames * timeline.channels)
    }

    deinit {
        timeline.pin(nil)
        scratch.deallocate()
    }

    /// AAC's priming: the encoder's first packet decodes to these many samples of nothing
    /// before the first sample it was given.
    static let primingSamples: Int64 = 1024

    /// The take's sound starts at capture time `seconds` (its first frame's). Its first
    /// `primingSamples` (21 ms at 48 kHz) are AAC's priming, not the microphone's: a fragmented
    /// QuickTime file cannot say to skip them (no edit list before the media), and its tracks
    /// start at 0, so the priming packet goes where the take starts and the microphone's sound
    /// follows it, each sample at its capture time. (Given from the take's start, the priming
    /// would have a negative time; the muxer's shift for it then moved the first video frame,
    /// stretched back to 0, 21 ms ahead of its sound.)
    func begin(at seconds: Double) {
        let index = timeline.index(at: seconds) + Self.primingSamples
        next = index
        samplesEncoded = Self.primingSamples
        timeline.pin(index)
    }

    /// Encodes the sound up to capture time `seconds`: in batch waiting for it, live only what
    /// has arrived.
    func write(through seconds: Double, output: (Packet) throws -> Void) throws {
        let target = timeline.index(at: seconds)
        try read(upTo: timeline.available(through: target, deadline: nil))
        try encodeWholeFrames(output: output)
    }

    /// Ends the take's sound at capture time `seconds`: waits (live: at most a second) for the
    /// rest to arrive, reads what did not as silence, flushes the encoder.
    func finish(through seconds: Double, output: (Packet) throws -> Void) throws {
        let target = timeline.index(at: seconds)
        let deadline = MonotonicClock.now() &+ Self.finalWaitNanoseconds
        try read(upTo: timeline.available(through: target, deadline: deadline))
        try read(upTo: target)   // what never came: silence, counted missing
        try encodeWholeFrames(output: output)
        // The last part-frame (under 21 ms) is left out: a fragmented file stores the frame's
        // full 1024-sample duration, so the sound would run on past the picture and a copy of
        // the takes one after another would start the next take's sound late by as much.
        try encoder.encode(nil, makePacket: Packet.init, output: output)
        timeline.pin(nil)
    }

    /// What takes.json says about the take's sound (the device's name added by the caller).
    var summary: (rate: Int, channels: Int, peakDBFS: Double, missingMilliseconds: Double) {
        (timeline.rate, timeline.channels, LevelMeter.decibels(Double(peak)),
         Double(missingFrames) * 1000 / Double(timeline.rate))
    }

    private func read(upTo end: Int64) throws {
        while next < end {
            let frames = Int(Swift.min(Int64(Self.chunkFrames), end - next))
            missingFrames += timeline.copy(from: next, frames: frames, into: scratch)
            let samples = UnsafeBufferPointer(rebasing: scratch[..<(frames * timeline.channels)])
            for sample in samples { peak = Swift.max(peak, abs(sample)) }
            try converter.appendInterleaved(samples)
            next += Int64(frames)
        }
        timeline.pin(next)
    }

    private func encodeWholeFrames(output: (Packet) throws -> Void) throws {
        let size = encoder.frameSize
        while converter.buffered >= size, let frame = try converter.pop(count: size, pts: samplesEncoded) {
            samplesEncoded += Int64(size)
            try encoder.encode(frame, makePacket: Packet.init, output: output)
        }
    }
}
