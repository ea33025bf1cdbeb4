import Foundation
import Testing
import VRenderCapture
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// Where a kill cuts a take, named from the take's own boxes (so fragment length does not
/// matter): `FragmentCensus` finds them.
enum Cut: String, CaseIterable, Sendable {
    case afterMoov, inFirstMoof, inFirstMdat, inSecondMoof, inSecondMdatHeader, inSecondMdat, afterSecondFragment, beforeTrailer

    func offset(in take: FragmentCensus) -> Int {
        let moofs = take.boxes("moof"), mdats = take.boxes("mdat")
        switch self {
        case .afterMoov: return take.boxes("moov")[0].end
        case .inFirstMoof: return moofs[0].offset + moofs[0].size / 2
        case .inFirstMdat: return mdats[0].offset + mdats[0].size * 3 / 4
        case .inSecondMoof: return moofs[1].offset + moofs[1].size / 2
        case .inSecondMdatHeader: return mdats[1].offset + 4
        case .inSecondMdat: return mdats[1].offset + mdats[1].size / 2
        case .afterSecondFragment: return mdats[1].end
        case .beforeTrailer: return take.boxes("mfra")[0].offset
        }
    }
}

/// `TakesRecovery`: takes recorded by the real capture path, cut as a kill leaves them, saved
/// with every whole frame; `takes.json` rebuilt; nothing lost, nothing outside touched.
@Suite struct TakesRecoveryTests {
    let scratch = ScratchFolder()
    var directory: String { scratch.path }

    /// Take 1 finished and listed; take 2 cut at `cut` bytes and not listed, without its
    /// thumbnail (a capture killed during take 2).
    private func folderWithKilledSecondTake(_ takes: RecordedTakes, cut: Int) throws -> (first: String, second: String) {
        let first = takes.copy(1, into: directory)
        let second = takes.copy(2, into: directory, cut: cut)
        try TakesManifest(takes: [takes.entry(1)]).save(to: directory)
        return (first, second)
    }

