import VRenderCore

/// `capture --device synthetic --shake AMPLITUDE[:SEED]`: a hand-held camera's shake laid over
/// the synthetic picture, so that stabilization (`concat --stabilize`) has something to take
/// away and its effect can be measured.
///
/// The shake at time t is a sum of three sinusoids per axis (1 to 4 Hz, a hand's sway and jitter; phases and
/// weights drawn from SEED), scaled so the translation stays within AMPLITUDE pixels, plus a
/// rotation whose swing at the picture's edge is a third of that. It is a function of the scene
/// clock only, so batch and realtime captures of one seed shake alike, and it is computed with
/// `DeterministicMath` and integer warping: the same seed gives the same frames on any machine.
package struct CameraShake: Sendable, Equatable {
    package static let defaultSeed: UInt64 = 1
    package static let amplitudeLimit = 0.0...200.0

    /// The largest translation, in pixels of the picture.
    package let amplitude: Double
    package let seed: UInt64
    /// Per axis (x, y, rotation): three (frequency Hz, phase turns, weight) terms.
    private let terms: [[(frequency: Double, phase: Double, weight: Double)]]

    /// - Throws: `VRenderError.option("--shake", …)` for an amplitude outside 0...200.
    package init(amplitude: Double, seed: UInt64 = CameraShake.defaultSeed) throws {
        guard amplitude.isFinite, Self.amplitudeLimit.contains(amplitude) else {
            throw VRenderError.option("--shake", "an amplitude from 0 to 200 pixels, not \(amplitude)")
        }
        self.amplitude = amplitude
        self.seed = seed
        var random = SplitMix64(seed: seed ^ 0x5348_414B_4521)  // "SHAKE!": apart from the scene's draws
        terms = (0..<3).map { _ in
            (0..<3).map { _ in
                (1 + 3 * random.nextUnit(), random.nextUnit(), 0.5 + 0.5 * random.nextUnit())
            }
        }
    }

    /// Parses `AMPLITUDE[:SEED]` (e.g. `8` or `8:3`).
    package init(parsing text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let amplitude = Double(parts[0]) else {
            throw VRenderError.option("--shake", "AMPLITUDE[:SEED] in pixels (e.g. 8 or 8:3), not \"\(text)\"")
        }
        var seed = Self.defaultSeed
        if parts.count == 2 {
            guard let value = UInt64(parts[1]) else {
                throw VRenderError.option("--shake", "the seed in \"\(text)\" must be a whole number from 0 to \(UInt64.max)")
            }
            seed = value
        }
        try self.init(amplitude: amplitude, seed: seed)
    }

    package static func == (a: CameraShake, b: CameraShake) -> Bool {
        a.amplitude == b.amplitude && a.seed == b.seed
    }

    /// The camera's displacement at `time` seconds: content moved by (x, y) pixels and turned
    /// by `angle` radians about the centre, for a picture `width` wide.
    package func offset(at time: Double, width: Int, height: Int) -> (x: Double, y: Double, angle: Double) {
        func axis(_ index: Int) -> Double {
            var sum = 0.0, total = 0.0
            for term in terms[index] {
                sum += term.weight * DeterministicMath.cos(turns: term.frequency * time + term.phase)
                total += term.weight
            }
            return sum / total
        }
        let halfWidth = Double(max(width, height)) / 2
        return (amplitude * axis(0), amplitude * axis(1), amplitude / 3 / halfWidth * axis(2))
    }

    /// Writes `source` moved and turned by the shake at `time` into `destination` (same size,
    /// 4:2:0); picture edges are repeated where the move uncovers them.
    package func apply(from source: YUVImage, into destination: YUVImage, at time: Double) {
        let shift = offset(at: time, width: source.width, height: source.height)
        // Sine from the deterministic cosine: cos(2π(t − ¼)) = sin(2πt).
        let turns = shift.angle / 6.283_185_307_179_586
        let cosine = DeterministicMath.cos(turns: turns), sine = DeterministicMath.cos(turns: turns - 0.25)
        for (plane, scale) in [(0, 1.0), (1, 0.5), (2, 0.5)] {
            let from = [source.luma, source.cb, source.cr][plane], to = [destination.luma, destination.cb, destination.cr][plane]
            Self.warp(from, into: to, cosine: cosine, sine: sine, x: shift.x * scale, y: shift.y * scale)
        }
    }

    /// Bilinear warp in 16.16 fixed point: each output pixel reads the source at the point the
    /// rotation about the centre and the move bring it from. Integer steps after the first:
    /// the same bytes on any machine.
    private static func warp(_ source: PlaneView, into destination: PlaneView, cosine: Double, sine: Double,
                             x: Double, y: Double) {
        let one = 65536.0
        let cos16 = Int((cosine * one).rounded()), sin16 = Int((sine * one).rounded())
        let centreX = source.width * 32768, centreY = source.height * 32768  // (w/2, h/2) in 16.16
        let moveX = Int((x * one).rounded()), moveY = Int((y * one).rounded())
        let maxX = (source.width - 1) << 16, maxY = (source.height - 1) << 16
        for row in 0..<destination.height {
            let out = destination.row(row)
            let dy = (row << 16) - centreY - moveY
            for column in 0..<destination.width {
                let dx = (column << 16) - centreX - moveX
                // Inverse rotation of (dx, dy), back about the centre.
                let sx = min(max((cos16 * dx + sin16 * dy) >> 16 + centreX, 0), maxX)
                let sy = min(max((cos16 * dy - sin16 * dx) >> 16 + centreY, 0), maxY)
                let x0 = sx >> 16, y0 = sy >> 16
                let fx = (sx >> 8) & 0xFF, fy = (sy >> 8) & 0xFF
                let x1 = min(x0 + 1, source.width - 1), y1 = min(y0 + 1, source.height - 1)
                let top = source.row(y0), bottom = source.row(y1)
                let upper = Int(top[x0]) * (256 - fx) + Int(top[x1]) * fx
                let lower = Int(bottom[x0]) * (256 - fx) + Int(bottom[x1]) * fx
                out[column] = UInt8((upper * (256 - fy) + lower * fy + 32768) >> 16)
            }
        }
    }
}
