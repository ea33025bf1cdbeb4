import Foundation
import VRenderCore
import VRenderMedia

/// Which audio tracks the output has, which track of each take feeds each of them, and the
/// language, title and dispositions each output track is written with.
package struct AudioTrackPlan: Sendable, Equatable {
    /// Output track count: 0 when no take has audio.
    package var trackCount: Int
    /// For output track `k`, the position among take `t`'s audio tracks that feeds it:
    /// `sources[t][k]`, nil where the take has no such track (it contributes silence).
    package var sources: [[Int?]]
    /// What was left out, for the plan's notices.
    package var dropped: [String]
    /// Output track `k`'s label (`TrackLabelMerge` of the takes' tracks that feed it).
    package var labels: [TrackLabel] = []
    /// What the takes disagreed on (languages, titles, flags) and how tracks were matched.
    package var labelNotices: [String] = []

    /// Every track is kept when all takes with audio have the same number of tracks (matched by
    /// language when every take names each of its tracks' languages once, in another order);
    /// otherwise track `chosen` (1-based, default 1) of each take, and the others are named as
    /// dropped. `chosen` also selects one track from takes that agree.
    static func make(takes: [MediaInfo], chosen: Int?) throws -> AudioTrackPlan {
        var plan = try matched(takes: takes, chosen: chosen)
        plan.label(takes: takes, single: chosen != nil || !plan.dropped.isEmpty)
        return plan
    }

    private static func matched(takes: [MediaInfo], chosen: Int?) throws -> AudioTrackPlan {
        let counts = takes.map(\.audioTracks.count)
        let withAudio = counts.filter { $0 > 0 }
        guard let most = counts.max(), most > 0 else {
            return AudioTrackPlan(trackCount: 0, sources: takes.map { _ in [] }, dropped: [])
        }
        if chosen == nil, Set(withAudio).count == 1 {
            if let byLanguage = byLanguage(takes) { return byLanguage }
            let sources = counts.map { count in (0..<most).map { $0 < count ? $0 : nil } }
            return AudioTrackPlan(trackCount: most, sources: sources, dropped: [])
        }
        let track = (chosen ?? 1) - 1
        if track >= most {
            throw VRenderError.option("--audio-track \(track + 1)", "no take has more than \(most) audio track(s)")
        }
        var dropped: [String] = []
        for (take, count) in zip(takes, counts) where count > 0 {
            let others = (0..<count).filter { $0 != track }.map { "\($0 + 1)\(take.audioTracks[$0].label.parenthesized)" }
            if !others.isEmpty { dropped.append("\(take.path): track \(others.joined(separator: ", ")) dropped") }
            if track >= count { dropped.append("\(take.path): has no track \(track + 1), silence instead") }
        }
        let sources = counts.map { count in [track < count ? track : nil] }
        return AudioTrackPlan(trackCount: 1, sources: sources, dropped: dropped)
    }

    /// Takes whose tracks are the same languages in another order (eng, deu and deu, eng) are
    /// joined language by language, in the first take's order: nil unless every take with
    /// audio names each of its tracks' languages, once each, and they are the first's.
    private static func byLanguage(_ takes: [MediaInfo]) -> AudioTrackPlan? {
        let languages = takes.map { $0.audioTracks.map(\.label.language) }
        guard let first = languages.first(where: { !$0.isEmpty }), first.count > 1,
              languages.allSatisfy({ $0.isEmpty || ($0.allSatisfy { !$0.isEmpty } && Set($0).count == $0.count && Set($0) == Set(first)) }),
              languages.contains(where: { !$0.isEmpty && $0 != first }) else { return nil }
        let sources = languages.map { own in own.isEmpty ? first.map { _ in nil } : first.map { own.firstIndex(of: $0) } }
        var plan = AudioTrackPlan(trackCount: first.count, sources: sources, dropped: [])
        for (take, own) in zip(takes, languages) where !own.isEmpty && own != first {
            plan.labelNotices.append("audio: \(take.path)'s tracks (\(own.joined(separator: ", "))) joined by language, "
                                     + "in the first take's order (\(first.joined(separator: ", ")))")
        }
        return plan
    }

    /// Each output track's label from the takes' tracks that feed it. A track kept alone out
    /// of several (`single`) is the output's only sound, so it is marked default.
    private mutating func label(takes: [MediaInfo], single: Bool) {
        labels = (0..<trackCount).map { track in
            let fed = zip(takes.indices, takes).compactMap { index, take in
                source(take: take, takeIndex: index, track: track).map { ((take.path as NSString).lastPathComponent, $0.label) }
            }
            let merged = TrackLabelMerge.merge(fed, track: trackCount > 1 ? "audio track \(track + 1)" : "audio",
                                                sole: trackCount == 1)
            var label = merged.label
            if single, !label.dispositions.contains("default") { label.dispositions.insert("default", at: 0) }
            labelNotices += merged.notices.filter { !single || !$0.contains("not marked default") }
            return label
        }
    }

    /// Output track `track`'s label (none for a plan made without takes' labels).
    package func label(ofTrack track: Int) -> TrackLabel {
        track < labels.count ? labels[track] : TrackLabel()
    }

    /// The probed stream of take `take` that feeds output track `track`, if any.
    package func source(take: MediaInfo, takeIndex: Int, track: Int) -> AudioStreamInfo? {
        sources[takeIndex][track].map { take.audioTracks[$0] }
    }
}
