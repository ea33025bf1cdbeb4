import Foundation
import Testing
import VRenderTestSupport
@testable import VRenderCore

/// `HeldFile`: a regular file opened through its folder without following a link or waiting,
/// and read through its descriptor whatever its name becomes.
@Suite final class HeldFileTests {
    private let scratch = ScratchFolder()
    private var root: String { scratch.path }

    private func refusal(_ name: String, in folder: FolderHandle) -> HeldFile.Refusal? {
        do {
            _ = try HeldFile.open(name, in: folder)
            return nil
        } catch {
            return error
        }
    }

    @Test func linksFIFOsFoldersAndDevicesAreRefusedWithoutWaiting() throws {
        try Data("private".utf8).write(to: URL(fileURLWithPath: root + "/private.mov"))
        try FileManager.default.createDirectory(atPath: root + "/takes/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/takes/link.mov", withDestinationPath: root + "/private.mov")
        try FileManager.default.createSymbolicLink(atPath: root + "/takes/null.mov", withDestinationPath: "/dev/null")
        #expect(mkfifo(root + "/takes/fifo.png", 0o644) == 0)
        let takes = try FolderHandle.open(root + "/takes")

        // A FIFO with no writer: opening it must not wait for one (this returns at all).
        #expect(refusal("fifo.png", in: takes)?.why == .notRegular)
        #expect(refusal("fifo.png", in: takes)?.description == root + "/takes/fifo.png: is a FIFO, not a regular file")
        #expect(refusal("link.mov", in: takes)?.why == .link)
        #expect(refusal("null.mov", in: takes)?.why == .link)
        #expect(refusal("sub", in: takes)?.reason == "is a folder, not a regular file")
        #expect(refusal("missing.mov", in: takes)?.why == .missing)
        #expect(refusal("missing.mov", in: takes)?.error(as: .input) == VRenderError.input(root + "/takes/missing.mov", "no such file"))
        // FolderHandle.readFile says the same.
        #expect(throws: VRenderError.input(root + "/takes/fifo.png", "is a FIFO, not a regular file")) {
            _ = try takes.readFile("fifo.png", limit: 100)
        }
    }

    /// The file checked is the file read: replacing its name by a link to another file after
    /// the open changes nothing for its descriptor or its /proc path.
    @Test func theFileOpenedIsTheFileReadWhateverItsNameBecomes() throws {
        try FileManager.default.createDirectory(atPath: root + "/takes", withIntermediateDirectories: true)
        try Data("the take".utf8).write(to: URL(fileURLWithPath: root + "/takes/take.mov"))
        try Data("private".utf8).write(to: URL(fileURLWithPath: root + "/private.mov"))
        let file = try HeldFile.open("take.mov", in: FolderHandle.open(root + "/takes"))
        #expect(file.path == root + "/takes/take.mov" && file.size == 8)

        try FileManager.default.removeItem(atPath: root + "/takes/take.mov")
        try FileManager.default.createSymbolicLink(atPath: root + "/takes/take.mov", withDestinationPath: root + "/private.mov")
        #expect(FileManager.default.contents(atPath: file.readablePath) == Data("the take".utf8))
    }

    @Test func namingPutsTheFileBackForItsWholeProcPath() throws {
        for name in ["a.mov", "b.mov"] { try Data().write(to: URL(fileURLWithPath: root + "/" + name)) }
        let folder = try FolderHandle.open(root)
        let a = try HeldFile.open("a.mov", in: folder), b = try HeldFile.open("b.mov", in: folder)
        let other = "/proc/self/fd/\(a.descriptor)0"   // starts with a's path, is not a's
        let text = "\(a.readablePath): bad; \(b.readablePath) and \(other)"
        #expect(HeldFile.naming(text, [a, b]) == "\(root)/a.mov: bad; \(root)/b.mov and \(other)")
        let error = HeldFile.naming(VRenderError.input(b.readablePath, "at \(a.readablePath)"), [a, b]) as? VRenderError
        #expect(error == VRenderError.input(root + "/b.mov", "at \(root)/a.mov"))
    }
}
