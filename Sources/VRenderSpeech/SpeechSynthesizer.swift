internal import CEspeak
import Glibc
import Synchronization
import VRenderCore

/// Speech made by espeak-ng from a text: its samples and where each word begins in them.
public struct SynthesizedSpeech: Sendable, Equatable {
    /// espeak-ng's output rate, whatever the voice.
    public static let sampleRate = 22_050

    /// Where one word of the text begins in the samples (espeak-ng's word events).
    public struct Word: Sendable, Equatable {
        /// The word's first character in the text, counted in Unicode scalars from 0.
        public var characterOffset: Int
        /// Its length in Unicode scalars, as espeak-ng read it.
        public var length: Int
        /// The sample it begins at.
        public var sample: Int
    }

    /// Mono, 16-bit, at `sampleRate`.
    public var samples: [Int16]
    public var words: [Word]

    /// Seconds of speech.
    public var duration: Double { Double(samples.count) / Double(Self.sampleRate) }
}

/// espeak-ng, one process-wide synthesizer: the library keeps one voice and one output in
/// global state, so every call holds one lock from choosing the voice to the last sample.
///
/// Deterministic: the same text, voice and rate give the same samples, whatever was spoken
/// before. espeak-ng's usual voice is not: its pitch "flutter" and wave phase run on from one
/// call to the next (statics inside the library no call resets), so the same line spoken twice
/// differs. Each voice is therefore loaded from its own language file with two lines added,
/// `klatt 1` (the Klatt synthesizer, whose state starts anew with each call) and `flutter 0`,
/// and the C library's `rand`, which Klatt's noise draws from, is seeded before each reading.
/// Each text is read twice, to make sure no other thread drew from `rand` meanwhile: about 250
/// times faster than real time on one core.
public enum SpeechSynthesizer {
    /// espeak-ng's range of speaking rates, words per minute.
    public static let wordsPerMinute = 80...450
    public static let normalWordsPerMinute = 175

    /// Speaks `text` (UTF-8, plain: no SSML, no phoneme input) with `voice` at `wordsPerMinute`
    /// (clamped to `wordsPerMinute`'s range), without the pause espeak-ng adds after a last
    /// sentence. Throws `VRenderError(.runtime, subject: "espeak-ng", …)` when the library cannot
    /// start (its data missing), the voice does not load or speaking fails.
    public static func speak(_ text: String, voice: SpeechVoice,
                             wordsPerMinute rate: Int = normalWordsPerMinute) throws -> SynthesizedSpeech {
        try engine.withLock { engine in
            try engine.start()
            try engine.choose(voice)
            let clamped = Swift.min(Swift.max(rate, wordsPerMinute.lowerBound), wordsPerMinute.upperBound)
            guard espeak_SetParameter(espeakRATE, Int32(clamped), 0) == EE_OK else {
                throw VRenderError(.runtime, subject: "espeak-ng", reason: "cannot set the speaking rate to \(clamped) words per minute")
            }
            // Klatt's noise draws on the C library's one `rand`, which libvidstab and lavapipe
            // also call, from other threads: a reading they cut into differs. Two alike in a
            // row had no such visitor (the first pair almost always).
            var last: SynthesizedSpeech?
            for _ in 0..<4 {
                srand(1)
                let speech = try engine.synthesize(text)
                if speech == last { return speech }
                last = speech
            }
            return last!
        }
    }

    /// True when espeak-ng can load the voice `name` (a language name it knows, `en` included).
    public static func hasVoice(_ name: String) throws -> Bool {
        try engine.withLock { engine in
            try engine.start()
            return (try? engine.choose(SpeechVoice(trusted: name))) != nil
        }
    }

    /// The voices espeak-ng has, by the language each is named for (`en-us`, `de`, `cmn`).
    public static func voiceNames() throws -> [String] {
        try engine.withLock { engine in
            try engine.start()
            guard let list = espeak_ListVoices(nil) else { return [] }
            var names: [String] = []
            var index = 0
            while let voice = list[index] {
                // `languages` is a priority byte, then the name: the first language is the voice's own.
                if let languages = voice.pointee.languages, languages.pointee != 0 {
                    names.append(String(cString: languages + 1))
                }
                index += 1
            }
            return names
        }
    }

    private static let engine = Mutex(Engine())

    /// The library's global state, only ever touched with `engine`'s lock held. (Copyable,
    /// though there is one: ThreadSanitizer builds swap in a `Mutex` only for copyable values.)
    private struct Engine {
        private var started = false
        private var voice: String?