    @Test(arguments: [VideoCodecChoice.h264, .hevc], Cut.allCases)
    func aKilledTakeKeepsEveryWholeFrame(codec: VideoCodecChoice, cut: Cut) throws {
        let takes = RecordedTakes.of(codec)
        let offset = cut.offset(in: FragmentCensus(takes.video(2)))
        let (first, second) = try folderWithKilledSecondTake(takes, cut: offset)
        let before = snapshot(directory)
        let census = try FragmentCensus(contentsOf: second)

        let report = try TakesRecovery.recover(directory)
        #expect(report.takes.first == .init(file: takes.entry(1).file, outcome: .kept, frames: takes.entry(1).frames,
                                            duration: takes.entry(1).duration))
        #expect(FileManager.default.contents(atPath: first) == before[takes.entry(1).file], "a finished take is untouched")
        #expect(TestMedia.files(in: directory, containing: "vrender-partial").isEmpty)
        guard census.wholeSamples > 0 else {
            // Nothing whole to save: reported, and the folder left exactly as it was.
            #expect(report.takes.last?.outcome == .unsaveable, "\(report)")
            #expect(!report.allSaved)
            #expect(snapshot(directory) == before)
            return
        }
        #expect(report.takes.last?.outcome == .recovered, "\(report)")
        #expect(ProgramRun.decodedFrames(second) == census.wholeSamples)
        #expect(census.wholeSamples >= census.framesInCompleteFragments)
        #expect(ProgramRun.decodeErrors(second) == "")
        #expect(try FragmentCensus(contentsOf: second).boxes.last?.type == "mfra", "finished: ends with its trailer")

        let manifest = try TakesFolder.manifest(in: directory)
        #expect(manifest.takes.map(\.file) == [takes.entry(1).file, takes.entry(2).file])
        #expect(manifest.takes[0] == takes.entry(1))
        let entry = try #require(manifest.takes.dropFirst().first)
        #expect(entry.frames == census.wholeSamples)
        #expect(entry.check?.isGood == true)
        // With B-frames the whole packets may leave a gap before the last one: it plays longer
        // than its frames at 30 fps, as ffprobe's frame times say.
        #expect(abs(entry.duration - ProgramRun.playedSeconds(second)) < 1e-3)
        #expect(entry.fps == "30" && entry.width == 96 && entry.height == 64)
        #expect(entry.codec == takes.entry(2).codec, "the encoder from the comment tag, as capture lists it")
        #expect(entry.device == RecordedTakes.device)
        #expect(abs(try seconds(entry.created) - seconds(takes.entry(2).created)) <= 2, "from the creation_time tag")
        #expect(entry.thumbnail.map { FileManager.default.fileExists(atPath: directory + "/" + $0) } == true)

        // Twice is harmless: nothing left to do, nothing written.
        let recovered = snapshot(directory)
        #expect(try TakesRecovery.recover(directory).nothingToRecover)
        #expect(snapshot(directory) == recovered)
    }

    /// `TakesRecovery.recover`, run again when it found the take held open by another process.
    /// Tests run in parallel and start programs: a child forked by another test's thread holds a
    /// copy of every open descriptor (this test's file included) until it execs, and a scan at
    /// that moment rightly says "in use" (seen once in a CI run). A take in use is never touched,
    /// so looking again is safe; the in-use outcome itself is tested below.
    private func recoverAgainIfMomentarilyHeld(_ folder: String) throws -> TakesRecoveryReport {
        var report = try TakesRecovery.recover(folder)
        for _ in 0..<3 where report.takes.contains(where: { $0.outcome == .inUse }) {
            report = try TakesRecovery.recover(folder)
        }
        return report
    }

    /// A kill can land anywhere: at every one of these offsets the copy holds exactly the
    /// frames whose bytes were wholly written, and decodes without an error.
    @Test func everyCutOffsetKeepsExactlyTheWholeFrames() throws {
        let video = RecordedTakes.h264.video(2)
        let census = FragmentCensus(video)
        let fragmentEdges = zip(census.boxes("moof"), census.boxes("mdat")).flatMap { moof, mdat in
            [moof.offset + 8, moof.offset + moof.size / 2, moof.end, mdat.offset + 4, mdat.offset + 9, mdat.end - 1]
        }
        let offsets = [1, 12, 20] + fragmentEdges + (1..<16).map { video.count * $0 / 16 }
        for offset in offsets {
            let folder = directory + "/cut\(offset)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let path = RecordedTakes.h264.copy(2, into: folder, cut: offset)
            let census = try FragmentCensus(contentsOf: path)
            let report = try recoverAgainIfMomentarilyHeld(folder)
            if census.wholeSamples == 0 {
                #expect(report.takes.map(\.outcome) == [.unsaveable], "cut at \(offset)")
                #expect(FileManager.default.contents(atPath: path) == video.prefix(offset))
            } else {
                #expect(report.takes.map(\.outcome) == [.recovered], "cut at \(offset)")
                #expect(ProgramRun.decodedFrames(path) == census.wholeSamples, "cut at \(offset)")
                #expect(ProgramRun.decodeErrors(path) == "", "cut at \(offset)")
            }
        }
    }

    @Test(arguments: ["missing", "truncated", "not JSON", "another shape"])
    func aLostOrDamagedManifestIsRebuiltFromTheFiles(damage: String) throws {
        let takes = RecordedTakes.h264
        for number in 1...3 { takes.copy(number, into: directory) }
        let original = try #require(FileManager.default.contents(atPath: takes.directory + "/takes.json"))
        let damaged: Data? = switch damage {
        case "missing": nil
        case "truncated": original.prefix(original.count / 2)
        case "not JSON": Data("\u{0}\u{0}garbage".utf8)
        default: Data(#"{"takes": 3}"#.utf8)
        }
        if let damaged { #expect(FileManager.default.createFile(atPath: directory + "/takes.json", contents: damaged)) }
        let videos = (1...3).map { FileManager.default.contents(atPath: directory + "/" + takes.entry($0).file) }

        let report = try TakesRecovery.recover(directory)
        #expect(report.takes.map(\.outcome) == [.listed, .listed, .listed])
        #expect(report.manifestWritten && report.allSaved)
        let rebuilt = try TakesFolder.manifest(in: directory).takes
        #expect(rebuilt.map(\.file) == (1...3).map { takes.entry($0).file })
        for (entry, recorded) in zip(rebuilt, takes.manifest.takes) {
            #expect(entry.frames == recorded.frames)
            #expect(abs(entry.duration - recorded.duration) < 1e-3)
            #expect(entry.device == recorded.device && entry.thumbnail == recorded.thumbnail)
            #expect(abs(try seconds(entry.created) - seconds(recorded.created)) <= 2)
        }
        #expect((1...3).map { FileManager.default.contents(atPath: directory + "/" + takes.entry($0).file) } == videos)
        if let damaged {
            let copy = try #require(report.damagedManifestCopy)
            #expect(copy.hasPrefix("takes.json.damaged-"))
            #expect(FileManager.default.contents(atPath: directory + "/" + copy) == damaged, "the damaged one is kept")
        } else {
            #expect(report.damagedManifestCopy == nil)
        }
        #expect(try TakesRecovery.recover(directory).nothingToRecover)
    }

    /// Listed takes keep their order; a take not listed goes in by its number, a seed-era
    /// unnumbered one last.
    @Test func orderIsKeptAndNewTakesGoInByNumber() throws {
        let takes = RecordedTakes.h264
        takes.copy(1, into: directory)
        takes.copy(3, into: directory)
        let second = takes.copy(2, into: directory, cut: Cut.inSecondMdat.offset(in: FragmentCensus(takes.video(2))))
        let seedEra = directory + "/segment_40F02985-08D0-44FC-B88E-335111EC7E78.mov"
        try FileManager.default.copyItem(atPath: takes.directory + "/" + takes.entry(1).file, toPath: seedEra)
        try TakesManifest(takes: [takes.entry(1), takes.entry(3)]).save(to: directory)

        let report = try TakesRecovery.recover(directory)
        #expect(report.takes.map(\.outcome) == [.kept, .recovered, .kept, .listed], "in the new takes.json's order")
        let files = try TakesFolder.manifest(in: directory).takes.map(\.file)
        #expect(files == [takes.entry(1).file, (second as NSString).lastPathComponent, takes.entry(3).file,
                          (seedEra as NSString).lastPathComponent])

        // An order the user chose (3 before 1) is theirs: nothing to recover, nothing rewritten.
        try TakesManifest(takes: [takes.entry(3), takes.entry(1)]).save(to: directory)
        try FileManager.default.removeItem(atPath: second)
        try FileManager.default.removeItem(atPath: seedEra)
        let before = snapshot(directory)
        #expect(try TakesRecovery.recover(directory).nothingToRecover)
        #expect(snapshot(directory) == before)
    }

    /// A listed take whose file was cut short afterwards (a copy that stopped) is saved in place;
    /// its entry keeps what only the capture knew (timeline, latency) and gets the new counts.
    /// A listed take whose file is gone is reported, its entry kept.
    @Test func listedTakesCutShortOrMissing() throws {
        let takes = RecordedTakes.h264
        let cut = Cut.afterSecondFragment.offset(in: FragmentCensus(takes.video(1)))
        let path = takes.copy(1, into: directory, cut: cut)
        try TakesManifest(takes: [takes.entry(1), takes.entry(2)]).save(to: directory)

        let report = try TakesRecovery.recover(directory)
        #expect(report.takes.map(\.outcome) == [.recovered, .missing])
        #expect(!report.allSaved)
        let entries = try TakesFolder.manifest(in: directory).takes
        try #require(entries.count == 2)
        #expect(entries[1] == takes.entry(2))
        var expected = takes.entry(1)
        expected.frames = ProgramRun.decodedFrames(path)
        expected.duration = entries[0].duration
        expected.check = entries[0].check
        #expect(entries[0] == expected)
        #expect(expected.frames == FragmentCensus(takes.video(1).prefix(cut)).wholeSamples)
    }

    @Test func unsaveableFilesAreReportedAndKept() throws {
        let takes = RecordedTakes.h264
        takes.copy(1, into: directory)
        let census = FragmentCensus(takes.video(2))
        takes.copy(2, into: directory, cut: census.boxes[0].end)   // the header only: killed at once
        let text = directory + "/segment_0003_NOTES.mov"
        #expect(FileManager.default.createFile(atPath: text, contents: Data("not a video\n".utf8)))
        let before = snapshot(directory)

        let report = try TakesRecovery.recover(directory)
        #expect(report.takes.map(\.outcome) == [.listed, .unsaveable, .unsaveable])
        #expect(report.takes[1].detail?.contains("before its first fragment is complete") == true, "\(report.takes[1])")
        #expect(report.takes[2].detail == "not a QuickTime file")
        #expect(!report.allSaved)
        for (name, bytes) in before { #expect(FileManager.default.contents(atPath: directory + "/" + name) == bytes, "\(name)") }
        #expect(try TakesFolder.manifest(in: directory).takes.map(\.file) == [takes.entry(1).file])
    }

    /// A capture still writing its take (another process has the file open) is left alone:
    /// replacing the file would lose what it writes after the copy.
    @Test func aTakeAnotherProcessHasOpenIsLeftAlone() throws {
        let takes = RecordedTakes.h264
        let path = takes.copy(2, into: directory, cut: Cut.inSecondMdat.offset(in: FragmentCensus(takes.video(2))))
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sleep")
        holder.arguments = ["600"]
        holder.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)   // SIGTERM may be ignored, as the test runner's is
            holder.waitUntilExit()
        }
        let before = snapshot(directory)
        let report = try TakesRecovery.recover(directory)
        #expect(report.takes.map(\.outcome) == [.inUse])
        #expect(report.takes[0].detail?.contains("process \(holder.processIdentifier)") == true)
        #expect(snapshot(directory) == before)
    }

    @Test(arguments: ["..", "absolute", "symlink"])
    func entriesLeadingOutAreRefusedWithNothingTouched(kind: String) throws {
        let outside = ScratchFolder()
        #expect(FileManager.default.createFile(atPath: outside.path + "/precious.mov", contents: Data("precious".utf8)))
        let takes = RecordedTakes.h264
        takes.copy(1, into: directory)
        takes.copy(2, into: directory, cut: Cut.inSecondMdat.offset(in: FragmentCensus(takes.video(2))))
        var hostile = takes.entry(3)
        switch kind {
        case "..": hostile.file = "../" + (outside.path as NSString).lastPathComponent + "/precious.mov"
        case "absolute": hostile.file = outside.path + "/precious.mov"
        default:
            try FileManager.default.createSymbolicLink(atPath: directory + "/segment_0003_LINK.mov",
                                                       withDestinationPath: outside.path + "/precious.mov")
            hostile.file = "segment_0003_LINK.mov"
        }
        try TakesManifest(takes: [takes.entry(1), hostile]).save(to: directory)
        let before = snapshot(directory)

        let error = vrenderError { try TakesRecovery.recover(directory) }
        #expect(error?.subject == directory + "/takes.json")
        #expect(error?.reason.hasPrefix("entry 2 '\(hostile.file)'") == true, "\(String(describing: error))")
        #expect(snapshot(directory) == before)
        #expect(snapshot(outside.path) == ["precious.mov": Data("precious".utf8)])
    }

    /// Capture into a folder a killed capture left a take in says so before it records.
    @Test func captureNamesTheTakesLeftUnfinished() throws {
        let takes = RecordedTakes.h264
        takes.copy(1, into: directory)
        takes.copy(2, into: directory, cut: Cut.inSecondMdat.offset(in: FragmentCensus(takes.video(2))))
        try TakesManifest(takes: [takes.entry(1)]).save(to: directory)
        let events = EventLog()
        let recorded = try shortCapture().run(events: events.append)
        #expect(events.notices == ["\(directory) has 1 unfinished take(s) (\(takes.entry(2).file)): "
                                   + "run 'vrender takes recover \(directory)'"])
        #expect(recorded.first?.file.hasPrefix("segment_0003_") == true)
    }

    /// Capture and every takes command refuse a damaged takes.json the same way, pointing to
    /// `takes recover`, and change nothing.
    @Test func aDamagedManifestPointsEveryReaderToRecover() throws {
        #expect(FileManager.default.createFile(atPath: directory + "/takes.json", contents: Data(#"{"takes": ["#.utf8)))
        let before = snapshot(directory)
        let readers: [(String, () throws -> Any)] = [
            ("capture", { try self.shortCapture().run() }),
            ("list", { try TakesFolder.manifest(in: self.directory) }),
            ("rm", { try TakesFolder.remove(["1"], from: self.directory) }),
            ("concat", { try TakesFolder.takePaths(in: self.directory) }),
            ("thumbs", { try TakesFolder.writeContactSheet(of: self.directory, to: self.directory + "/sheet.png", columns: 2, width: 64) }),
        ]
        for (reader, read) in readers {
            let error = vrenderError(read)
            #expect(error?.subject == directory + "/takes.json", "\(reader)")
            #expect(error?.reason.contains("'vrender takes recover \(directory)' rebuilds it") == true,
                    "\(reader): \(String(describing: error))")
        }
        #expect(snapshot(directory) == before)
    }

    /// A thumbnail listed below a folder that is a link out: recover (which makes missing
    /// thumbnails) is refused and writes nothing there, though the file does not exist yet.
    @Test func recoverWritesNoThumbnailThroughALinkedFolder() throws {
        let outside = ScratchFolder()
        let takes = RecordedTakes.h264
        takes.copy(1, into: directory)
        try FileManager.default.removeItem(atPath: directory + "/" + takes.entry(1).thumbnail!)
        try FileManager.default.createSymbolicLink(atPath: directory + "/sub", withDestinationPath: outside.path)
        var take = takes.entry(1)
        take.thumbnail = "sub/authorized_keys"
        try TakesManifest(takes: [take]).save(to: directory)
        let error = vrenderError { try TakesRecovery.recover(directory) }
        #expect(error?.subject == directory + "/takes.json")
        #expect(error?.reason.hasPrefix("entry 1 'sub/authorized_keys' leads through 'sub', a symbolic link") == true,
                "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    private func shortCapture() -> CaptureJob {
        CaptureJob(options: CaptureOptions(device: "synthetic", request: CaptureRequest(size: (64, 48)),
                                           plan: RecordingPlan(outputDirectory: directory, duration: 0.1, codec: .h264)))
    }

    @Test func aMissingFolderIsNamed() {
        #expect(vrenderError { try TakesRecovery.recover(directory + "/nope") }?.description == "\(directory)/nope: no such folder")
    }

    private func seconds(_ iso8601: String) throws -> Double {
        try #require(ISO8601DateFormatter().date(from: iso8601)).timeIntervalSince1970
    }
}
