import Foundation
import Testing
import VRenderTestSupport

/// Acceptance: sixty randomly damaged copies of a take given to `vrender concat`, and every run
/// exits 0 (an output ffprobe can read) or 1 (one error line naming the damaged file), never a
/// signal or a hang, and leaves no temporary file. The damage is drawn from a fixed seed, so a
/// failing copy can be made again from its number: truncated at an offset, bits flipped, a range
/// zeroed, or a range of bytes copied to another place. The take is HEVC in fragmented QuickTime,
/// as `vrender capture` writes; copies are exported as a stream copy, transcoded with a filter,
/// and re-encoded to H.264 in turn.
@Suite struct DamagedCopiesTests {
    static let take = TestMedia.path("take_hevc_320x240.mov")
    static let original: [UInt8] = Array(FileManager.default.contents(atPath: take) ?? Data())

    enum Damage: CaseIterable, Sendable { case truncate, flipBits, zeroRange, duplicateRange }

    struct Copy: Sendable, CustomTestStringConvertible {
        var number: Int
        var damage: Damage { Damage.allCases[number % Damage.allCases.count] }
        /// Export options and the output's extension, in turn.
        var export: (arguments: [String], extension: String) {
            [([], "mov"), (["--filter", "mono", "--preset", "ultrafast"], "mp4"),
             (["--codec", "h264", "--preset", "ultrafast"], "mkv")][number / Damage.allCases.count % 3]
        }
        var testDescription: String { "copy \(number): \(damage), \(export.extension)" }
    }

    static let copies = (0..<60).map(Copy.init)

    /// SplitMix64: small, and the same numbers on every machine.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// The damaged bytes of copy `copy`: each copy its own seed, so any one can be made alone.
    static func damaged(_ copy: Copy) -> [UInt8] {
        var bytes = original
        var random = Random(state: 0x7672_656E_6465_72 &+ UInt64(copy.number))
        switch copy.damage {
        case .truncate:
            bytes.removeLast(bytes.count - random.below(bytes.count))
        case .flipBits:
            for _ in 0...random.below(20) { bytes[random.below(bytes.count)] ^= 1 << UInt8(random.below(8)) }
        case .zeroRange:
            let start = random.below(bytes.count)
            let end = Swift.min(bytes.count, start + 1 + random.below(4096))
            bytes.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
        case .duplicateRange:
            let start = random.below(bytes.count)
            let range = bytes[start..<Swift.min(bytes.count, start + 1 + random.below(4096))]
            bytes.insert(contentsOf: Array(range), at: random.below(bytes.count))
        }
        return bytes
    }

    @Test(arguments: copies)
    func everyDamagedCopyExitsZeroOrOneNamingTheFile(_ copy: Copy) throws {
        let folder = GuardedRun.folder()
        defer { GuardedRun.remove(folder) }
        let input = "\(folder)/damaged-\(copy.number).mov"
        let bytes = Self.damaged(copy)
        #expect(FileManager.default.createFile(atPath: input, contents: Data(bytes)))
        let output = "\(folder)/out.\(copy.export.extension)"
        let run = GuardedRun.vrender(["concat", input, "-o", output, "--progress", "none"] + copy.export.arguments)

        #expect(run.status == 0 || run.status == 1, "status \(run.status) (124: hang, 128+N: signal N): \(run.standardError)")
        if run.status == 1 {
            GuardedRun.expectFailure(run, mentions: input + ": ")
            #expect(GuardedRun.contents(of: folder) == [(input as NSString).lastPathComponent], "nothing is written")
        } else if run.status == 0 {
            #expect(GuardedRun.probe(output) != nil, "ffprobe cannot read the output: \(run.standardError)")
            #expect(GuardedRun.contents(of: folder).count == 2, "\(GuardedRun.contents(of: folder))")
        }
        #expect(FileManager.default.contents(atPath: input) == Data(bytes), "the take is never modified")
    }
}
