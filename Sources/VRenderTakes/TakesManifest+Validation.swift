import Foundation
import VRenderCore
import VRenderMedia
import VRenderPrompter

/// What `takes.json` may hold. The file may come from someone else (a copied folder, a hostile
/// one), and every takes command, capture and export believes it: a name is what `takes rm`
/// deletes and `concat` reads, a number sizes a sheet or a plan. So it is checked whole as it
/// loads, and an error names the file, the entry and the field.
///
/// Two kinds of fault, because `takes recover` treats them differently:
/// - a name leading outside the folder (absolute, `..`): refused by every command, recover
///   included, and nothing is touched (`requireNamesInside`);
/// - anything else out of range (a field, a name not written plainly, a file listed twice): the
///   file is damaged, and recover keeps it aside and rebuilds it (`requireValidEntries`).
extension TakesManifest {
    /// The largest `takes.json` read: 64 MiB holds some 60,000 takes with long timelines; more is
    /// not a capture's file, and reading it whole would only exhaust memory.
    public static let maxFileBytes = 64 << 20

    /// Throws when a name leads outside the folder: absolute, or through `..`. Checks spelling
    /// only; what the names lead to on disk is `TakesFolder`'s to check, by descriptor.
    func requireNamesInside(path: String) throws {
        for (index, take) in takes.enumerated() {
            for name in [take.file, take.thumbnail].compactMap({ $0 }) {
                if name.hasPrefix("/") {
                    throw VRenderError.input(path, "entry \(index + 1) '\(name)' is an absolute path; entries must be inside the folder")
                }
                if name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
                    throw VRenderError.input(path, "entry \(index + 1) '\(name)' leads outside the folder ('..')")
                }
            }
        }
    }

    /// Throws, naming the entry and the field, when a name is not written plainly or is listed
    /// twice, or a field is out of range.
    func requireValidEntries(path: String) throws {
        var owners: [String: Int] = [:]
        let dates = ManifestDates()
        for (index, take) in takes.enumerated() {
            let check = EntryCheck(path: path, entry: index + 1, file: take.file)
            for (field, name) in [("file", take.file), ("thumbnail", take.thumbnail)] {
                guard let name else { continue }
                try check.name(name, field: field)
                if let owner = owners[name] {
                    throw check.refuse("'\(name)' is listed twice (also in entry \(owner)): each file belongs to one take")
                }
                owners[name] = index + 1
            }
            try check.fields(of: take, dates: dates)
        }
    }
}

/// Parsers for `created`, made once per load (a formatter is costly, a file may list thousands).
private struct ManifestDates {
    let plain = ISO8601DateFormatter()
    let fractional: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter
    }()

    func parses(_ text: String) -> Bool { plain.date(from: text) != nil || fractional.date(from: text) != nil }
}

/// The checks of one entry; errors read "entry 3 'segment_0003_….mov': duration 1e+308 …".
private struct EntryCheck {
    let path: String
    let entry: Int
    let file: String

    /// Longest text field kept (a device name, a problem, a script's name).
    static let maxText = 4096
    /// Counts of frames: 2^31 - 1, some two years at 30 fps.
    static let maxCount = Int(Int32.max)
    /// Seconds: a day (`MediaLimits.maxDuration`), the longest take.
    static let seconds = 0...MediaLimits.maxDuration

    func refuse(_ why: String) -> VRenderError {
        VRenderError.input(path, "entry \(entry) '\(file)': \(why)")
    }

    /// A name as vrender writes one: relative, each part a plain name (no `.`, no empty part).
    func name(_ name: String, field: String) throws {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        if name == "." || name.isEmpty {
            throw refuse("\(field) '\(name)' is not a file name (\(name.isEmpty ? "it is empty" : "'.' is the folder itself"))")
        }
        if parts.contains(where: { $0.isEmpty || $0 == "." }) {
            throw refuse("\(field) '\(name)' is not written plainly (a '.' or empty part); each file is named once, as 'segment_….mov'")
        }
        if name.unicodeScalars.contains(where: FieldCheck.isControl) {
            throw refuse("\(field) contains a control character")
        }
        if name.utf8.count >= Int(PATH_MAX) || parts.contains(where: { $0.utf8.count > Int(NAME_MAX) }) {
            throw refuse("\(field) is longer than a file name may be")
        }
    }

