internal import CFFmpeg
import VRenderCore

/// What a track says about itself beside its codec: its language, its title and the
/// dispositions players choose tracks by (default, forced, commentary, ...). Probing reads it
/// from every stream; an export writes it on every track it keeps (`Muxer.setLabel`).
public struct TrackLabel: Sendable, Equatable, Codable {
    /// The ISO 639-2 code the file gives ("eng"); empty when none, or "und" (undetermined).
    public var language: String
    /// The track's name ("Commentary"); empty when none.
    public var title: String
    /// The disposition flags set, by FFmpeg's names ("default", "forced", "comment",
    /// "hearing_impaired", ...), in FFmpeg's bit order.
    public var dispositions: [String]

    public init(language: String = "", title: String = "", dispositions: [String] = []) {
        self.language = language == "und" ? "" : language
        self.title = title
        self.dispositions = dispositions
    }

    public var isEmpty: Bool { language.isEmpty && title.isEmpty && dispositions.isEmpty }
    /// No language, no title, at most the default flag: what every ordinary take's tracks have.
    public var isOrdinary: Bool { language.isEmpty && title.isEmpty && dispositions.allSatisfy { $0 == "default" } }

    /// `eng "Commentary" (default, forced)`, as the plan names a track; "unlabelled" when it
    /// has no language, title or flag.
    public var description: String {
        var parts = language.isEmpty ? [] : [language]
        if !title.isEmpty { parts.append("\"\(title)\"") }
        if !dispositions.isEmpty { parts.append("(\(dispositions.joined(separator: ", ")))") }
        return parts.isEmpty ? "unlabelled" : parts.joined(separator: " ")
    }

    /// Why a label read from a file vrender did not probe itself (a chunk plan) is not one
    /// probing gives: a tag too long to be a language or a title, a character no tag holds,
    /// a disposition FFmpeg does not know. Nil when it is plausible.
    public var implausibility: String? {
        if language.utf8.count > Self.maxLanguageBytes || title.utf8.count > Self.maxTitleBytes {
            return "holds a language or title too long to be one"
        }
        if (language + title).contains("\0") { return "holds a NUL character" }
        if let unknown = dispositions.first(where: { av_disposition_from_string($0) <= 0 }) {
            return "holds '\(unknown.prefix(40))', not a disposition"
        }
        return dispositions.count > 32 ? "holds more dispositions than there are" : nil
    }

    /// Dispositions that say what a stream is rather than how to choose it: a cover picture or
    /// thumbnails are not a track an export keeps, so they never pass from a take to an output.
    static let notCarried: Set<String> = ["attached_pic", "timed_thumbnails"]

    /// The longest language and title a label keeps: a tag longer is no language or title
    /// (a damaged or hostile file's), and is left out rather than carried into a plan.
    static let maxLanguageBytes = 32, maxTitleBytes = 4096

    /// The label of `stream`: its "language" and "title" tags and its disposition flags.
    init(stream: UnsafeMutablePointer<AVStream>) {
        let flags = stream.pointee.disposition
        let names = (0..<31).compactMap { bit -> String? in
            guard flags & (1 << bit) != 0, let name = av_disposition_to_string(1 << bit) else { return nil }
            return String(cString: name)
        }
        self.init(language: Self.tag("language", of: stream), title: Self.tag("title", of: stream),
                  dispositions: names.filter { !Self.notCarried.contains($0) })
    }

    private static func tag(_ key: String, of stream: UnsafeMutablePointer<AVStream>) -> String {
        guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return "" }
        let text = String(cString: value)
        return text.utf8.count <= (key == "language" ? maxLanguageBytes : maxTitleBytes) ? text : ""
    }
}

extension Muxer {
    /// Writes `label` on stream `index` (`TrackLabel.write(on:quickTime:)`); call before `writeHeader`.
    public func setLabel(_ label: TrackLabel, stream index: Int) {
        guard let stream = context.pointee.streams[index] else { return }
        label.write(on: stream, quickTime: container.isQuickTimeFamily)
    }
}

extension TrackLabel {
    /// Sets `stream`'s language and title tags (a QuickTime file, whose FFmpeg muxer stores no
    /// track title, gets the title as its handler name, the name players list) and its
    /// dispositions; the muxer writes what its container holds (`OutputContainer.kept`).
    func write(on stream: UnsafeMutablePointer<AVStream>, quickTime: Bool) {
        if !language.isEmpty { av_dict_set(&stream.pointee.metadata, "language", language, 0) }
        if !title.isEmpty {
            av_dict_set(&stream.pointee.metadata, "title", title, 0)
            if quickTime { av_dict_set(&stream.pointee.metadata, "handler_name", title, 0) }
        }
        stream.pointee.disposition = dispositions.reduce(0) { flags, name in
            let flag = av_disposition_from_string(name)
            return flag > 0 ? flags | flag : flags
        }
    }
}

extension KeyedDecodingContainer {
    /// A label absent from what is decoded is no label: a chunk plan written before labels
    /// existed loads, its takes unlabelled (as that vrender wrote them). The stream infos'
    /// synthesized `Decodable` picks this overload over the generic one for their `label`.
    func decode(_ type: TrackLabel.Type, forKey key: Key) throws -> TrackLabel {
        try decodeIfPresent(type, forKey: key) ?? TrackLabel()
    }
}
