import VRenderCore

/// An espeak-ng voice, named by its language: `en`, `en-us`, `de`, `fr-fr`, `cmn`.
public struct SpeechVoice: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The name espeak-ng knows it by.
    public let name: String

    /// A voice espeak-ng has. Throws `VRenderError.option(option, …)` naming the voices near
    /// `name` (same language) or a few common ones.
    public init(named name: String, option: String = "--voice") throws {
        let wanted = name.lowercased()
        guard !wanted.isEmpty, wanted.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
              try SpeechSynthesizer.hasVoice(wanted) else {
            let known = try SpeechSynthesizer.voiceNames()
            let language = wanted.split(separator: "-").first.map(String.init) ?? wanted
            let near = known.filter { $0.lowercased().hasPrefix(language) }
            let offer = near.isEmpty ? ["en", "de", "fr-fr", "es", "it", "cmn"] : near
            throw VRenderError.option(option, "espeak-ng has no voice '\(name)' (try \(offer.joined(separator: ", ")); "
                                      + "`espeak-ng --voices` lists all \(known.count))")
        }
        self.name = wanted
    }

    /// A voice trusted to exist (a name read back from vrender's own records is checked again
    /// when spoken: an unknown one fails then, naming it).
    init(trusted name: String) {
        self.name = name
    }

    /// English, which every espeak-ng has.
    public static let english = SpeechVoice(trusted: "en")

    /// The language part of the name (`en` of `en-us`), lower case: what a caption file's
    /// language tag is made from.
    public var language: String { String(name.lowercased().split(separator: "-").first ?? "") }

    public var description: String { name }
}
