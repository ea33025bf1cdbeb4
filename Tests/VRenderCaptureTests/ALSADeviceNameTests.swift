import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderCapture

/// `--audio alsa:DEVICE` names capture devices only (`ALSADeviceName`): `alsa:file:PATH` wrote
/// any file and `alsa:file:'|cmd'` ran a shell command.
@Suite struct ALSADeviceNameTests {
    /// Real libasound: each plugin string is refused naming `--audio` and the string, and
    /// nothing is written or run (the file plugin's slave is `null`, so no sound card is needed
    /// for the attack to work).
    @Test func pluginStringsAreRefusedAndMakeNothing() throws {
        let folder = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let attacks = [
            "file:\(folder)/written",
            "file:'|touch \(folder)/PWNED'",
            "file:\"|touch \(folder)/PWNED\"",
            "{ type file file \"\(folder)/written\" slave.pcm null }",
            "tee:null,'\(folder)/written',raw",
            "plug:'file:\(folder)/written'",
            "plughw:CARD=0,DEV='file:\(folder)/written'",
            "shm:/tmp/vrender-no-socket,null",
            "file",
        ]
        for device in attacks {
            do {
                _ = try ALSAMicrophone(device: device)
                Issue.record("alsa:\(device) opened")
            } catch let error as VRenderError {
                #expect(error.kind == .option && error.subject == "--audio", "\(device): \(error)")
                #expect(error.reason.hasPrefix("\"alsa:\(device)\" "), "\(error)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "\(device) made a file")
        }
    }

    /// The same refusal for the whole `--audio` value, before anything opens.
    @Test func theAudioOptionIsCheckedBeforeOpening() {
        #expect(throws: VRenderError.option("--audio", "\"alsa:file:/tmp/x\" is ALSA's file plugin, which writes a file, "
                                            + "runs a program or wraps another device string: not a microphone; use \(ALSADeviceName.forms)")) {
            try AudioDevices.check("alsa:file:/tmp/x")
        }
        for spec in ["auto", "none", "synthetic", "synthetic:seed=3", "pulse:default", "alsa:default", "alsa:hw:1,0"] {
            #expect(throws: Never.self) { try AudioDevices.check(spec) }
        }
    }

    /// What `vrender devices` and `arecord -L` list is accepted as written.
    @Test(arguments: ["default", "hw:1,0", "hw:1", "hw:Loopback,1,0", "hw:CARD=C920,DEV=0", "plughw:CARD=PCH,DEV=0,SUBDEV=1",
                      "dsnoop:CARD=PCH,DEV=0", "dsnoop:0,0,0,S16_LE,48000", "default:CARD=PCH", "sysdefault:CARD=Generic",
                      "sysdefault:1", "front:CARD=PCH,DEV=0", "pulse", "pipewire", "my_mic.left", "null"])
    func captureDeviceNamesAreAccepted(_ device: String) {
        #expect(ALSADeviceName.refusal(device, playbackOnly: { [] }) == nil)
    }

    @Test(arguments: [
        ("hw:1,0,0,0", "has 4 arguments"), ("hw:CARD=0,CARD=1", "not CARD"), ("hw:FILE=x", "not FILE"),
        ("hw:1,,0", "argument DEV"), ("hw:", "argument CARD"), ("hw:'1'", "argument CARD"), ("hw:1 0", "argument CARD"),
        ("dmix:0", "only default, dsnoop, front, hw, plughw, sysdefault take arguments"), ("cards:x", "only default"),
        ("default|x", "inline definitions"), ("a b", "inline definitions"), ("$HOME", "inline definitions"),
        ("file:x", "file plugin"), ("tee:x", "tee plugin"), ("shm", "shm plugin"), ("plug:hw", "plug plugin"),
        ("surround51", "playback device"),
    ])
    func otherStringsAreRefusedSayingWhy(_ device: String, _ why: String) {
        let refusal = ALSADeviceName.refusal(device, playbackOnly: { ["surround51"] })
        #expect(refusal?.contains(why) == true, "\(device): \(refusal ?? "accepted")")
    }
}
