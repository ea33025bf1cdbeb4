import VRenderCore

/// A coloured disc or box that bounces around the world: the motion in the synthetic scene.
///
/// Positions are evaluated from the time alone (no state carried between frames), with IEEE
/// basic operations only, so frame k is the same whether it is the first frame rendered or the
/// thousandth, and on every machine.
struct MovingShape: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// `size` is the radius.
        case disc
        /// `size` is half the width; `halfHeight` half the height.
        case box(halfHeight: Int)
    }

    var kind: Kind
    var colour: SceneColour
    /// World units (`StaticScene.unit`).
    var size: Int
    /// World position at time 0, in units (fractions of the wide lens's field).
    var startX: Double
    var startY: Double
    /// Units per second.
    var velocityX: Double
    var velocityY: Double

    /// Centres stay within ±0.7 × ±0.38 units: inside the ultra-wide lens's field, often
    /// outside the wide and tele ones, so changing lens changes what is seen.
    static let travelX = 0.7
    static let travelY = 0.38

    /// The centre at `time` seconds, in world units.
    func centre(at time: Double) -> (x: Int, y: Int) {
        let x = Self.bounce(startX + velocityX * time, within: Self.travelX)
        let y = Self.bounce(startY + velocityY * time, within: Self.travelY)
        let unit = Double(StaticScene.unit)
        return (Int((x * unit).rounded()), Int((y * unit).rounded()))
    }

    /// Folds an unbounded coordinate into [−limit, limit] as a ball bouncing between two walls.
    static func bounce(_ coordinate: Double, within limit: Double) -> Double {
        let span = 2 * limit
        let period = 2 * span
        var offset = coordinate + limit
        offset -= (offset / period).rounded(.down) * period
        if offset > span { offset = period - offset }
        return Swift.min(Swift.max(offset, 0), span) - limit
    }
}

/// The moving shapes a seed chooses: kinds, sizes, colours, starting points and velocities.
enum MovingShapes {
    static let count = 6

    /// Vivid colours (BT.601 limited range): red, green, blue, yellow, magenta, cyan, white,
    /// orange.
    static let palette: [SceneColour] = [
        SceneColour(y: 97, cb: 94, cr: 229), SceneColour(y: 130, cb: 87, cr: 61),
        SceneColour(y: 89, cb: 212, cr: 99), SceneColour(y: 200, cb: 35, cr: 154),
        SceneColour(y: 123, cb: 180, cr: 194), SceneColour(y: 154, cb: 162, cr: 43),
        SceneColour(y: 224, cb: 128, cr: 128), SceneColour(y: 155, cb: 61, cr: 187),
    ]

    static func make(seed: UInt64) -> [MovingShape] {
        var random = SplitMix64(seed: seed)
        // A seeded shuffle, so the shapes of one seed have distinct colours.
        var colours = palette
        for index in stride(from: colours.count - 1, to: 0, by: -1) {
            colours.swapAt(index, random.next(in: 0...index))
        }
        return (0..<count).map { index in
            let size = StaticScene.u(random.next(in: 25...70))
            let kind: MovingShape.Kind = random.next() & 1 == 0
                ? .disc : .box(halfHeight: StaticScene.u(random.next(in: 20...60)))
            func velocity() -> Double {
                let speed = 0.05 + 0.25 * random.nextUnit()
                return random.next() & 1 == 0 ? speed : -speed
            }
            return MovingShape(
                kind: kind, colour: colours[index], size: size,
                startX: (2 * random.nextUnit() - 1) * MovingShape.travelX,
                startY: (2 * random.nextUnit() - 1) * MovingShape.travelY,
                velocityX: velocity(), velocityY: velocity())
        }
    }
}
