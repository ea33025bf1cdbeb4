import Foundation
import Testing
import VRenderCore
import VRenderTestSupport
@testable import VRenderMedia

/// FFmpeg's "Packet corrupt" warnings, counted per demuxer: the only trace of damage in a
/// transport stream whose H.264 parser merged the damaged piece and dropped its flag.
@Suite struct CorruptPacketLogTests {
    @Test func theWarningGivesItsStreamAndTime() {
        #expect(CorruptPacketLog.parse("Packet corrupt (stream = 0, dts = 311011).")
                == CorruptPacketLog.Entry(stream: 0, dts: 311_011))
        #expect(CorruptPacketLog.parse("Packet corrupt (stream = 1, dts = NOPTS).") == CorruptPacketLog.Entry(stream: 1, dts: nil))
    }

    @Test func aScrambledTransportStreamIsCountedAndAHealthyOneIsNot() throws {
        let folder = TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let healthy = folder + "/a.ts", damaged = folder + "/b.ts"
        let made = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=4",
                                                      "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", healthy])
        #expect(made.status == 0, "\(made.standardError)")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: healthy)))
        let start = bytes.count / 2 / 188 * 188 + 17
        for index in start..<start + 4096 { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))

        let clean = try Demuxer(path: healthy)
        while clean.read(into: Packet()) {}
        #expect(clean.corruptPacketsFound == 0 && clean.firstCorruptPacketSeconds == nil)

        let broken = try Demuxer(path: damaged)
        while broken.read(into: Packet()) {}
        #expect(broken.corruptPacketsFound > 0)
        let seconds = try #require(broken.firstCorruptPacketSeconds)
        #expect(seconds > 1.4 && seconds < 1.4 + 4, "in the file's clock (a .ts starts at 1.4 s): \(seconds)")
    }
}
