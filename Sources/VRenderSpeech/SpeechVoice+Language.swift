extension SpeechVoice {
    /// The voice's language as ISO 639-2 (terminological) spells it, the three letters a
    /// subtitle track's language tag takes ("eng", "deu", "cmn"); nil for a language this
    /// table does not know. espeak-ng names most languages by ISO 639-1 and the rest by their
    /// three-letter ISO 639-3 code, which is the tag itself.
    public var trackLanguage: String? {
        let code = language
        if code.count == 3, code.allSatisfy(\.isLetter) { return code }
        return Self.threeLetterCodes[code]
    }

    /// ISO 639-1 → ISO 639-2/T for the languages espeak-ng speaks that have a two-letter code.
    private static let threeLetterCodes: [String: String] = [
        "af": "afr", "am": "amh", "an": "arg", "ar": "ara", "as": "asm", "az": "aze", "ba": "bak", "be": "bel",
        "bg": "bul", "bn": "ben", "bs": "bos", "ca": "cat", "cs": "ces", "cy": "cym", "da": "dan", "de": "deu",
        "el": "ell", "en": "eng", "eo": "epo", "es": "spa", "et": "est", "eu": "eus", "fa": "fas", "fi": "fin",
        "fr": "fra", "ga": "gle", "gd": "gla", "gn": "grn", "gu": "guj", "he": "heb", "hi": "hin", "hr": "hrv",
        "ht": "hat", "hu": "hun", "hy": "hye", "ia": "ina", "id": "ind", "io": "ido", "is": "isl", "it": "ita",
        "ja": "jpn", "ka": "kat", "kk": "kaz", "kl": "kal", "kn": "kan", "ko": "kor", "ku": "kur", "ky": "kir",
        "la": "lat", "lb": "ltz", "lt": "lit", "lv": "lav", "mi": "mri", "mk": "mkd", "ml": "mal", "mr": "mar",
        "ms": "msa", "mt": "mlt", "my": "mya", "nb": "nob", "ne": "nep", "nl": "nld", "no": "nor", "om": "orm",
        "or": "ori", "pa": "pan", "pl": "pol", "pt": "por", "qu": "que", "ro": "ron", "ru": "rus", "sd": "snd",
        "si": "sin", "sk": "slk", "sl": "slv", "sq": "sqi", "sr": "srp", "sv": "swe", "sw": "swa", "ta": "tam",
        "te": "tel", "th": "tha", "tk": "tuk", "tn": "tsn", "tr": "tur", "tt": "tat", "ug": "uig", "uk": "ukr",
        "ur": "urd", "uz": "uzb", "vi": "vie", "zh": "zho",
    ]
}
