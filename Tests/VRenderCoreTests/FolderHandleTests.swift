import Foundation
import Testing
import VRenderTestSupport
@testable import VRenderCore

/// `FolderHandle`: names below a folder never lead outside it, through a link, `..` or an
/// absolute name, whether or not they exist yet; removal never follows a link.
@Suite final class FolderHandleTests {
    private let scratch = ScratchFolder()
    private var root: String { scratch.path }

    /// `root/inside` (the folder worked in), `root/outside/decoy.txt`, and `inside/sub` a link
    /// to `outside`.
    private func layout() throws -> (inside: FolderHandle, decoy: String) {
        try FileManager.default.createDirectory(atPath: root + "/inside/real", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
        try Data("decoy".utf8).write(to: URL(fileURLWithPath: root + "/outside/decoy.txt"))
        try FileManager.default.createSymbolicLink(atPath: root + "/inside/sub", withDestinationPath: root + "/outside")
        try FileManager.default.createSymbolicLink(atPath: root + "/inside/link.txt", withDestinationPath: root + "/outside/decoy.txt")
        return (try FolderHandle.open(root + "/inside"), root + "/outside/decoy.txt")
    }

    private static func reason(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return (error as? VRenderError)?.reason }
    }

    @Test func aNameThroughALinkedSubfolderIsRefusedEvenWhenItDoesNotExistYet() throws {
        let (inside, _) = try layout()
        #expect(Self.reason { _ = try inside.parent(of: "sub/authorized_keys") }?.contains("symbolic link") == true)
        #expect(Self.reason { _ = try inside.folder("sub", create: true) }?.contains("symbolic link") == true)
        #expect(!FileManager.default.fileExists(atPath: root + "/outside/authorized_keys"))
        let (real, name) = try inside.parent(of: "real/new.png")
        #expect(real.path == root + "/inside/real" && name == "new.png")
    }

    @Test(arguments: ["../outside/decoy.txt", "/etc/passwd", ".", "./x.mov", "a//b", "", "real/.."])
    func namesThatAreNotPlainNamesBelowTheFolderAreRefused(name: String) throws {
        let (inside, _) = try layout()
        #expect(Self.reason { _ = try inside.parent(of: name) } != nil)
    }

    @Test func readingAndCreatingNeverFollowALink() throws {
        let (inside, decoy) = try layout()
        #expect(Self.reason { _ = try inside.readFile("link.txt", limit: 100) }?.contains("symbolic link") == true)
        #expect(Self.reason { _ = try inside.createExclusive("link.txt") }?.contains("already exists") == true)
        #expect(FileManager.default.contents(atPath: decoy) == Data("decoy".utf8))
    }

    @Test func readFileRefusesAFileOverItsLimit() throws {
        let (inside, _) = try layout()
        try Data(count: 101).write(to: URL(fileURLWithPath: root + "/inside/big.json"))
        #expect(Self.reason { _ = try inside.readFile("big.json", limit: 100) }?.contains("more than the 100") == true)
        #expect(try inside.readFile("big.json", limit: 101).count == 101)
    }

    @Test func removeTreeRemovesLinksNotWhatTheyLeadTo() throws {
        let (inside, decoy) = try layout()
        try FileManager.default.createSymbolicLink(atPath: root + "/inside/real/escape", withDestinationPath: root + "/outside")
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/inside/real/chunk.mov"))
        try inside.removeTree("real")
        #expect(!FileManager.default.fileExists(atPath: root + "/inside/real"))
        #expect(FileManager.default.contents(atPath: decoy) == Data("decoy".utf8))
        // A link in the folder itself is not a folder to remove.
        #expect(Self.reason { try inside.removeTree("sub") }?.contains("not a folder") == true)
        #expect(FileManager.default.fileExists(atPath: decoy))
        #expect(Set(try inside.names()) == ["sub", "link.txt"])
    }
}