    func fields(of take: TakeEntry, dates: ManifestDates) throws {
        try text("created", take.created, max: 64)
        guard dates.parses(take.created) else { throw refuse("created '\(take.created)' is not an ISO 8601 time") }
        try count("frames", take.frames)
        try count("dropped", take.dropped)
        try number("duration", take.duration, Self.seconds)
        try text("fps", take.fps, max: 32)
        guard let rate = ValueSyntax.frameRate(take.fps), MediaLimits.frameRates.contains(rate.doubleValue) else {
            throw refuse("fps '\(take.fps)' is not a frame rate (a number or N/D, at most 1000)")
        }
        try count("width", take.width, 1...MediaLimits.maxSide)
        try count("height", take.height, 1...MediaLimits.maxSide)
        try text("codec", take.codec, max: 64)
        try text("device", take.device)
        try number("preroll", take.preroll, Self.seconds)
        for (index, event) in take.timeline.enumerated() {
            let field = "timeline[\(index)]."
            try number(field + "time", event.time, Self.seconds)
            try number(field + "lens", event.lens, 0...1e6)
            try number(field + "zoom", event.zoom, 0...1e6)
            try number(field + "torch", event.torch, 0...1)
            try text(field + "cause", event.cause)
        }
        if let latency = take.latency {
            for (field, value) in [("p50", latency.p50), ("p99", latency.p99), ("max", latency.max)] {
                try number("latency." + field, value, 0...1e9)
            }
        }
        if let check = take.check {
            try count("check.decodableFrames", check.decodableFrames)
            try count("check.damagedFrames", check.damagedFrames)
            try number("check.duration", check.duration, Self.seconds)
            if let problem = check.problem { try text("check.problem", problem) }
            if let audio = check.audioDuration { try number("check.audioDuration", audio, Self.seconds) }
        }
        if let prompter = take.prompter { try fields(of: prompter) }
        if let presenter = take.presenter { try fields(of: presenter) }
        if let audio = take.audio { try fields(of: audio) }
        if let trim = take.trim {
            if let refusal = trim.refusal { throw refuse("trim: \(refusal)") }
            try number("trim.in", trim.start, Self.seconds)
            if let end = trim.end { try number("trim.out", end, Self.seconds) }
        }
    }

    /// The take's sound: rates and channel counts a device can have, a peak near or under full
    /// scale, milliseconds within a day, a drift a crystal can have.
    private func fields(of audio: TakeSound) throws {
        try text("audio.device", audio.device)
        try count("audio.rate", audio.rate, 8_000...192_000)
        try count("audio.channels", audio.channels, 1...8)
        if let peak = audio.peak { try number("audio.peak", peak, -400...20) }
        try number("audio.missingMilliseconds", audio.missingMilliseconds, 0...(MediaLimits.maxDuration * 1000))
        try number("audio.driftPPM", audio.driftPPM, -1e5...1e5)
    }

    /// The prompter's record: offsets in points (any finite value a scroll can reach), speeds
    /// and sizes positive.
    private func fields(of prompter: PrompterTakeRecord) throws {
        try text("prompter.script", prompter.script)
        if let hash = prompter.scriptHash { try text("prompter.scriptHash", hash) }
        try number("prompter.startOffset", prompter.startOffset, -1e9...1e9)
        try number("prompter.endOffset", prompter.endOffset, -1e9...1e9)
        try number("prompter.speed", prompter.speed, 0...1e6)
        try number("prompter.fontSize", prompter.fontSize, 1e-3...1e6)
        for (index, anchor) in prompter.anchors.enumerated() {
            let field = "prompter.anchors[\(index)]."
            try number(field + "time", anchor.time, Self.seconds)
            try number(field + "offset", anchor.offset, -1e9...1e9)
            try number(field + "speed", anchor.speed, 0...1e6)
            try number(field + "fontSize", anchor.fontSize, 1e-3...1e6)
        }
    }

    /// The synthetic presenter's record: word numbers a script can have, times within the
    /// take's length limit, each word ending no earlier than it starts.
    private func fields(of presenter: PresenterTakeRecord) throws {
        try text("presenter.voice", presenter.voice)
        for (index, word) in presenter.words.enumerated() {
            let field = "presenter.words[\(index)]."
            try count(field + "word", word.word)
            try text(field + "text", word.text)
            try number(field + "start", word.start, Self.seconds)
            try number(field + "end", word.end, word.start...Self.seconds.upperBound)
        }
        for (index, word) in presenter.skipped.enumerated() { try count("presenter.skipped[\(index)]", word) }
    }

    private func count(_ field: String, _ value: Int, _ range: ClosedRange<Int> = 0...maxCount) throws {
        guard range.contains(value) else { throw refuse("\(field) \(value) is out of range (\(range.lowerBound)…\(range.upperBound))") }
    }

    private func number(_ field: String, _ value: Double, _ range: ClosedRange<Double>) throws {
        guard value.isFinite, range.contains(value) else {
            throw refuse("\(field) \(ValueSyntax.text(value)) is out of range (\(ValueSyntax.text(range.lowerBound))…\(ValueSyntax.text(range.upperBound)))")
        }
    }

    private func text(_ field: String, _ value: String, max: Int = maxText) throws {
        guard value.utf8.count <= max else { throw refuse("\(field) is longer than \(max) bytes") }
        guard !value.unicodeScalars.contains(where: FieldCheck.isControl) else { throw refuse("\(field) contains a control character") }
    }
}
