import Testing
import VRenderPrompter
@testable import VRenderRecording
@testable import VRenderTakes

/// Where a new session's prompter starts in a folder that has takes (issue 42): 200 lines 32
/// points apart at 28 pt (34 at 30 pt), a box 100 points high, so the end is at 6324 points.
@Suite struct PrompterContinueTests {
    private func session(hash: String? = nil, hint: String? = "press r to start over from the top") -> PrompterSession {
        let lines = (0..<200).map { "line \($0)" }
        var session = PrompterSession(scriptName: "/home/me/talk.txt", settings: PrompterSettings(speed: 30), viewportHeight: 100) { size in
            PrompterText(lines: lines, lineHeight: size + 4, contentHeight: Double(lines.count) * (size + 4) + 24)
        }
        session.scriptHash = hash
        session.restartHint = hint
        return session
    }

    private func take(_ created: String, script: String = "talk.txt", hash: String? = nil, end: Double,
                      endSize: Double = 28) -> TakeEntry {
        let record = PrompterTakeRecord(script: script, startOffset: 0, endOffset: end, speed: 30, fontSize: 28, ending: .pause,
                                        anchors: [.init(time: 0, offset: 0, speed: 30, running: true, fontSize: endSize)],
                                        scriptHash: hash)
        return TakeEntry(file: "take-\(created).mov", created: "2026-11-30T04:\(created)Z", frames: 30, dropped: 0, duration: 1,
                         fps: "30", width: 640, height: 360, codec: "h264", device: "synthetic", preroll: 0, timeline: [],
                         prompter: record)
    }

    @Test func aNewSessionStartsWhereTheLastTakeOfItsScriptEnded() {
        var prompter = session()
        // Listed out of order (a reorder): the last recorded is the one created last, take 3;
        // take 2 read another script; old records keep the name only, written any way.
        let takes = [take("00:01", script: "./talk.txt", end: 90), take("00:03", script: "other.txt", end: 500),
                     take("00:02", end: 160), take("00:00", end: 40)]
        #expect(prompter.continueFromFolder(takes) == "prompter: continuing from 2% (where take 3 ended; press r to start over from the top)")
        #expect(prompter.scroll.anchor.offset == 160 && prompter.view(at: 0).firstLine == 5)
        // Its first take records that start (and the scroll moves on from there).
        prompter.takeStarted(at: 2)
        #expect(prompter.takeStopped(at: 3)?.startOffset == 160)
    }

    @Test func anotherScriptOrNoTakeStartsAtTheTopSayingNothing() {
        var prompter = session(hash: "fnv1a64:0000000000000001")
        let takes = [take("00:01", script: "other.txt", end: 90), take("00:02", hash: "fnv1a64:0000000000000002", end: 300)]
        #expect(prompter.continueFromFolder(takes) == nil && prompter.scroll.anchor.offset == 0)
        #expect(prompter.continueFromFolder([]) == nil && prompter.scroll.anchor.offset == 0)
        // The same text under another name is the same script: the hash decides when both kept it.
        #expect(prompter.continueFromFolder([take("00:03", script: "renamed.txt", hash: "fnv1a64:0000000000000001", end: 64)])
                == "prompter: continuing from 1% (where take 1 ended; press r to start over from the top)")
    }

    @Test func aTakeThatReachedTheEndStartsTheNextSessionFromTheTop() {
        var prompter = session(hint: nil)
        let takes = [take("00:01", end: 3000), take("00:02", end: 6324)]
        #expect(prompter.continueFromFolder(takes) == "prompter: take 2 reached the end of the script; starting from the top")
        #expect(prompter.scroll.anchor.offset == 0)
        // Without a key to start over (the studio, a batch capture), the notice names none.
        var part = session(hint: nil)
        #expect(part.continueFromFolder([take("00:01", end: 3162)]) == "prompter: continuing from 50% (where take 1 ended)")
    }

    @Test func aTakeThatEndedAtAnotherSizeContinuesAtTheSameWords() {
        var prompter = session()
        // Half-way into line 10 at 30 pt (34 points a line) is half-way into line 10 at 28 pt.
        _ = prompter.continueFromFolder([take("00:01", end: 10.5 * 34, endSize: 30)])
        #expect(prompter.scroll.anchor.offset == 10.5 * 32)
    }

    @Test func theScriptsHashIsFNV1aOfItsText() {
        #expect(PrompterScript.hash("") == "fnv1a64:cbf29ce484222325")
        #expect(PrompterScript.hash("a") == "fnv1a64:af63dc4c8601ec8c")
    }
}
