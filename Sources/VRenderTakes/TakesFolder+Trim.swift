import VRenderCore
import VRenderMedia

extension TakesFolder {
    /// Sets (or, with nil points, clears) the in and out points of take `name` (a number as
    /// `takes list` shows it, or a file name) in takes.json: what `vrender takes trim` writes and
    /// `concat DIR` applies. The take's file is never touched. Frame numbers count at the take's
    /// frame rate. Refused, naming the option, when the trim leaves no frame or reaches past the
    /// take's end (by more than half a frame: an OUT of the take's length is its end). Returns
    /// the entry as saved.
    @discardableResult
    public static func setTrim(of name: String, in directory: String, from start: TrimPoint?, to end: TrimPoint?) throws -> TakeEntry {
        let folder = try openFolder(directory)
        return try FolderLock.with(folder, .exclusive, for: "vrender takes trim") {
            var manifest = try manifest(in: folder)
            let index = try index(of: name, in: manifest, directory: folder.path)
            var take = manifest.takes[index]
            take.trim = try trim(of: take, number: index + 1, from: start, to: end)
            manifest.takes[index] = take
            try manifest.save(in: folder)
            return take
        }
    }

    /// The trim `start`–`end` of `take`, checked against its length; nil for the whole take.
    static func trim(of take: TakeEntry, number: Int, from start: TrimPoint?, to end: TrimPoint?) throws -> TakeTrim? {
        guard start != nil || end != nil else { return nil }
        let rate = ValueSyntax.frameRate(take.fps) ?? Rational(30, 1)
        let halfFrame = 0.5 / rate.doubleValue
        let first = start?.seconds(frameRate: rate) ?? 0
        guard first + halfFrame < take.duration else {
            throw VRenderError.option("IN", "take \(number) lasts \(TakeTrim.text(take.duration)) s: IN must be before its end")
        }
        var last = end?.seconds(frameRate: rate)
        if let out = last {
            guard out <= take.duration + halfFrame else {
                throw VRenderError.option("OUT", "take \(number) lasts \(TakeTrim.text(take.duration)) s: OUT \(TakeTrim.text(out)) s is past its end")
            }
            guard out - first >= halfFrame * 2 else {
                throw VRenderError.option("OUT", "OUT (\(TakeTrim.text(out)) s) must be at least a frame after IN (\(TakeTrim.text(first)) s)")
            }
            if out >= take.duration - halfFrame { last = nil }   // the take's end
        }
        guard first > 0 || last != nil else { return nil }       // the whole take
        return TakeTrim(start: first, end: last)
    }
}

extension TakeEntry {
    /// Seconds of the take an export uses: its trimmed part, or the whole take (`takes list`).
    package var usedDuration: Double {
        trim?.length(ofTakeLasting: duration) ?? duration
    }
}
