import Foundation
import Testing
import VRenderTestSupport

/// `vrender devices`' audio section against a private PulseAudio server (PULSE_SERVER), and
/// without one.
@Suite struct AudioDevicesCommandTests {
    func devices(_ arguments: [String], server: String) -> ProgramRun {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server
        return ProgramRun.run(CommandLineTests.binary, ["devices", "--dev", "/nonexistent"] + arguments,
                              environment: environment)
    }

    @Test func listsThePulseServersSourcesAsTextAndJSON() throws {
        let pulse = try #require(PrivatePulseServer(), "pulseaudio could not start")
        let text = devices([], server: pulse.server)
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("audio sources (--audio):"))
        #expect(text.standardOutput.contains("pulse:vrender_test.monitor"), "\(text.standardOutput)")
        let json = devices(["--json"], server: pulse.server)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let audio = try #require(listing["audio"] as? [String: Any])
        let sources = try #require((audio["pulse"] as? [String: Any])?["sources"] as? [[String: Any]])
        #expect(sources.contains { $0["name"] as? String == "vrender_test.monitor" && $0["isMonitor"] as? Bool == true })
        #expect((audio["synthetic"] as? [String: Any])?["device"] as? String == "synthetic[:seed=N]")
    }

    @Test func saysWhyWhenNoServerAnswers() {
        let scratch = ScratchFolder()
        let text = devices([], server: "unix:\(scratch.path)/native")
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("PulseAudio: none: no PulseAudio server answers"), "\(text.standardOutput)")
    }
}
