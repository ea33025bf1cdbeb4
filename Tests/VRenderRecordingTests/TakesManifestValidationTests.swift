import Foundation
import Testing
import VRenderCore
import VRenderPrompter
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// `takes.json` is checked whole as it loads: a field out of range, a name not written plainly,
/// a file listed twice or a file too big is refused, naming the file, the entry and the field.
@Suite struct TakesManifestValidationTests {
    let scratch = ScratchFolder()
    var directory: String { scratch.path }
    var manifestPath: String { directory + "/takes.json" }

    private func entry(_ file: String) -> TakeEntry {
        TakeEntry(file: file, thumbnail: nil, created: "2026-01-01T00:00:00Z", frames: 30, dropped: 0, duration: 1,
                  fps: "30", width: 64, height: 48, codec: "h264", device: "synthetic", preroll: 0, timeline: [], latency: nil)
    }

    /// Writes entries as JSON objects, so a test can put in what vrender's own types would not.
    private func write(_ entries: [[String: Any]]) throws {
        let data = try JSONSerialization.data(withJSONObject: ["takes": entries])
        #expect(FileManager.default.createFile(atPath: manifestPath, contents: data))
    }

    private func object(_ take: TakeEntry) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(take)) as? [String: Any])
    }

    /// `json`: the field's value as JSON text.
    @Test(arguments: [
        ("duration", "1e308", "duration 1e+308 is out of range (0…86400)"),
        ("frames", "-5", "frames -5 is out of range (0…2147483647)"),
        ("dropped", "-1", "dropped -1 is out of range"),
        ("width", "0", "width 0 is out of range (1…16384)"),
        ("height", "100000", "height 100000 is out of range (1…16384)"),
        ("preroll", "-0.5", "preroll -0.5 is out of range"),
        ("fps", #""0""#, "fps '0' is not a frame rate"),
        ("created", #""yesterday""#, "created 'yesterday' is not an ISO 8601 time"),
        ("device", #""cam\u001b[2J""#, "device contains a control character"),
        ("codec", "\"" + String(repeating: "x", count: 65) + "\"", "codec is longer than 64 bytes"),
    ])
    func aFieldOutOfRangeIsRefusedNamingIt(field: String, json: String, why: String) throws {
        var bad = try object(entry("segment_0002_B.mov"))
        bad[field] = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        try write([try object(entry("segment_0001_A.mov")), bad])
        let error = vrenderError { try TakesManifest.load(from: directory) }
        #expect(error?.subject == manifestPath)
        #expect(error?.reason.hasPrefix("entry 2 'segment_0002_B.mov': \(why)") == true, "\(String(describing: error))")
        #expect(error?.reason.contains("'vrender takes recover \(directory)' rebuilds it") == true)
    }

    /// A field of the wrong type is named the way a chunk's record names one (`FieldCheck`),
    /// not as Swift's decoding error dumps its coding path.
    @Test func aFieldOfTheWrongTypeIsNamed() throws {
        var bad = try object(entry("segment_0002_B.mov"))
        bad["frames"] = "ten"
        try write([try object(entry("segment_0001_A.mov")), bad])
        let error = vrenderError { try TakesManifest.load(from: directory) }
        #expect(error?.reason.hasPrefix("is not a valid takes manifest: ") == true)
        #expect(error?.reason.contains("(field 'takes[1].frames': ") == true, "\(String(describing: error))")
    }

    @Test func nestedFieldsAreCheckedToo() throws {
        var take = entry("segment_0001_A.mov")
        take.timeline = [.init(time: 0, position: .back, lens: 1, zoom: 1, torch: 7, cause: "start")]
        try TakesManifest(takes: [take]).save(to: directory)
        #expect(vrenderError { try TakesManifest.load(from: directory) }?.reason
                .hasPrefix("entry 1 'segment_0001_A.mov': timeline[0].torch 7 is out of range (0…1)") == true)
        take.timeline = []
        take.check = TakeCheck(decodableFrames: -3, damagedFrames: 0, duration: 1, problem: nil)
        try TakesManifest(takes: [take]).save(to: directory)
        #expect(vrenderError { try TakesManifest.load(from: directory) }?.reason
                .hasPrefix("entry 1 'segment_0001_A.mov': check.decodableFrames -3 is out of range") == true)
        take.check = nil
        take.audio = TakeSound(device: "pulse:default", rate: 48_000, channels: 99, peak: -6, missingMilliseconds: 0, driftPPM: 12)
        try TakesManifest(takes: [take]).save(to: directory)
        #expect(vrenderError { try TakesManifest.load(from: directory) }?.reason
                .hasPrefix("entry 1 'segment_0001_A.mov': audio.channels 99 is out of range (1…8)") == true)
        take.audio?.channels = 2
        take.audio?.missingMilliseconds = 1e300
        try TakesManifest(takes: [take]).save(to: directory)
        #expect(vrenderError { try TakesManifest.load(from: directory) }?.reason
                .hasPrefix("entry 1 'segment_0001_A.mov': audio.missingMilliseconds 1e+300 is out of range") == true)
        take.audio = nil
        // The synthetic presenter's words: a word ending before it starts, a number no script has.
        take.presenter = PresenterTakeRecord(voice: "en", words: [.init(word: 0, text: "Good", start: 1.5, end: 1.2)], skipped: [])
        try TakesManifest(takes: [take]).save(to: directory)
        #expect(vrenderError { try TakesManifest.load(from: directory) }?.reason
                .hasPrefix("entry 1 'segment_0001_A.mov': presenter.words[0].end 1.2 is out of range (1.5…86400)") == true)
        take.presenter = PresenterTakeRecord(voice: "en\u{1b}[2J", words: [], skipped: [-4])
        try TakesManifest(takes: [take]).save(to: directory)
        #expect(vrenderError { try TakesManifest.load(from: directory) }?.reason
                .hasPrefix("entry 1 'segment_0001_A.mov': presenter.voice contains a control character") == true)
        take.presenter?.voice = "en"
        try TakesManifest(takes: [take]).save(to: directory)
        #expect(vrenderError { try TakesManifest.load(from: directory) }?.reason
                .hasPrefix("entry 1 'segment_0001_A.mov': presenter.skipped[0] -4 is out of range") == true)
    }

    @Test(arguments: [
        (".", "file '.' is not a file name ('.' is the folder itself)"),
        ("./segment_0001_A.mov", "file './segment_0001_A.mov' is not written plainly (a '.' or empty part)"),
        ("sub//segment_0001_A.mov", "is not written plainly"),
        ("segment_0001_A.mov/", "is not written plainly"),
        ("", "file '' is not a file name (it is empty)"),
        ("a\nb.mov", "file contains a control character"),
    ])
    func aNameNotWrittenPlainlyIsRefused(name: String, why: String) throws {
        try TakesManifest(takes: [entry(name)]).save(to: directory)
        let error = vrenderError { try TakesFolder.manifest(in: directory) }
        #expect(error?.subject == manifestPath)
        #expect(error?.reason.hasPrefix("entry 1 '\(name)': ") == true && error?.reason.contains(why) == true,
                "\(String(describing: error))")
        #expect(error?.reason.contains("symbolic link") == false)
    }

    @Test func aFileListedTwiceIsRefused() throws {
        var second = entry("segment_0002_B.mov")
        second.thumbnail = "segment_0001_A.mov"
        try TakesManifest(takes: [entry("segment_0001_A.mov"), second]).save(to: directory)
        let error = vrenderError { try TakesFolder.takePaths(in: directory) }
        #expect(error?.reason.hasPrefix("entry 2 'segment_0002_B.mov': 'segment_0001_A.mov' is listed twice (also in entry 1)") == true,
                "\(String(describing: error))")
    }

    /// A file too big to be a capture's is refused before it is read (a sparse one: no disk used).
    @Test func aManifestOverTheSizeLimitIsNotRead() throws {
        #expect(FileManager.default.createFile(atPath: manifestPath, contents: Data()))
        #expect(truncate(manifestPath, off_t(TakesManifest.maxFileBytes + 1)) == 0)
        let error = vrenderError { try TakesManifest.load(from: directory) }
        #expect(error?.description == "\(manifestPath): is \(TakesManifest.maxFileBytes + 1) bytes, more than the \(TakesManifest.maxFileBytes) a file of its kind may have")
    }

    @Test func aValidManifestLoadsAsSaved() throws {
        var take = entry("segment_0001_A.mov")
        take.thumbnail = "segment_0001_A.png"
        take.fps = "30000/1001"
        take.created = "2026-01-01T00:00:00.250Z"
        take.check = TakeCheck(decodableFrames: 30, damagedFrames: 0, duration: 1, problem: nil)
        let manifest = TakesManifest(takes: [take, entry("sub/segment_0002_B.mov")])
        try manifest.save(to: directory)
        #expect(try TakesManifest.load(from: directory) == manifest)
    }
}

