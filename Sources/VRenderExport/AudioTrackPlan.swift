import VRenderCore
import VRenderMedia

/// Which audio tracks the output has, and which track of each take feeds each of them.
package struct AudioTrackPlan: Sendable, Equatable {
    /// Output track count: 0 when no take has audio.
    package var trackCount: Int
    /// For output track `k`, the position among take `t`'s audio tracks that feeds it:
    /// `sources[t][k]`, nil where the take has no such track (it contributes silence).
    package var sources: [[Int?]]
    /// What was left out, for the plan's notices.
    package var dropped: [String]

    /// Every track is kept when all takes with audio have the same number of tracks; otherwise
    /// track `chosen` (1-based, default 1) of each take, and the others are named as dropped.
    /// `chosen` also selects one track from takes that agree.
    static func make(takes: [MediaInfo], chosen: Int?) throws -> AudioTrackPlan {
        let counts = takes.map(\.audioTracks.count)
        let withAudio = counts.filter { $0 > 0 }
        guard let most = counts.max(), most > 0 else {
            return AudioTrackPlan(trackCount: 0, sources: takes.map { _ in [] }, dropped: [])
        }
        if chosen == nil, Set(withAudio).count == 1 {
            let sources = counts.map { count in (0..<most).map { $0 < count ? $0 : nil } }
            return AudioTrackPlan(trackCount: most, sources: sources, dropped: [])
        }
        let track = (chosen ?? 1) - 1
        if track >= most {
            throw VRenderError.option("--audio-track \(track + 1)", "no take has more than \(most) audio track(s)")
        }
        var dropped: [String] = []
        for (take, count) in zip(takes, counts) where count > 0 {
            let others = (0..<count).filter { $0 != track }.map { String($0 + 1) }
            if !others.isEmpty { dropped.append("\(take.path): track \(others.joined(separator: ", ")) dropped") }
            if track >= count { dropped.append("\(take.path): has no track \(track + 1), silence instead") }
        }
        let sources = counts.map { count in [track < count ? track : nil] }
        return AudioTrackPlan(trackCount: 1, sources: sources, dropped: dropped)
    }

    /// The probed stream of take `take` that feeds output track `track`, if any.
    package func source(take: MediaInfo, takeIndex: Int, track: Int) -> AudioStreamInfo? {
        sources[takeIndex][track].map { take.audioTracks[$0] }
    }
}
