/// One colour sample in limited-range Y'CbCr (BT.601 levels: luma 16...235, chroma 16...240).
struct SceneColour: Sendable, Equatable {
    var y: Int32
    var cb: Int32
    var cr: Int32
}

/// The part of the synthetic world that never moves, as a function of a world position.
///
/// World coordinates are integers: `unit` (2²⁴) is the width of the wide (1x) lens's field of
/// view, the origin is the optical axis, y grows downwards. Integer coordinates make the
/// pre-rendered lens layers identical on every machine, and a position computed for a pixel and
/// for its mirror image are exact negatives of each other (integer division truncates toward
/// zero), which keeps the front camera an exact mirror of the back one.
///
/// Content, chosen so each camera feature has something to show:
/// - sky and ground gradients split by a horizon, with a faint left-to-right shading and a
///   grid of thin lines: zoom and lens changes are easy to follow;
/// - a zone plate (concentric rings whose frequency rises with the radius to 1,300 cycles per
///   unit) in the centre: detail beyond what the ultra-wide and wide lenses resolve at 1080p,
///   resolved by the tele lens, so a digital crop looks soft and a lens switch sharp. Its mean
///   is mid-grey, so metering the centre leaves exposure alone;
/// - a fine checkerboard (0.0018 unit squares) on the left, 75 % colour bars lower right and a
///   sun upper right: bright, dark and coloured regions for metering and torch tests, placed
///   asymmetrically so mirroring is visible.
struct StaticScene: Sendable {
    static let unit = 1 << 24

    /// `thousandths` of a unit.
    @inline(__always)
    static func u(_ thousandths: Int) -> Int { thousandths * unit / 1000 }

    static let horizon = u(80)
    static let gridPitch = u(125)
    static let gridLineWidth = u(3)
    static let zonePlateRadius = u(130)
    static let checkerLeft = -u(430), checkerRight = -u(250), checkerTop = -u(160), checkerBottom = u(40)
    static let checkerSquare = 18 * unit / 10_000
    static let sunX = u(330), sunY = -u(200), sunRadius = u(45)
    static let barsTop = u(130), barsBottom = u(220), barsLeft = u(90), barPitch = u(62), barWidth = u(52)

    /// 75 % colour bars (BT.601): yellow, cyan, green, magenta, red, blue.
    static let bars: [SceneColour] = [
        SceneColour(y: 162, cb: 44, cr: 142), SceneColour(y: 131, cb: 156, cr: 44),
        SceneColour(y: 112, cb: 72, cr: 58), SceneColour(y: 84, cb: 184, cr: 198),
        SceneColour(y: 65, cb: 100, cr: 212), SceneColour(y: 35, cb: 212, cr: 114),
    ]

    /// Zone plate luma offsets, 92·cos(2π·i/1024), from `DeterministicMath` and rounded once.
    private let rings: [Int32]

    init() {
        rings = (0..<1024).map { index in
            Int32((92 * DeterministicMath.cos(turns: Double(index) / 1024)).rounded())
        }
    }

    /// The colour the world has at (`x`, `y`) (world units, see the type's comment).
    func colour(x: Int, y: Int) -> SceneColour {
        let radiusSquared = x * x + y * y
        if radiusSquared <= Self.zonePlateRadius * Self.zonePlateRadius {
            // Phase in turns = 5000·r² (r in units): 2²⁴ units squared is 2⁴⁸, and the ring table
            // has 2¹⁰ steps per turn, hence 5000·r² >> 38.
            let phase = (5000 &* radiusSquared) >> 38
            return SceneColour(y: 126 + rings[phase & 1023], cb: 128, cr: 128)
        }
        if x >= Self.checkerLeft, x < Self.checkerRight, y >= Self.checkerTop, y < Self.checkerBottom {
            let column = (x - Self.checkerLeft) / Self.checkerSquare
            let row = (y - Self.checkerTop) / Self.checkerSquare
            return SceneColour(y: (column + row) & 1 == 0 ? 212 : 44, cb: 128, cr: 128)
        }
        let sunDX = x - Self.sunX, sunDY = y - Self.sunY
        if sunDX * sunDX + sunDY * sunDY <= Self.sunRadius * Self.sunRadius {
            return SceneColour(y: 228, cb: 96, cr: 150)
        }
        if y >= Self.barsTop, y < Self.barsBottom, x >= Self.barsLeft {
            let offset = x - Self.barsLeft
            let index = offset / Self.barPitch
            if index < Self.bars.count, offset - index * Self.barPitch < Self.barWidth {
                return Self.bars[index]
            }
        }
        return background(x: x, y: y)
    }

    /// Sky above the horizon, ground below, a grid of lines over both.
    private func background(x: Int, y: Int) -> SceneColour {
        var colour: SceneColour
        let isSky = y < Self.horizon
        if isSky {
            colour = Self.blend(SceneColour(y: 212, cb: 150, cr: 114), SceneColour(y: 158, cb: 138, cr: 122),
                                position: y - (-Self.u(700)), length: Self.horizon + Self.u(700))
        } else {
            colour = Self.blend(SceneColour(y: 96, cb: 114, cr: 138), SceneColour(y: 36, cb: 120, cr: 132),
                                position: y - Self.horizon, length: Self.u(700) - Self.horizon)
        }
        colour.y += Int32(x * 10 / Self.unit)
        if Self.positiveModulo(x, Self.gridPitch) < Self.gridLineWidth
            || Self.positiveModulo(y, Self.gridPitch) < Self.gridLineWidth {
            colour.y += isSky ? -28 : 34
        }
        return colour
    }

    /// `from` at position 0 to `to` at `length`, clamped beyond.
    private static func blend(_ from: SceneColour, _ to: SceneColour, position: Int, length: Int) -> SceneColour {
        let t = Int32(Swift.min(Swift.max(position, 0), length) * 1024 / length)
        func mix(_ a: Int32, _ b: Int32) -> Int32 { a + ((b - a) * t) / 1024 }
        return SceneColour(y: mix(from.y, to.y), cb: mix(from.cb, to.cb), cr: mix(from.cr, to.cr))
    }

    @inline(__always)
    private static func positiveModulo(_ value: Int, _ modulus: Int) -> Int {
        let remainder = value % modulus
        return remainder < 0 ? remainder + modulus : remainder
    }
}
