import Foundation
import Testing
import VRenderCapture
import VRenderCore
import VRenderPrompter
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// The synthetic presenter in a real capture: takes.json keeps what it said, and the take's
/// sound, judged by ffmpeg, has speech exactly where the record says.
@Suite struct PresenterRecordingTests {
    let directory = TestMedia.scratchDirectory()

    static let script = """
        Good morning, and welcome to this short talk about recording video on Linux.
        Today we look at three things: how a camera delivers frames, and how sound keeps in step.
        A webcam sends pictures at a steady rate, thirty times a second.
        A microphone has a crystal of its own, and it never runs at exactly the rate on the box.
        """

    private func capture(takes: Int, seconds: Double, actions: String = "", audio: String = "synthetic",
                         voice: String? = nil) throws -> (takes: [TakeEntry], notices: [String]) {
        var options = CaptureOptions(device: "synthetic", request: CaptureRequest(size: (160, 120)),
                                     plan: RecordingPlan(outputDirectory: directory, takes: takes, duration: seconds, codec: .h264,
                                                         script: try ActionScript(text: actions, source: "actions.txt")),
                                     audio: audio)
        try options.plan.setPrompter(PrompterScript(name: "talk.txt", text: Self.script), settings: PrompterSettings(speed: 30),
                                     voice: voice)
        let notices = EventLog()
        _ = try CaptureJob(options: options).run(events: notices.append)
        return (try TakesManifest.load(from: directory).takes, notices.notices)
    }

    @Test func theTakesRecordEachWordAndTheSoundHasSpeechThere() throws {
        let (takes, _) = try capture(takes: 2, seconds: 6, actions: "at 2s flub")
        #expect(takes.count == 2)
        for take in takes {
            let record = try #require(take.presenter)
            #expect(record.voice == "en" && record.words.count > 10)
            #expect(record.words.contains { $0.isFlubbed })
            let path = directory + "/" + take.file
            let video = try #require(ProgramRun.streamSpan(path, "v"))
            // ffmpeg's sound spans, on the take's clock (its first frame at 0).
            let spans = ProgramRun.soundSpans(path).map { ($0.start - video.start, $0.end - video.start) }
            // Every word is sounding: its middle lies in a span…
            for word in record.words {
                let middle = (word.start + word.end) / 2
                #expect(spans.contains { $0.0 <= middle && middle <= $0.1 }, "\(word.text) at \(word.start)")
            }
            // …and every span of speech starts within 50 ms of a word's start and ends within
            // 50 ms of a word's end (speech starts a few ms after espeak-ng's word event).
            for span in spans where span.1 - span.0 > 0.1 {
                #expect(record.words.contains { abs($0.start - span.0) < 0.05 }, "speech from \(span.0)")
                #expect(record.words.contains { abs($0.end - span.1) < 0.05 } || span.1 >= take.duration - 0.05,
                        "speech to \(span.1): nearest word end \(record.words.map(\.end).min { abs($0 - span.1) < abs($1 - span.1) } ?? 0)")
            }
        }
        // The second take goes on from where the prompter was: it starts on a later line.
        #expect(try #require(takes[1].presenter?.words.first?.word) > takes[0].presenter!.words.last!.word)
    }

    @Test func withoutTheSyntheticMicrophoneNobodyReadsAndFlubIsReported() throws {
        let (takes, notices) = try capture(takes: 1, seconds: 1, actions: "at 0.5s flub", audio: "none")
        #expect(takes.first?.presenter == nil && takes.first?.prompter != nil)
        #expect(notices.contains { $0.hasPrefix("actions.txt:1: flub is for the synthetic presenter") })
        let error = #expect(throws: VRenderError.self) {
            var options = CaptureOptions(device: "synthetic", request: CaptureRequest(), plan: RecordingPlan(outputDirectory: directory),
                                         audio: "none")
            try options.readScripts(actions: nil, prompter: "talk.txt", settings: PrompterSettings(), voice: "de")
        }
        #expect(error?.subject == "--voice" && error?.reason.hasSuffix("this capture has --audio none") == true)
    }

    @Test func aGermanScriptIsReadInGerman() throws {
        var options = CaptureOptions(device: "synthetic", request: CaptureRequest(size: (160, 120)),
                                     plan: RecordingPlan(outputDirectory: directory, takes: 1, duration: 3, codec: .h264),
                                     audio: "synthetic")
        try options.plan.setPrompter(PrompterScript(name: "vortrag.txt",
                                                    text: "Guten Morgen, und willkommen zu diesem kurzen Vortrag über Videos."),
                                     settings: PrompterSettings())
        #expect(options.plan.presenter?.voice.name == "de")
        _ = try CaptureJob(options: options).run()
        let record = try #require(try TakesManifest.load(from: directory).takes.first?.presenter)
        #expect(record.voice == "de" && record.words.map(\.text).prefix(3) == ["Guten", "Morgen,", "und"])
    }
}
