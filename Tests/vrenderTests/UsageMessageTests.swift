import ArgumentParser
import Testing
import VRenderCore
@testable import vrender
import VRenderWorkerCommands

/// A refused value is worded from the refusal itself (`ValueRefusals`), never by reading
/// ArgumentParser's sentence back: the option as the user typed it, then `ValueSyntaxError`'s
/// words, whatever ArgumentParser says around it.
@Suite struct UsageMessageTests {
    private let size = ValueSyntaxError(value: "13x7", expected: "WxH with even, positive sides (e.g. 1280x720)")

    @Test func theRefusalIsKeptWhileParsing() {
        do {
            _ = try CommandMain<VRender>.parse(["capture", "--device", "synthetic", "--out", "takes", "--preroll", "soon"])
            Issue.record("--preroll soon parsed")
        } catch {
            #expect(error.refused == ValueSyntaxError(value: "soon", expected: "a time (e.g. 0.5, 0.5s, 500ms, 1:02.5)"))
        }
        // Another usage error keeps no refusal, and a later parse does not see an earlier one.
        do {
            _ = try CommandMain<VRender>.parse(["concat", "a.mov", "--bogus"])
            Issue.record("--bogus parsed")
        } catch {
            #expect(error.refused == nil)
        }
    }

    @Test func theOptionIsFoundAsItWasTyped() {
        #expect(ValueRefusals.option(given: "13x7", in: ["concat", "a.mov", "--size", "13x7"]) == "--size")
        #expect(ValueRefusals.option(given: "13x7", in: ["concat", "--size=13x7", "a.mov"]) == "--size")
        #expect(ValueRefusals.option(given: "-1s", in: ["concat", "--cut-pauses=-1s"]) == "--cut-pauses")
        #expect(ValueRefusals.option(given: "13x7", in: ["concat", "--", "--size", "13x7"]) == nil)
    }

    /// ArgumentParser's message is not read: any error with the refusal gives our sentence.
    @Test func theMessageIsOurs() {
        struct Unreadable: Error {}
        #expect(CommandMain<VRender>.usageMessage(Unreadable(), arguments: ["demo", "--size", "13x7"], refused: size)
                == "--size '13x7' is not WxH with even, positive sides (e.g. 1280x720)")
        #expect(CommandMain<VRender>.usageMessage(Unreadable(), arguments: ["demo"], refused: size)
                == "'13x7' is not WxH with even, positive sides (e.g. 1280x720)")
        #expect(CommandMain<VRender>.usageMessage(ValidationError("--takes must be\nat least 1"), arguments: [], refused: nil)
                == "--takes must be at least 1")
    }

    /// The help a usage error points to is the subcommand's the arguments name.
    @Test func theHintNamesTheSubcommand() {
        #expect(CommandMain<VRender>.commandPath(["bench", "capture", "--size", "13x7"]) == "vrender bench capture")
        #expect(CommandMain<VRender>.commandPath(["concat", "capture"]) == "vrender concat")
        #expect(CommandMain<VRender>.commandPath(["bogus", "concat"]) == "vrender")
    }
}
