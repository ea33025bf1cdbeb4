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
            guard var keyframes = try? KeyframeScan.keyframes(path: take.path, stream: take.video.index)
                .map({ KeyframeScan.Keyframe(time: $0.time - start, clean: $0.clean) }) else {
                return "take \(index + 1) (\(take.path)) is trimmed, and its keyframes cannot be read"
            }
            // A take that starts at its first decodable keyframe (`UndecodableStart`): the copy
            // drops that keyframe's leading pictures, so it starts cleanly there.
            if take.video.undecodableStart?.decodesCleanly == true { keyframes.insert(.init(time: 0, clean: true), at: 0) }
            let halfFrame = 0.5 / take.video.frameRate.doubleValue
            var cuts = [("starts", trim.start)]
            if let end = trim.end { cuts.append(("ends", end)) }
            let clean = keyframes.filter(\.clean).map(\.time)
            for (verb, time) in cuts where !clean.contains(where: { abs($0 - time) < halfFrame }) {
                // A list's points are on the file's clock: say where the cut is there too.
                let clock = abs(start) < 0.0005 ? "" : " from its first picture (\(seconds(start + time)) on the file's clock)"
                return "take \(index + 1)'s trim \(verb) at \(seconds(time))\(clock), "
                    + placement(time, among: keyframes, clean: clean, halfFrame: halfFrame)
                    + ": a copy starts and ends a take only at a clean keyframe, so a frame-exact cut there needs re-encoding"
            }
        }
        return nil
    }

    /// Where `time` falls among the take's clean keyframes, and the open ones (an HEVC CRA:
    /// its leading pictures refer to the group before) a copy cannot cut at, named: "a keyframe
    /// every second" is then true and still no help.
    private static func placement(_ time: Double, among keyframes: [KeyframeScan.Keyframe], clean: [Double],
                                  halfFrame: Double) -> String {
        let text: String
        switch (clean.last { $0 < time }, clean.first { $0 > time }) {
        case let (before?, after?): text = "between the clean keyframes at \(seconds(before)) and \(seconds(after))"
        case let (before?, nil): text = "after the last clean keyframe, at \(seconds(before))"
        case let (nil, after?): text = "before the first clean keyframe, at \(seconds(after))"
        case (nil, nil): text = "and the take has no clean keyframe"
        }
        let open = keyframes.filter { !$0.clean }.map(\.time)
        guard !open.isEmpty else { return text }
        let listed = open.prefix(4).map(seconds).joined(separator: ", ") + (open.count > 4 ? ", … (\(open.count) in all)" : "")
        let onOne = open.contains { abs($0 - time) < halfFrame } ? "on an open keyframe; " : ""
        return text + " (\(onOne)the keyframes at \(listed) are open-GOP: their leading pictures refer to the pictures before them)"
    }

    /// "2.000 s"; a time a rounding error below zero is 0.
    private static func seconds(_ time: Double) -> String { TakeTrim.text(abs(time) < 0.0005 ? 0 : time) + " s" }
}
