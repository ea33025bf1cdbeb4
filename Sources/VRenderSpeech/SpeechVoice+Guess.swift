extension SpeechVoice {
    /// The voice for the language `text` is most likely in: by its writing system where that
    /// names one language (Han, kana, Hangul, Greek, Hebrew, Arabic, Thai, Devanagari; Cyrillic
    /// as Russian), else by the commonest short words of twelve Latin-script languages. English
    /// when nothing stands out. A guess: `--voice` overrides it.
    public static func guess(for text: String) -> SpeechVoice {
        if let voice = voiceByScript(text) { return SpeechVoice(trusted: voice) }
        var scores: [String: Int] = [:]
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).prefix(5_000) {
            for (language, common) in commonWords where common.contains(String(word)) {
                scores[language, default: 0] += 1
            }
        }
        // Ties go to the earlier language in the table (English first): deterministic.
        let best = commonWords.map(\.language).max { (scores[$0] ?? 0) < (scores[$1] ?? 0) }
        guard let best, (scores[best] ?? 0) > 0 else { return .english }
        return SpeechVoice(trusted: best)
    }

    /// The script most of the text's letters are in, when it names a language.
    private static func voiceByScript(_ text: String) -> String? {
        var counts: [String: Int] = [:]
        var latin = 0
        for scalar in text.unicodeScalars.prefix(20_000) where scalar.properties.isAlphabetic {
            if let voice = scriptVoice(scalar.value) { counts[voice, default: 0] += 1 } else { latin += 1 }
        }
        // Kana decides Japanese even in text that is mostly kanji.
        if let kana = counts["ja"], kana * 10 >= (counts["cmn"] ?? 0) { counts["ja", default: 0] += counts["cmn"] ?? 0 }
        guard let (voice, count) = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
              count > latin else { return nil }
        return voice
    }

    private static func scriptVoice(_ value: UInt32) -> String? {
        switch value {
        case 0x3040...0x30FF: "ja"
        case 0x4E00...0x9FFF, 0x3400...0x4DBF: "cmn"
        case 0xAC00...0xD7AF, 0x1100...0x11FF: "ko"
        case 0x0370...0x03FF: "el"
        case 0x0400...0x04FF: "ru"
        case 0x0590...0x05FF: "he"
        case 0x0600...0x06FF: "ar"
        case 0x0E00...0x0E7F: "th"
        case 0x0900...0x097F: "hi"
        default: nil
        }
    }

    /// Each language's commonest short words, English first.
    private static let commonWords: [(language: String, common: Set<String>)] = [
        ("en", ["the", "and", "of", "to", "is", "in", "that", "it", "you", "with", "for", "this", "are", "was", "we"]),
        ("de", ["der", "die", "und", "das", "ist", "nicht", "ich", "sie", "es", "mit", "den", "ein", "eine", "wir", "auf"]),
        ("fr-fr", ["le", "la", "les", "et", "est", "des", "une", "un", "que", "pas", "nous", "vous", "pour", "dans", "du"]),
        ("es", ["el", "los", "las", "y", "es", "que", "una", "por", "con", "para", "del", "se", "no", "como", "pero"]),
        ("it", ["il", "che", "di", "e", "è", "una", "per", "non", "sono", "con", "gli", "della", "lo", "questo", "ma"]),
        ("pt", ["o", "os", "e", "que", "não", "uma", "um", "com", "para", "do", "da", "em", "se", "mas", "está"]),
        ("nl", ["de", "het", "een", "en", "is", "van", "niet", "dat", "ik", "je", "met", "op", "zijn", "wij", "maar"]),
        ("sv", ["och", "att", "det", "är", "en", "som", "på", "inte", "jag", "med", "för", "av", "har", "vi", "till"]),
        ("da", ["og", "at", "det", "er", "en", "som", "på", "ikke", "jeg", "med", "for", "af", "har", "vi", "til"]),
        ("pl", ["i", "w", "nie", "się", "na", "to", "że", "jest", "z", "do", "jak", "ale", "co", "tak", "są"]),
        ("cs", ["a", "je", "se", "na", "že", "to", "v", "není", "jsem", "s", "do", "jak", "ale", "co", "jsou"]),
        ("tr", ["ve", "bir", "bu", "da", "de", "için", "ile", "çok", "ne", "değil", "ama", "gibi", "var", "daha", "biz"]),
    ]
}
