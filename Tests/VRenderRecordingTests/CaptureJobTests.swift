import Foundation
import Testing
import VRenderCapture
import VRenderCore
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

@Suite struct CaptureJobTests {
    let directory = TestMedia.scratchDirectory()

    private func job(_ device: String, out: String, request: CaptureRequest = CaptureRequest(size: (64, 48)),
                     audio: String = "none") -> CaptureJob {
        CaptureJob(options: CaptureOptions(device: device, request: request,
                                           plan: RecordingPlan(outputDirectory: out, duration: 0.1, codec: .h264), audio: audio))
    }

    /// Keys end the takes, so someone is watching: the synthetic camera and microphone run at the
    /// clock (unpaced, an interactive capture once ran slower than it, its status saying 30 fps).
    @Test func anInteractiveCaptureRunsInRealTime() throws {
        var open = CaptureOptions(device: "synthetic", request: CaptureRequest(), plan: RecordingPlan(outputDirectory: directory))
        #expect(try open.requireEnding(keys: true))
        #expect(open.request.realtime && open.audioRequest.realtime)
        var batch = CaptureOptions(device: "synthetic", request: CaptureRequest(),
                                   plan: RecordingPlan(outputDirectory: directory, duration: 1))
        #expect(try !batch.requireEnding(keys: true))
        #expect(!batch.request.realtime && !batch.audioRequest.realtime, "a batch capture runs as fast as it can")
        #expect(throws: VRenderError.self) { try open.requireEnding(keys: false) }
    }

    @Test func opensTheDeviceThroughTheFactoryAndReportsItsStart() throws {
        let events = EventLog()
        let out = directory + "/takes"
        let takes = try job("synthetic:seed=3", out: out, request: CaptureRequest(size: (64, 48), zoom: 10))
            .run(events: events.append)
        #expect(takes.map(\.frames) == [3])
        #expect(events.openedSources == ["synthetic seed=3"])
        #expect(events.notices == ["--zoom: zoom 10 → 6.0 (the quality limit)"])
        #expect(try TakesManifest.load(from: out).takes.count == 1)
    }

    /// `--audio auto`'s pick is reported, with its format, before the camera's line; a
    /// microphone the user named is not (they know it).
    @Test func autoReportsTheMicrophoneItPicked() throws {
        let auto = EventLog()
        _ = try job("synthetic:seed=3", out: directory + "/auto", audio: "auto").run(events: auto.append)
        let pick = try #require(auto.microphonePicks.first)
        #expect(auto.microphonePicks.count == 1)
        #expect(pick.name == "synthetic seed=3")
        #expect(pick.summary == "auto → synthetic seed=3 \(pick.format.sampleRate) Hz \(pick.format.channels) ch")
        #expect(pick.format.sampleRate == 48000)
        guard case .microphoneChosen = auto.all.first else { Issue.record("first event: \(String(describing: auto.all.first))"); return }

        let named = EventLog()
        _ = try job("synthetic:seed=3", out: directory + "/named", audio: "synthetic").run(events: named.append)
        #expect(named.microphonePicks.isEmpty)
    }

    @Test func aFailedCaptureRemovesOnlyTheFoldersItMade() throws {
        let out = directory + "/new/deeper"
        let error = vrenderError { try job("/dev/nonexistent-camera", out: out).run() }
        #expect(error?.subject == "/dev/nonexistent-camera")
        #expect(!FileManager.default.fileExists(atPath: directory + "/new"))
        #expect(FileManager.default.fileExists(atPath: directory))

        let bad = vrenderError { try job("synthetic:seed=x", out: directory + "/kept").run() }
        #expect(bad?.subject == "synthetic:seed=x")
        #expect(!FileManager.default.fileExists(atPath: directory + "/kept"))
    }

    /// A failed capture's undo never removes the folder's lock file, held or not: a capture
    /// that failed (disk full) unlinked it while another process held it, and the next command
    /// locked a new file, so two writers held "the" lock at once. The folder stays with it; a
    /// folder it made that is empty goes.
    @Test func undoNeverRemovesTheLockFile() throws {
        let made = try FolderCreation(path: directory + "/fresh")
        let lock = directory + "/fresh/" + FolderLock.fileName
        let held = try FolderLock.acquire(directory + "/fresh", .exclusive, for: "vrender takes rm")
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: lock)[.systemFileNumber] as? Int)
        made.undo()
        #expect(try FileManager.default.attributesOfItem(atPath: lock)[.systemFileNumber] as? Int == inode)
        let second = try FolderLock.attempt(FolderHandle.open(directory + "/fresh"), .exclusive, for: "vrender capture", wait: .init(.zero))
        #expect(second.lock == nil, "a second writer locked a new lock file beside the one held")
        withExtendedLifetime(held) {}

        let empty = try FolderCreation(path: directory + "/empty")
        empty.undo()
        #expect(!FileManager.default.fileExists(atPath: directory + "/empty"))
    }

    @Test func aFolderThatCannotBeMadeIsNamed() throws {
        let file = directory + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let error = vrenderError { try job("synthetic", out: file + "/takes").run() }
        #expect(error?.kind == .output)
        #expect(error?.subject == file + "/takes")
        #expect(error?.reason.hasPrefix("cannot create the folder") == true)
    }

    @Test func missingFoldersAreListedDeepestFirst() {
        #expect(FolderCreation.missingFolders(directory + "/a/b/") == [directory + "/a/b", directory + "/a"])
        #expect(FolderCreation.missingFolders(directory).isEmpty)
        // Relative one-letter names (`--out q` trapped inside Foundation).
        #expect(FolderCreation.missingFolders("q-\(UUID().uuidString.prefix(4))/q").count == 2)
        #expect(FileNames.split("q") == (".", "q") && FileNames.split("/q") == ("/", "q") && FileNames.split("a/q") == ("a", "q"))
    }

    @Test func aScriptFileIsReadAndErrorsNameIt() throws {
        let path = directory + "/take.actions"
        try "at 0s lens 2\nat 1s stop\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ActionScript(contentsOfFile: path).stopTime == 1)
        #expect(vrenderError { try ActionScript(contentsOfFile: directory + "/missing.actions") }
            == VRenderError.input(directory + "/missing.actions", "cannot read the script (no such file)"))
        try "at 1s zom 2\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(vrenderError { try ActionScript(contentsOfFile: path) }?.subject == path + ":1")
    }

    /// Only a regular file of at most 1 MiB is read: a folder, a FIFO (never waited on: this
    /// returns at all) and a larger file are refused naming the file, before a byte is parsed.
    @Test func aScriptIsARegularFileOfAtMostAMebibyte() throws {
        let big = directory + "/big.actions", fifo = directory + "/fifo.actions"
        try Data(String(repeating: "at 1s stop\n", count: ActionScript.maximumBytes / 11 + 1).utf8)
            .write(to: URL(fileURLWithPath: big))
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(vrenderError { try ActionScript(contentsOfFile: big) }
            == VRenderError.input(big, "the script is 1048586 bytes; a script is at most 1 MiB of text"))
        #expect(vrenderError { try ActionScript(contentsOfFile: fifo) }
            == VRenderError.input(fifo, "cannot read the script (is a FIFO, not a regular file)"))
        #expect(vrenderError { try ActionScript(contentsOfFile: directory) }
            == VRenderError.input(directory, "cannot read the script (is a folder, not a regular file)"))
    }
}
