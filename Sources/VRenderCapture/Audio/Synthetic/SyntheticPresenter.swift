import VRenderCore
import VRenderPrompter
import VRenderSpeech

/// The synthetic microphone's presenter: reads the prompter's script aloud with espeak-ng while
/// takes record, line by line as the lines reach the reading line, and keeps the true time of
/// every word it says (`PresenterTakeRecord`, takes.json's `"presenter"`): the ground truth for
/// caption alignment.
///
/// The capture thread tells it when a take starts (with the prompter's layout and scroll then)
/// and stops; the audio thread asks for its sound, period by period, by scene time. What it says
/// is a pure function of those (`PresenterSchedule`), so it is the same whichever thread asks
/// first and however far the microphone runs ahead or behind: same seed, script, voice and
/// actions, same samples. It is silent outside takes and stops mid-word when a take stops.
///
/// It follows the scroll as it was when the take started: keys that hold or speed up the
/// prompter during the take are not followed (the presenter is for batch runs and tests).
// @unchecked Sendable: every stored property is read and written only inside `lock`.
package final class SyntheticPresenter: @unchecked Sendable {
    /// What the capture loop knows when a take starts recording.
    package struct TakeStart: Sendable {
        /// Scene seconds of the take's recording start (its anchors' time 0).
        package var time: Double
        /// The script as laid out in the box now, and the scroll's anchor at `time`.
        package var text: PrompterText
        package var anchor: PrompterScroll.Anchor
        package var maxOffset: Double
        package var ending: PrompterEnding
        /// The script's `flub` and `skip` actions, times from the take's start.
        package var actions: [(time: Double, action: ActionScript.PresenterAction)]

        package init(time: Double, text: PrompterText, anchor: PrompterScroll.Anchor, maxOffset: Double,
                     ending: PrompterEnding, actions: [(time: Double, action: ActionScript.PresenterAction)]) {
            self.time = time
            self.text = text
            self.anchor = anchor
            self.maxOffset = maxOffset
            self.ending = ending
            self.actions = actions
        }
    }

    package let voice: SpeechVoice
    private let words: ScriptWords
    private let lock = ConditionLock()
    /// The takes the microphone may still be rendering, oldest first: a batch microphone runs
    /// behind the camera, so the last take's end is heard after the next take has started.
    private var takes: [Take] = []

    private struct Take {
        var schedule: PresenterSchedule
        /// Scene time it stopped at (nil while it records).
        var stopped: Double?
        var end: Double { stopped ?? .infinity }
    }
    /// The first error speaking (a voice that will not load): reported once, then silence.
    private var failure: VRenderError?

    /// A presenter for `script` (the prompter's cleaned text) in `voice`.
    package init(script: String, voice: SpeechVoice) {
        self.voice = voice
        words = ScriptWords(script)
    }

    /// A presenter reading `reading`'s script in its voice, attached to `microphone` when that
    /// is the synthetic microphone; nil otherwise (a real microphone hears a real presenter).
    package static func attached(to microphone: (any AudioSource)?, reading: (script: String, voice: SpeechVoice)?)
        -> SyntheticPresenter? {
        guard let reading, let synthetic = microphone as? SyntheticMicrophone else { return nil }
        let presenter = SyntheticPresenter(script: reading.script, voice: reading.voice)
        synthetic.attach(presenter)
        return presenter
    }

    /// A take starts recording: from now it reads the script from the line at the box's top.
    package func takeStarted(_ start: TakeStart) {
        let reading = PrompterReading(text: start.text, anchor: start.anchor, maxOffset: start.maxOffset, ending: start.ending)
        lock.withLock {
            if let last = takes.indices.last, takes[last].stopped == nil { takes[last].stopped = start.time }
            takes.append(Take(schedule: PresenterSchedule(takeStart: start.time, text: start.text, reading: reading, words: words,
                                                          voice: voice, actions: start.actions)))
        }
    }

    /// The take stops at scene time `time`: returns what was said in it (times from its start)
    /// and falls silent. Nil when no take was recording.
    package func takeStopped(at time: Double) throws -> PresenterTakeRecord? {
        try lock.withLock {
            guard let last = takes.indices.last, takes[last].stopped == nil else { return nil }
            try speaking { try takes[last].schedule.extend(through: time) }
            takes[last].stopped = time
            let schedule = takes[last].schedule
            let said = schedule.spoken.filter { $0.start < time }.map { word in
                var word = word
                word.start -= schedule.takeStart
                word.end = Swift.min(word.end, time) - schedule.takeStart
                return word
            }
            let skipped = schedule.skipped
            return PresenterTakeRecord(voice: voice.name, words: said, skipped: skipped)
        }
    }

    /// Adds the presenter's voice at scene times `times` to `samples` (one per time, in
    /// ascending order): the audio thread, once per period.
    func render(at times: [Double], into samples: inout [Double]) {
        guard let first = times.first, let last = times.last else { return }
        lock.withLock {
            takes.removeAll { $0.end < first - 1 }
            for index in takes.indices where takes[index].schedule.takeStart <= last && takes[index].end > first {
                let end = takes[index].end
                // Mutated in place: a copy would duplicate its word list on every period.
                try? speaking { try takes[index].schedule.extend(through: Swift.min(last, end)) }
                takes[index].schedule.forget(before: first - 1)
                for utterance in takes[index].schedule.utterances where utterance.end > first && utterance.start <= last {
                    for (sample, time) in times.enumerated() where time >= utterance.start && time < Swift.min(utterance.end, end) {
                        samples[sample] += Double(Self.interpolate(utterance.samples, at: (time - utterance.start)
                                                                    * Double(SynthesizedSpeech.sampleRate)))
                    }
                }
            }
        }
    }

    /// The error that silenced the presenter, if one did (reported by the caller once).
    package var error: VRenderError? { lock.withLock { failure } }

    /// Runs `body`, keeping the first error and staying silent after one.
    private func speaking(_ body: () throws -> Void) throws {
        if let failure { throw failure }
        do {
            try body()
        } catch {
            let reason = (error as? VRenderError)?.description ?? "\(error)"
            failure = VRenderError(.runtime, subject: "synthetic presenter", reason: reason)
            throw failure!
        }
    }

    /// `samples` at fractional index `position`, by Catmull-Rom: smooth enough that going from
    /// 22,050 Hz to the microphone's rate adds no audible edge.
    static func interpolate(_ samples: [Float], at position: Double) -> Float {
        let index = Int(position.rounded(.down))
        let fraction = Float(position - Double(index))
        func at(_ i: Int) -> Float { i >= 0 && i < samples.count ? samples[i] : 0 }
        let (p0, p1, p2, p3) = (at(index - 1), at(index), at(index + 1), at(index + 2))
        let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
        let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
        let c = -0.5 * p0 + 0.5 * p2
        return ((a * fraction + b) * fraction + c) * fraction + p1
    }
}
