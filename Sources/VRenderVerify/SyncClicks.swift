/// A clapper click found in the sound: its onset on the file's clock and its amplitude.
struct SyncClick: Equatable {
    var time: Double
    var level: Float
}

extension SyncSound {
    /// Bursts closer than this (in windows, ms) are one: the loudest stands.
    static let separation = 40
    /// A click reaches this share of the reference level: the file's clicks, levelled or not,
    /// are within a few dB of each other. Clicks a dissolve mixes in under half are missed,
    /// their flashes blended and skipped too.
    static let relativeThreshold: Float = 0.5
    /// Below this the file is silent there (about -100 dBFS).
    static let floor: Float = 1e-5

    /// The clicks in the sound, judged against the file's own level: the reference is the
    /// median amplitude of the `expected` loudest click-shaped bursts (the flashes seen), so a
    /// file levelled 30 dB down or squeezed by a limiter finds the same clicks as the take.
    func clicks(expected: Int) -> (clicks: [SyncClick], reference: Float) {
        let peaks = matchPeaks()
        let loudest = peaks.map { match[$0] }.sorted(by: >).prefix(max(1, expected))
        let reference = loudest.isEmpty ? 0 : loudest[loudest.count / 2]
        let threshold = max(reference * Self.relativeThreshold, Self.floor)
        let clicks = peaks.filter { match[$0] >= threshold }
            .map { SyncClick(time: time(ofSample: matchAt[$0]), level: match[$0]) }
        return (clicks, reference)
    }

    /// Windows whose click is the loudest within `separation` either way (the first of equals).
    private func matchPeaks() -> [Int] {
        var found: [Int] = []
        var index = 0
        while index < match.count {
            let low = max(0, index - Self.separation), high = min(match.count, index + Self.separation + 1)
            let value = match[index]
            if value > Self.floor, !match[low..<index].contains(where: { $0 >= value }),
               !match[(index + 1)..<high].contains(where: { $0 > value }) {
                found.append(index)
                index += Self.separation
            } else {
                index += 1
            }
        }
        return found
    }

    /// True when the sound from `seconds` for `milliseconds` is silence (under a thousandth of
    /// the reference level, or missing): a take's edge, where its sound starts after its first
    /// picture, or a gap; a flash there is not heard.
    func isSilent(at seconds: Double, milliseconds: Int, reference: Float) -> Bool {
        let first = window(at: seconds)
        let quiet = max(reference * 0.001, Self.floor)
        return (first..<(first + milliseconds)).allSatisfy { $0 < 0 || $0 >= peak.count || peak[$0] < quiet }
    }
}
