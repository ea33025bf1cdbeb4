import Testing
import VRenderCore
import VRenderMedia
@testable import VRenderCapture

/// Pins the synthetic camera's frames to hashes: it promises the same bytes for a seed and
/// settings on every machine, and golden tests elsewhere rely on that. A failure here means the
/// frames changed. If that was intended (the scene, font or camera model changed on purpose),
/// replace the hashes with the ones the failure prints and say so in the change; otherwise
/// something made rendering platform- or build-dependent.
@Suite struct SyntheticGoldenTests {
    /// FNV-1a, 64 bits, over the three planes' visible bytes in order.
    static func fingerprint(_ frame: Frame) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in SyntheticRenderTests.bytes(frame) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A short scripted take: ramp through all three lenses, torch, point of interest, flip.
    static func scriptedFingerprints(threads: Int) throws -> [Int: String] {
        let camera = try SyntheticCamera(specification: "synthetic:seed=2024",
                                         request: CaptureRequest(frameRate: Rational(30, 1), size: (192, 108)))
        camera.renderThreads = threads
        _ = camera.apply(.lens(0.5), at: 0)
        _ = camera.apply(.rampZoom(to: 5, rate: 4), at: 0.2)
        _ = camera.apply(.torch(level: 0.8), at: 0.5)
        _ = camera.apply(.pointOfInterest(x: 0.3, y: 0.8), at: 0.6)
        _ = camera.apply(.flip, at: 0.9)
        let frame = try Frame.picture(width: 192, height: 108)
        var fingerprints: [Int: String] = [:]
        for index in 0..<36 {
            _ = try camera.nextFrame(into: frame)
            if [0, 8, 14, 20, 35].contains(index) { fingerprints[index] = fingerprint(frame) }
        }
        return fingerprints
    }

    static let expected: [Int: String] = [
        0: "7ecc26e38ad4b65e", 8: "495a2f83883bf855", 14: "a54aed7bd444fcdf", 20: "9a8dbb5877676c1e",
        35: "8b91841f01472604",
    ]

    @Test func scriptedTakeMatchesItsFingerprints() throws {
        let actual = try Self.scriptedFingerprints(threads: 1)
        #expect(actual == Self.expected, "frames changed: \(actual.sorted { $0.key < $1.key })")
        #expect(try Self.scriptedFingerprints(threads: 4) == actual)
    }
}