        mutating func start() throws {
            guard !started else { return }
            // Synchronous: samples come back through the callback before espeak_Synth returns.
            guard espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0) == Int32(SynthesizedSpeech.sampleRate) else {
                throw VRenderError(.runtime, subject: "espeak-ng", reason: "cannot start the speech synthesizer (is espeak-ng-data installed?)")
            }
            espeak_SetSynthCallback(collect)
            started = true
        }

        /// Loads `voice` as the steady variant described above: the language's own file from
        /// espeak-ng's data, two lines added, handed over as an in-memory file.
        mutating func choose(_ voice: SpeechVoice) throws {
            guard self.voice != voice.name else { return }
            self.voice = nil
            func failure(_ why: String) -> VRenderError {
                VRenderError(.runtime, subject: "espeak-ng", reason: "cannot load the voice '\(voice.name)': \(why)")
            }
            guard espeak_SetVoiceByName(voice.name) == EE_OK, let current = espeak_GetCurrentVoice(),
                  let identifier = current.pointee.identifier else { throw failure("espeak-ng does not know it") }
            var dataPath: UnsafePointer<CChar>?
            _ = espeak_Info(&dataPath)
            guard let dataPath else { throw failure("espeak-ng names no data folder") }
            let file = String(cString: dataPath) + "/lang/" + String(cString: identifier)
            let original: [UInt8]
            do {
                original = Array(try HeldFile.contents(ofPath: file, limit: 1 << 16))
            } catch {
                throw failure("cannot read \(file)")
            }
            let steady = original + Array("\nklatt 1\nflutter 0\n".utf8)
            let descriptor = vrender_memfd_create("vrender-voice")
            guard descriptor >= 0 else { throw failure("no in-memory file (\(SystemError.last))") }
            defer { close(descriptor) }
            do {
                try steady.withUnsafeBytes { try Syscall.writeAll(descriptor, $0) }
            } catch {
                throw failure("cannot write its in-memory file (\(error))")
            }
            guard espeak_SetVoiceByFile("/proc/self/fd/\(descriptor)") == EE_OK else {
                throw failure("espeak-ng refused its steady variant")
            }
            self.voice = voice.name
        }

        func synthesize(_ text: String) throws -> SynthesizedSpeech {
            let collector = SpeechCollector()
            let bytes = Array(text.utf8CString)
            let status = withExtendedLifetime(collector) {
                bytes.withUnsafeBufferPointer { buffer in
                    espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil,
                                 Unmanaged.passUnretained(collector).toOpaque())
                }
            }
            guard status == EE_OK else {
                throw VRenderError(.runtime, subject: "espeak-ng", reason: "could not speak the text (error \(status.rawValue))")
            }
            return SynthesizedSpeech(samples: collector.samples, words: collector.words)
        }
    }
}

/// What one `espeak_Synth` call delivers through the callback. Reached from C through the
/// events' `user_data`, which espeak-ng copies from the call into every event it sends.
// @unchecked Sendable: used only on the thread holding SpeechSynthesizer's lock, during one call.
private final class SpeechCollector: @unchecked Sendable {
    var samples: [Int16] = []
    var words: [SynthesizedSpeech.Word] = []
    /// Scalars before the text's first: espeak-ng counts its positions from 1.
    static let firstPosition = 1
}

/// espeak-ng's synthesis callback: appends the samples, and a word per word event. A block of
/// samples comes with an event list (at least its terminator) whose `user_data` is the call's.
private func collect(_ wave: UnsafeMutablePointer<Int16>?, _ count: Int32,
                     _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let context = events.pointee.user_data else { return 0 }
    let collector = Unmanaged<SpeechCollector>.fromOpaque(context).takeUnretainedValue()
    var event = events
    while event.pointee.type != espeakEVENT_LIST_TERMINATED {
        if event.pointee.type == espeakEVENT_WORD, event.pointee.length > 0 {
            collector.words.append(SynthesizedSpeech.Word(
                characterOffset: Int(event.pointee.text_position) - SpeechCollector.firstPosition,
                length: Int(event.pointee.length), sample: Int(event.pointee.sample)))
        }
        event += 1
    }
    if let wave, count > 0 {
        collector.samples.append(contentsOf: UnsafeBufferPointer(start: wave, count: Int(count)))
    }
    return 0   // go on
}
