import VRenderCore
import VRenderMedia

/// Whether the takes' trims let a copy keep their packets: a copy can only start a take at a
/// clean keyframe (`KeyframeScan`) and end it at the next clean keyframe or the take's end;
/// anywhere else the first or last pictures asked for would need frames that are cut away,
/// so the export re-encodes them and the plan says which trim made it.
enum TrimCopy {
    /// Why the trims need a transcode, naming the take and the keyframes around its cut; nil
    /// when every trim falls on clean keyframes (within half a frame) or no take is trimmed.
    static func refusal(_ takes: [MediaInfo]) -> String? {
        for (index, take) in takes.enumerated() {
            guard let trim = take.trim else { continue }
            let start = take.fileVideoStart
            guard var keyframes = try? KeyframeScan.cleanKeyframes(path: take.path, stream: take.video.index).map({ $0 - start }) else {
                return "take \(index + 1) (\(take.path)) is trimmed, and its keyframes cannot be read"
            }
            // A take that starts at its first decodable keyframe (`UndecodableStart`): the copy
            // drops that keyframe's leading pictures, so it starts cleanly there.
            if take.video.undecodableStart?.decodesCleanly == true { keyframes.insert(0, at: 0) }
            let halfFrame = 0.5 / take.video.frameRate.doubleValue
            var cuts = [("starts", trim.start)]
            if let end = trim.end { cuts.append(("ends", end)) }
            for (verb, time) in cuts where !keyframes.contains(where: { abs($0 - time) < halfFrame }) {
                let before = keyframes.last { $0 < time }.map { TakeTrim.text($0) + " s" } ?? "none"
                let after = keyframes.first { $0 > time }.map { TakeTrim.text($0) + " s" } ?? "none"
                // A list's points are on the file's clock: say where the cut is there too.
                let clock = abs(start) < 0.0005 ? "" : " from its first picture (\(TakeTrim.text(start + time)) s on the file's clock)"
                return "take \(index + 1)'s trim \(verb) at \(TakeTrim.text(time)) s\(clock), between keyframes (\(before) and \(after)): "
                    + "a frame-exact cut there needs re-encoding"
            }
        }
        return nil
    }
}