/// What a `takes.json` out of range does to `takes recover` and `takes thumbs`.
@Suite struct TakesManifestLimitsTests {
    let scratch = ScratchFolder()
    var directory: String { scratch.path }

    /// An entry spelled `./segment_…` names a take the folder also holds as `segment_…`: such a
    /// file is damaged, kept aside, and the take listed once (not recovered as a second take).
    @Test func recoverListsATakeSpelledAnotherWayOnce() throws {
        let takes = RecordedTakes.h264
        takes.copy(1, into: directory)
        var spelled = takes.entry(1)
        spelled.file = "./" + spelled.file
        try TakesManifest(takes: [spelled]).save(to: directory)
        let original = try #require(FileManager.default.contents(atPath: directory + "/takes.json"))

        let report = try TakesRecovery.recover(directory)
        let copy = try #require(report.damagedManifestCopy)
        #expect(FileManager.default.contents(atPath: directory + "/" + copy) == original, "the damaged file is kept")
        #expect(try TakesFolder.manifest(in: directory).takes.map(\.file) == [takes.entry(1).file])
        #expect(try TakesFolder.takePaths(in: directory).paths == [directory + "/" + takes.entry(1).file])
    }

    /// 2,000 takes (hard links to one) at 320 pixels would make a sheet of 420 MiB: refused
    /// once the first thumbnail shows its size, and nothing is written.
    @Test func aContactSheetTooBigIsRefusedAfterItsFirstTake() throws {
        let takes = RecordedTakes.h264
        let source = takes.copy(1, into: directory)
        var entries: [TakeEntry] = []
        for number in 1...2000 {
            var take = takes.entry(1)
            take.file = String(format: "segment_%04d_X.mov", number)
            take.thumbnail = nil
            #expect(link(source, directory + "/" + take.file) == 0)
            entries.append(take)
        }
        try TakesManifest(takes: entries).save(to: directory)
        let sheet = directory + "/sheet.png"
        let error = vrenderError { try TakesFolder.writeContactSheet(of: directory, to: sheet, columns: 4, width: 320) }
        #expect(error?.subject == directory)
        #expect(error?.reason.hasPrefix("a contact sheet of its 2000 takes at 320 pixels wide would take") == true,
                "\(String(describing: error))")
        #expect(error?.reason.hasSuffix("over the 256 MiB vrender makes one of; use a smaller --width") == true)
        #expect(!FileManager.default.fileExists(atPath: sheet))
    }
}
