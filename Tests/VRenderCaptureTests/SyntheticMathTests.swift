import Foundation
import Testing
import VRenderCore
@testable import VRenderCapture

/// The libm-free functions behind ramps, exposure and the zone plate: exact where the camera
/// relies on exactness, close to libm elsewhere.
@Suite struct SyntheticMathTests {
    @Test func powersOfTwoAreExact() {
        for exponent in -8...8 {
            #expect(DeterministicMath.exp2(Double(exponent)) == Double(sign: .plus, exponent: exponent, significand: 1))
            #expect(DeterministicMath.log2(Double(sign: .plus, exponent: exponent, significand: 1)) == Double(exponent))
        }
        #expect(DeterministicMath.cos(turns: 0) == 1)
    }

    @Test func valuesAreCloseToLibm() {
        for index in 0..<200 {
            let x = -6 + Double(index) * 0.0613
            #expect(abs(DeterministicMath.exp2(x) - Foundation.exp2(x)) <= 4 * Foundation.exp2(x).ulp)
            let y = 0.01 + Double(index) * 0.173
            #expect(abs(DeterministicMath.log2(y) - Foundation.log2(y)) <= 1e-14)
            let turns = Double(index) / 199 - 0.5
            #expect(abs(DeterministicMath.cos(turns: turns) - Foundation.cos(2 * Double.pi * turns)) <= 1e-13)
        }
    }

    @Test func seedsGiveReproducibleSequences() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42), c = SplitMix64(seed: 43)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        #expect(first != (0..<8).map { _ in c.next() })
        // SplitMix64's published first output for seed 0.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }
}
