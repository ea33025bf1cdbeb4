import Foundation
import Testing
import VRenderCapture
import VRenderCore
import VRenderPrompter
import VRenderRecording
import VRenderTestSupport
@testable import VRenderStudio

/// A take's captions in the studio: made once from the prompter's script into the proxies
/// folder, and made anew when the studio starts with another script.
@Suite struct MediaStudioCaptionsTests {
    @Test func captionsAreMadeOnceAndAgainForAnEditedScript() throws {
        let directory = TestMedia.scratchDirectory()
        let first = PrompterScript(name: "talk.txt", text: "Good morning, and welcome.\nToday we look at three things.")
        var options = CaptureOptions(device: "synthetic", request: CaptureRequest(size: (320, 180)),
                                     plan: RecordingPlan(outputDirectory: directory + "/takes", takes: 1, duration: 5, codec: .h264),
                                     audio: "synthetic")
        try options.plan.setPrompter(first, settings: PrompterSettings(speed: 24))
        let take = try #require(try CaptureJob(options: options).run().first)
        let takes = try FolderHandle.open(directory + "/takes")
        let proxies = try FolderHandle.openOrCreate(directory + "/proxies").folder
        let name = take.file

        func captions(_ script: PrompterScript) throws -> (text: String, inode: UInt) {
            let location = try #require(StudioCaptions.location(of: name, script: script, takes: takes, proxies: proxies) as MediaLocation?)
            let path = location.folder.join(location.name)
            let status = try #require(location.folder.status(location.name) as stat?)
            return (try String(contentsOfFile: path, encoding: .utf8), UInt(status.st_ino))
        }
        let made = try captions(first)
        #expect(made.text.hasPrefix("WEBVTT\n\nNOTE \(StudioCaptions.note(on: first))\n\n") && made.text.contains("Good morning"), "\(made.text)")
        #expect(try captions(first).inode == made.inode, "asked again with the same script: the same file")

        // The studio started again with the script edited: the words it shows are the new ones.
        let edited = PrompterScript(name: "talk.txt", text: "Good morning, and welcome!\nToday we look at three things.")
        #expect(StudioCaptions.note(on: edited) != StudioCaptions.note(on: first))
        let remade = try captions(edited)
        #expect(remade.text.hasPrefix("WEBVTT\n\nNOTE \(StudioCaptions.note(on: edited))\n\n") && remade.text.contains("welcome!"), "\(remade.text)")

        // A link planted where the captions go (another user of a shared folder): replaced by the
        // captions, its target untouched.
        let outside = directory + "/outside.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: outside))
        let captionsPath = directory + "/proxies/" + StudioCaptions.name(of: name)
        try FileManager.default.removeItem(atPath: captionsPath)
        try FileManager.default.createSymbolicLink(atPath: captionsPath, withDestinationPath: outside)
        #expect(try captions(edited).text.contains("welcome!"))
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep me")
        #expect((try FileManager.default.attributesOfItem(atPath: captionsPath)[.type] as? FileAttributeType) == .typeRegular)
    }
}
