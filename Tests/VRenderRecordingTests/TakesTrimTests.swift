import Foundation
import Testing
import VRenderCore
import VRenderMedia
import VRenderTestSupport
@testable import VRenderRecording
@testable import VRenderTakes

/// `vrender takes trim`: in and out points kept in takes.json, checked against the take's
/// length, read back by `takeInputs`, and refused when a hand-edited file holds nonsense.
@Suite struct TakesTrimTests {
    let directory = TestMedia.scratchDirectory()

    private func entry(_ file: String, duration: Double = 4) -> TakeEntry {
        TakeEntry(file: file, thumbnail: nil, created: "2026-01-01T00:00:00Z", frames: Int(duration * 30), dropped: 0,
                  duration: duration, fps: "30", width: 64, height: 48, codec: "h264", device: "test", preroll: 0,
                  timeline: [], latency: nil)
    }

    private func makeFolder() throws {
        for name in ["a.mov", "b.mov"] {
            #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()))
        }
        try TakesManifest(takes: [entry("a.mov"), entry("b.mov")]).save(to: directory)
    }

    @Test func aTrimIsKeptInTakesJsonAndReadBackWithItsTake() throws {
        try makeFolder()
        let saved = try TakesFolder.setTrim(of: "2", in: directory, from: .frame(45), to: .seconds(3.5))
        #expect(saved.trim == TakeTrim(start: 1.5, end: 3.5))
        let inputs = try TakesFolder.takeInputs(in: directory)
        #expect(inputs.takes.map(\.trim) == [nil, TakeTrim(start: 1.5, end: 3.5)])
        let json = try String(contentsOfFile: directory + "/takes.json", encoding: .utf8)
        #expect(json.contains("\"in\"") && json.contains("\"out\""))
        // An OUT at the take's end is the end; clearing restores the whole take.
        #expect(try TakesFolder.setTrim(of: "a.mov", in: directory, from: .seconds(1), to: .end).trim == TakeTrim(start: 1, end: nil))
        #expect(try TakesFolder.setTrim(of: "1", in: directory, from: .seconds(0.5), to: .seconds(4)).trim == TakeTrim(start: 0.5, end: nil))
        #expect(try TakesFolder.setTrim(of: "1", in: directory, from: nil, to: nil).trim == nil)
    }

    @Test func trimsOutsideTheTakeAreRefusedAndChangeNothing() throws {
        try makeFolder()
        let before = try String(contentsOfFile: directory + "/takes.json", encoding: .utf8)
        let late = vrenderError { try TakesFolder.setTrim(of: "1", in: directory, from: .seconds(1), to: .seconds(9)) }
        #expect(late?.description == "OUT: take 1 lasts 4.000 s: OUT 9.000 s is past its end")
        let backwards = vrenderError { try TakesFolder.setTrim(of: "1", in: directory, from: .seconds(2), to: .seconds(1)) }
        #expect(backwards?.description == "OUT: OUT (1.000 s) must be at least a frame after IN (2.000 s)")
        let pastEnd = vrenderError { try TakesFolder.setTrim(of: "1", in: directory, from: .frame(200), to: .end) }
        #expect(pastEnd?.description == "IN: take 1 lasts 4.000 s: IN must be before its end")
        #expect(try String(contentsOfFile: directory + "/takes.json", encoding: .utf8) == before)
    }

    @Test func aHandEditedTrimThatMakesNoSenseIsRefusedByName() throws {
        try makeFolder()
        var manifest = try TakesFolder.manifest(in: directory)
        manifest.takes[1].trim = TakeTrim(start: 3, end: 2)
        try manifest.save(to: directory)
        let error = vrenderError { try TakesFolder.takePaths(in: directory) }
        #expect(error?.description.contains("entry 2") == true)
        #expect(error?.description.contains("its out point (2.000 s) is not after its in point (3.000 s)") == true)
    }

    @Test func trimPointsParseAsTimesFramesOrEnd() {
        #expect(TrimPoint("1.5") == .seconds(1.5))
        #expect(TrimPoint("1500ms") == .seconds(1.5))
        #expect(TrimPoint("0:01.5") == .seconds(1.5))
        #expect(TrimPoint("01:00:02") == .seconds(3602))
        #expect(TrimPoint("45f") == .frame(45))
        #expect(TrimPoint("END") == .end)
        for bad in ["", "-1", "f", "1:75", "x", "4.5f"] { #expect(TrimPoint(bad) == nil, "\(bad)") }
    }
}
