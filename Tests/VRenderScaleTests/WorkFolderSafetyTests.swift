import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderScale

/// Which folders vrender works in, and what it removes: only what it made.
@Suite struct WorkFolderSafetyTests {
    let directory = TestMedia.scratchDirectory()

    func make(_ path: String, files: [String] = []) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for file in files { try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/" + file)) }
    }

    @Test func aFolderHoldingSomethingElseIsRefused() throws {
        let work = directory + "/wd"
        try make(work, files: ["unrelated"])
        let error = try #require(throws: VRenderError.self) {
            try WorkFolder(path: work).checkUsable(output: directory + "/out.mov", inputs: [])
        }
        #expect("\(error)".contains("is not empty and is not a vrender work folder"), "\(error)")
    }

    /// By device and inode: through a link, or a path spelled otherwise, it is still found.
    @Test func aFolderHoldingTheOutputOrAnInputIsRefused() throws {
        let work = directory + "/wd"
        try make(work + "/deep/er")
        try FileManager.default.createSymbolicLink(atPath: directory + "/alias", withDestinationPath: work)
        let folder = WorkFolder(path: work)
        try folder.create()   // a vrender work folder: only what it holds matters now
        #expect(throws: VRenderError.self) { try folder.checkUsable(output: directory + "/alias/out.mov", inputs: []) }
        #expect(throws: VRenderError.self) { try folder.checkUsable(output: directory + "/out.mov", inputs: [work + "/deep/er/take.mov"]) }
        #expect(throws: VRenderError.self) { try folder.checkOutsideFolder(work + "/deep/../out.mov") }
        try folder.checkUsable(output: directory + "/out.mov", inputs: [directory + "/take.mov"])
    }

    /// An empty folder given is used, marked, and emptied afterwards, but stays: vrender did not make it.
    @Test func anEmptyFolderGivenIsEmptiedNotRemoved() throws {
        let work = directory + "/given"
        try make(work)
        let folder = WorkFolder(path: work)
        try folder.checkUsable(output: directory + "/out.mov", inputs: [])
        try folder.create()
        try folder.checkUsable(output: directory + "/out.mov", inputs: [])   // now a vrender work folder
        try Data("x".utf8).write(to: URL(fileURLWithPath: work + "/chunks/chunk_0000.mov"))
        folder.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: work) == [])
    }

    /// What vrender puts there goes; anything else, and so the folder, stays.
    @Test func removalTakesOnlyVrendersEntries() throws {
        let folder = WorkFolder(path: directory + "/made")
        try folder.create()
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/plan.json"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/mine.txt"))
        folder.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["mine.txt"])

        let clean = WorkFolder(path: directory + "/clean")
        try clean.create()
        clean.remove()
        #expect(!FileManager.default.fileExists(atPath: clean.path), "made by vrender and empty: removed")

        let foreign = directory + "/foreign"
        try make(foreign, files: ["plan.json"])
        WorkFolder(path: foreign).remove()
        #expect(FileManager.default.fileExists(atPath: foreign + "/plan.json"), "no marker: not vrender's, nothing touched")
    }
}
