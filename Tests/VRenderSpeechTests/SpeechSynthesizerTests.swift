import Testing
import VRenderCore
@testable import VRenderSpeech

@Suite struct SpeechSynthesizerTests {
    @Test func theSameTextVoiceAndRateGiveTheSameSamples() throws {
        let text = "Guten Morgen, meine Damen und Herren."
        let voice = try SpeechVoice(named: "de")
        let first = try SpeechSynthesizer.speak(text, voice: voice, wordsPerMinute: 220)
        // Another voice in between must not leave anything behind.
        _ = try SpeechSynthesizer.speak("Hello there.", voice: .english)
        let second = try SpeechSynthesizer.speak(text, voice: voice, wordsPerMinute: 220)
        #expect(first == second)
        #expect(first.samples.contains { abs(Int($0)) > 1000 })
    }

    @Test func eachWordIsAnEventAtItsCharacterInTheText() throws {
        let text = "Grüße aus Köln, one two three."
        let speech = try SpeechSynthesizer.speak(text, voice: .english)
        // Offsets count Unicode scalars: "aus" is the 7th scalar whatever "ü" and "ß" take in UTF-8.
        #expect(speech.words.map(\.characterOffset) == [0, 6, 10, 16, 20, 24])
        #expect(speech.words.map(\.length) == [5, 3, 4, 3, 3, 5])
        let samples = speech.words.map(\.sample)
        #expect(samples == samples.sorted() && Set(samples).count == samples.count)
        #expect(samples.last! < speech.samples.count)
        #expect(speech.duration > 1 && speech.duration < 4)
    }

    @Test func aFasterRateSpeaksTheSameWordsInLessTime() throws {
        let text = "Takes are trimmed, joined, and encoded once, so that nothing is lost twice."
        let normal = try SpeechSynthesizer.speak(text, voice: .english, wordsPerMinute: 175)
        let fast = try SpeechSynthesizer.speak(text, voice: .english, wordsPerMinute: 350)
        #expect(fast.words.count == normal.words.count)
        #expect(fast.duration < normal.duration * 0.7)
        // Out of espeak-ng's range: clamped, not refused.
        let fastest = try SpeechSynthesizer.speak(text, voice: .english, wordsPerMinute: 10_000)
        #expect(fastest.duration <= fast.duration)
    }

    @Test func anUnknownVoiceIsAnErrorNamingTheOptionAndNearVoices() throws {
        #expect(try SpeechVoice(named: "DE").name == "de")
        #expect(try SpeechVoice(named: "en-us").language == "en")
        let error = #expect(throws: VRenderError.self) { try SpeechVoice(named: "en-xx-klingon") }
        #expect(error?.subject == "--voice")
        #expect(error?.reason.contains("en-us") == true)
        let other = #expect(throws: VRenderError.self) { try SpeechVoice(named: "../../etc/passwd", option: "voice") }
        #expect(other?.subject == "voice")
    }

    @Test(arguments: [
        ("Good morning, and welcome to the talk. This is how it works.", "en"),
        ("Guten Morgen, und willkommen. Das ist nicht, wie es mit der Kamera geht.", "de"),
        ("Bonjour et bienvenue. C'est le début de la vidéo pour vous.", "fr-fr"),
        ("Buenos días y bienvenidos. Esta es la charla para los que graban.", "es"),
        ("Добро пожаловать на этот короткий доклад.", "ru"),
        ("今日は、ビデオの録画についてお話しします。", "ja"),
        ("今天我们谈谈如何在电脑上录制视频。", "cmn"),
        ("12345 67890", "en"),
    ])
    func theVoiceIsGuessedFromTheScriptsLanguage(text: String, voice: String) {
        #expect(SpeechVoice.guess(for: text).name == voice)
    }
}
