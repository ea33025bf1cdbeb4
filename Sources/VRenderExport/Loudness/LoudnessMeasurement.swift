import VRenderCore
import VRenderMedia

/// The measuring pass of `--loudness`: every take's audio decoded (no video) from where the
/// export reads it (`TakeSeek.openForSound`), fitted to the timeline by `AudioFitter` exactly
/// as the audio stage fits it, and metered whole, one meter per output track. Runs before the
/// pipeline, which needs the gain from its first sample.
///
/// Where the gain would push the true peak over the limiter's ceiling, the limiter takes some
/// loudness away (a lot from sound whose loudness is in its peaks): the sound is then measured
/// again as it will be encoded, through the gain and the limiter (`LoudnessShaper`), and the
/// gain raised by what is missing (the second time along the line through the two tries: the
/// limiter gives back less than each dB asked), at most three times.
enum LoudnessMeasurement {
    static func plan(for plan: ExportPlan, target: Double) throws -> LoudnessPlan {
        let start = MonotonicClock.now()
        let measured = try measure(plan, gains: Array(repeating: nil, count: plan.audio.trackCount))
        var gains = measured.map { $0.integrated.map { target - $0 } }
        // Per track, the last try: the gain and the loudness it gave.
        var tries: [(gain: Double, loudness: Double)?] = gains.map { gain in gain.map { ($0, target) } }
        for _ in 0..<3 {
            let limited = gains.indices.filter { track in
                guard let gain = gains[track], let peak = measured[track].truePeak else { return false }
                return peak + gain > LoudnessShaper.limiterCeiling
            }
            guard !limited.isEmpty else { break }
            let shaped = try measure(plan, gains: gains)
            var settled = true
            for track in limited {
                guard let loudness = shaped[track].integrated, let gain = gains[track] else { continue }
                let missing = target - loudness
                if abs(missing) > 0.05 { settled = false }
                // dB of loudness per dB of gain: 1 without limiting, less with.
                var slope = 1.0
                if let last = tries[track], last.gain != gain {
                    slope = Swift.min(1, Swift.max(0.1, (loudness - last.loudness) / (gain - last.gain)))
                }
                tries[track] = (gain, loudness)
                gains[track] = gain + missing / slope
            }
            if settled { break }
        }
        let seconds = MonotonicClock.seconds(since: start)
        return LoudnessPlan(target: target, measured: measured, gains: gains, measureSeconds: seconds)
    }

    /// Each output track's integrated loudness and true peak, through its gain and the
    /// limiter where `gains` has one.
    private static func measure(_ plan: ExportPlan, gains: [Double?]) throws -> [(integrated: Double?, truePeak: Double?)] {
        let rate = plan.timeline.sampleRate
        let meters = try gains.map { _ in try LoudnessMeter(sampleRate: rate) }
        var samples: [Float] = []
        let fitters = zip(meters, gains).map { meter, gain in
            var shaper = gain.map { LoudnessShaper(gainDecibels: $0, sampleRate: rate) }
            return AudioFitter(plan: plan, interleaved: true) { converter, available in
                samples.removeAll(keepingCapacity: true)
                try converter.popInterleaved(count: available, into: &samples)
                // (The limiter's last 5 ms, which `finish` would give, are left unmeasured.)
                try meter.add(shaper?.process(samples) ?? samples)
            }
        }
        for (index, take) in plan.takes.enumerated() {
            let demuxer = try TakeSeek.openForSound(take, takeIndex: index, plan: plan)
            var routes: [Int: AudioFitter] = [:]
            for (track, fitter) in fitters.enumerated() {
                let source = plan.audio.source(take: take, takeIndex: index, track: track)
                try fitter.beginTake(index, decoder: try source.map { try Decoder(demuxer: demuxer, streamIndex: $0.index, threads: 1) })
                if let source { routes[source.index] = fitter }
            }
            let packet = Packet()
            while demuxer.read(into: packet) {
                defer { packet.unref() }
                try routes[packet.streamIndex]?.decode(packet)
            }
            for fitter in fitters { _ = try fitter.endTake(index) }
        }
        return try meters.map { (integrated: try $0.integrated(), truePeak: try $0.truePeak()) }
    }
}
