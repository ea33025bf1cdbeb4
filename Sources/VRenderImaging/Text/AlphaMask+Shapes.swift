import VRenderCore

extension AlphaMask {
    /// A rounded rectangle at `opacity` (0…1), clipped to a `width`×`height` picture; nil
    /// when none of it is in the picture. Its straight edges lie on pixel edges; a corner
    /// pixel is covered by `radius + ½ − d` (clamped to 0…1), d being the distance from the
    /// pixel's centre to the corner circle's centre: the usual analytic approximation of the
    /// area inside the arc. The radius is at most half the shorter side.
    static func roundedRect(_ rect: PixelRect, cornerRadius: Double, opacity: Double,
                            pictureWidth: Int, pictureHeight: Int) -> AlphaMask? {
        let columns = Swift.max(rect.x, 0)..<Swift.min(rect.x + rect.width, pictureWidth)
        let rows = Swift.max(rect.y, 0)..<Swift.min(rect.y + rect.height, pictureHeight)
        guard !columns.isEmpty && !rows.isEmpty else { return nil }
        let radius = Swift.min(Swift.max(cornerRadius, 0), Double(Swift.min(rect.width, rect.height)) / 2)
        let opacity = Swift.min(Swift.max(opacity, 0), 1)
        // Rows whose pixels the arcs cross, counted from the nearer horizontal edge; every
        // other row is the same plain row. Each distinct row is stored once.
        let curvedRows = Int(radius.rounded(.up))
        var storage: [UInt16] = []
        storage.reserveCapacity((curvedRows + 1) * columns.count)
        let plain = UInt16((opacity * Double(one)).rounded())
        for fromEdge in 0...curvedRows {
            let row = storage.count
            storage.append(contentsOf: repeatElement(plain, count: columns.count))
            guard fromEdge < curvedRows else { break }
            // Only the columns the arcs cross differ from the plain row.
            let left = columns.clamped(to: rect.x..<(rect.x + curvedRows))
            let right = columns.clamped(to: (rect.x + rect.width - curvedRows)..<(rect.x + rect.width))
            for x in Array(left) + Array(right) {
                let fromSide = Swift.min(x - rect.x, rect.x + rect.width - 1 - x)
                let coverage = cornerCoverage(fromSide, fromEdge, radius: radius)
                storage[row + x - columns.lowerBound] = UInt16((opacity * coverage * Double(one)).rounded())
            }
        }
        let rowOffsets = rows.map { y in
            Swift.min(y - rect.y, rect.y + rect.height - 1 - y, curvedRows) * columns.count
        }
        return AlphaMask(columns: columns, rows: rows, storage: storage, rowOffsets: rowOffsets,
                         spans: Array(repeating: 0..<columns.count, count: rows.count))
    }

    /// The share of the pixel `column` pixels from a vertical edge and `row` from a horizontal
    /// one that lies inside a corner arc of `radius`.
    private static func cornerCoverage(_ column: Int, _ row: Int, radius: Double) -> Double {
        let dx = radius - (Double(column) + 0.5), dy = radius - (Double(row) + 0.5)
        guard dx > 0 && dy > 0 else { return 1 }
        return Swift.min(Swift.max(radius + 0.5 - (dx * dx + dy * dy).squareRoot(), 0), 1)
    }
}
