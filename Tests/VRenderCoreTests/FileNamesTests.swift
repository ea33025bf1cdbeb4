import Foundation
import Testing
@testable import VRenderCore

/// `FileNames`: any bytes a Linux file name can hold survive the trip through a `String`, and
/// are shown escaped; `AtomicFile`'s temporary names fit in 255 bytes.
@Suite struct FileNamesTests {
    /// Every byte alone, every pair of high bytes, UTF-8 cut short, overlong forms, surrogates,
    /// and the escape block's own code points written literally.
    static let samples: [[UInt8]] = (1...255).map { [UInt8($0)] }
        + (0x80...0xFF).flatMap { first in stride(from: 0x80, through: 0xFF, by: 7).map { [UInt8(first), UInt8($0)] } }
        + [[0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBA, 0x80],
           Array("take-é-🎬.mov".utf8), [0x61, 0xFF, 0x62, 0xF4, 0x8F, 0xBB, 0xBF]]

    @Test func everyNameRoundTrips() {
        for bytes in Self.samples {
            #expect(FileNames.platformBytes(FileNames.string(fromPlatformBytes: bytes)) == bytes, "\(bytes)")
        }
    }

    @Test func absolutePathsAreSpelledOutLexically() {
        #expect(FileNames.absolute("/a/./b//c/../d/") == "/a/b/d")
        #expect(FileNames.absolute("/..") == "/")
        let here = FileManager.default.currentDirectoryPath
        #expect(FileNames.absolute("x/../y.mov") == here + "/y.mov")
        #expect(FileNames.absolute(".") == here)
    }

    @Test func validUTF8StaysAsItIs() {
        let name = "take-é-🎬.mov"
        #expect(FileNames.string(fromPlatformBytes: Array(name.utf8)) == name)
        #expect(FileNames.display(name) == name)
    }

    @Test func displayEscapesBytesAndControlCharacters() {
        #expect(FileNames.display(FileNames.string(fromPlatformBytes: [0x61, 0xFF, 0x62])) == "a\\xffb")
        #expect(FileNames.display("two\nlines") == "two\\x0alines")
        // An escape code point written literally is shown as the bytes it is.
        #expect(FileNames.display(FileNames.string(fromPlatformBytes: [0xF4, 0x8F, 0xBA, 0x80])) == "\\xf4\\x8f\\xba\\x80")
    }

    @Test func theSystemFindsAFileByItsBytes() throws {
        let folder = NSTemporaryDirectory() + "vrender-filenames-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + FileNames.string(fromPlatformBytes: [0x61, 0xFF, 0x2E, 0x6D, 0x6F, 0x76])
        try Array("x".utf8).withUnsafeBytes { try AtomicFile.write($0, to: path) }
        #expect(FileNames.status(path)?.st_size == 1)
        // Listed by the system as the raw bytes: one entry, "a\xff.mov".
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(entries.count == 1)
    }

    @Test func prefixCutsBetweenCharacters() {
        #expect(FileNames.prefix("éé", maxBytes: 3) == "é")
        #expect(FileNames.prefix(FileNames.string(fromPlatformBytes: [0xFF, 0xFF]), maxBytes: 1).unicodeScalars.count == 1)
    }

    @Test(arguments: [String(repeating: "o", count: 255), String(repeating: "é", count: 127)])
    func temporaryNamesFitNAMEMAX(name: String) {
        let file = AtomicFile(path: "/some/folder/" + name)
        let temporary = (file.temporaryPath as NSString).lastPathComponent
        #expect(temporary.utf8.count <= 255)
        #expect(temporary.hasPrefix(".o") || temporary.hasPrefix(".é"))
        #expect(temporary.hasSuffix(".vrender-partial"))
    }
}
