import VRenderImaging

/// A picture of where two pictures of one size differ: each pixel's largest absolute
/// difference over R, G and B, mapped through a colour ramp (black for none, then blue,
/// magenta, red, yellow, white for the largest), with a scale bar and its range under it.
/// The ramp spans 0 to the largest difference found, so faint differences still show.
package enum HeatMap {
    /// Height of the scale bar added under the picture.
    static let legendHeight = 12

    package static func render(expected: RGBImage, got: RGBImage) -> RGBImage {
        precondition(expected.width == got.width && expected.height == got.height, "a heat map needs pictures of one size")
        var differences = [UInt8](repeating: 0, count: expected.width * expected.height)
        for pixel in differences.indices {
            var largest = 0
            for channel in 0..<3 {
                let index = pixel * 3 + channel
                largest = Swift.max(largest, abs(Int(expected.pixels[index]) - Int(got.pixels[index])))
            }
            differences[pixel] = UInt8(largest)
        }
        let peak = Swift.max(1, Int(differences.max() ?? 0))
        var map = RGBImage(width: expected.width, height: expected.height + legendHeight, fill: (24, 24, 24))
        for (pixel, difference) in differences.enumerated() {
            let colour = ramp(Double(difference) / Double(peak))
            map.pixels[pixel * 3] = colour.r
            map.pixels[pixel * 3 + 1] = colour.g
            map.pixels[pixel * 3 + 2] = colour.b
        }
        drawLegend(on: &map, top: expected.height, peak: peak)
        return map
    }

    /// "0 [ramp] N": the scale of the map, N being the largest difference (of 255).
    private static func drawLegend(on map: inout RGBImage, top: Int, peak: Int) {
        let label = "\(peak)"
        let left = RGBImage.textWidth("0", scale: 1) + 4
        let right = map.width - RGBImage.textWidth(label, scale: 1) - 4
        map.draw(text: "0", x: 2, y: top + 3, scale: 1)
        map.draw(text: label, x: right + 2, y: top + 3, scale: 1)
        guard right - left > 1 else { return }
        for x in left..<right {
            map.fill(x: x, y: top + 3, width: 1, height: 7, color: ramp(Double(x - left) / Double(right - left - 1)))
        }
    }

    /// Stops of the ramp, from no difference to the largest.
    private static let stops: [(r: Double, g: Double, b: Double)] = [
        (0, 0, 0), (0, 0, 200), (200, 0, 200), (255, 40, 0), (255, 220, 0), (255, 255, 255),
    ]

    /// The ramp's colour at `position` (0...1), interpolated between its stops.
    static func ramp(_ position: Double) -> (r: UInt8, g: UInt8, b: UInt8) {
        let scaled = Swift.min(Swift.max(position, 0), 1) * Double(stops.count - 1)
        let lower = Swift.min(Int(scaled), stops.count - 2)
        let fraction = scaled - Double(lower)
        func mix(_ from: Double, _ to: Double) -> UInt8 { UInt8((from + (to - from) * fraction).rounded()) }
        let (from, to) = (stops[lower], stops[lower + 1])
        return (mix(from.r, to.r), mix(from.g, to.g), mix(from.b, to.b))
    }
}
