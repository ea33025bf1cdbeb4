import VRenderCore
import VRenderFilters

/// A named chain of colour programs for parameterized tests.
struct ProgramCase: Sendable, CustomStringConvertible {
    var name: String
    var programs: [ColorProgram]

    var description: String { name }
}

enum TestPrograms {
    static let one = ColorProgram.one

    /// Luma scaled by 1.1 through a softened-contrast curve; chroma rows zero, so Cb and Cr
    /// become their curves' entry 128 (neutral grey with identity chroma curves).
    static let monoLike = ColorProgram(
        matrix: [4506, 0, 0, 0, 0, 0, 0, 0, 0],
        lumaCurve: (0...255).map { index in
            // Pulls levels a quarter of the way towards mid-grey: lower contrast.
            UInt8(clamping: (index * 3 + 128) / 4)
        })

    /// A warm, sepia-like look: luma from all three inputs, chroma pushed towards orange and
    /// partly from luma, negative coefficients in every row, and a different curve per channel.
    static let sepiaLike = ColorProgram(
        matrix: [3891, -410, 820,
                 -614, 1229, -205,
                 410, -205, 1638],
        lumaCurve: (0...255).map { UInt8(clamping: $0 * $0 / 255 + 8) },
        cbCurve: (0...255).map { UInt8(clamping: 110 + ($0 - 128) / 2) },
        crCurve: (0...255).map { UInt8(clamping: 255 - $0) })

    /// Coefficients anywhere in the allowed range (some small, some up to ±2^20 so sums
    /// saturate) and arbitrary curves, from a fixed seed.
    static func random(seed: UInt64) -> ColorProgram {
        var generator = SplitMix64(seed: seed)
        let matrix = (0..<9).map { index -> Int32 in
            let bound: Int32 = UInt64(index % 3) == seed % 3 ? 1 << 20 : 3 * one
            return Int32.random(in: -bound...bound, using: &generator)
        }
        func curve() -> [UInt8] { (0..<256).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        return ColorProgram(matrix: matrix, lumaCurve: curve(), cbCurve: curve(), crCurve: curve())
    }

    static let single: [ProgramCase] = [
        ProgramCase(name: "identity", programs: [.identity]),
        ProgramCase(name: "mono-like", programs: [monoLike]),
        ProgramCase(name: "sepia-like", programs: [sepiaLike]),
        ProgramCase(name: "random 1", programs: [random(seed: 1)]),
        ProgramCase(name: "random 2", programs: [random(seed: 2)]),
        ProgramCase(name: "random 3", programs: [random(seed: 3)]),
    ]

    static let chains: [ProgramCase] = [
        ProgramCase(name: "sepia-like, mono-like", programs: [sepiaLike, monoLike]),
        ProgramCase(name: "mono-like, sepia-like, random 4", programs: [monoLike, sepiaLike, random(seed: 4)]),
        ProgramCase(name: "random 5, random 6", programs: [random(seed: 5), random(seed: 6)]),
    ]
}
