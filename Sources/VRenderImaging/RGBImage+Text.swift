import VRenderCore

extension RGBImage {
    /// Draws `text` in the built-in 5×7 bitmap font, each font pixel `scale`×`scale` pixels,
    /// with its top-left corner at (x, y); lower-case letters are drawn as capitals.
    public mutating func draw(text: String, x: Int, y: Int, scale: Int = 2, color: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255)) {
        BitmapFont.forEachDot(of: text.uppercased(), scale: scale) { dotX, dotY in
            fill(x: x + dotX, y: y + dotY, width: scale, height: scale, color: color)
        }
    }

    /// Width in pixels of `text` drawn at `scale`.
    public static func textWidth(_ text: String, scale: Int = 2) -> Int {
        Swift.max(0, text.count * BitmapFont.advance(scale: scale) - scale)
    }

    /// Paints a rectangle, clipped to the image (one wholly outside it paints nothing).
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, color: (r: UInt8, g: UInt8, b: UInt8)) {
        let rows = Swift.max(0, y)..<Swift.max(Swift.max(0, y), Swift.min(self.height, y + height))
        let columns = Swift.max(0, x)..<Swift.max(Swift.max(0, x), Swift.min(self.width, x + width))
        for row in rows {
            for column in columns {
                let index = (row * self.width + column) * 3
                pixels[index] = color.r
                pixels[index + 1] = color.g
                pixels[index + 2] = color.b
            }
        }
    }
}

extension RGBImage {
    /// Lays pictures out `columns` to a row on a dark background with `gap` pixels around each,
    /// optionally with a label centred under each (contact sheets, filter previews): one line a
    /// `\n`-separated part, at twice the font's size where it fits the picture's width, else at
    /// its size, shortened in the middle if it still does not fit.
    public static func grid(_ tiles: [RGBImage], labels: [String]? = nil, columns: Int, gap: Int = 8) -> RGBImage {
        precondition(columns > 0 && labels.map { $0.count == tiles.count } ?? true)
        let labelLines = labels?.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let labelHeight = labelHeight(lines: labelLines?.map(\.count).max() ?? 0)
        let cellWidth = tiles.map(\.width).max() ?? 0
        let cellHeight = (tiles.map(\.height).max() ?? 0) + labelHeight
        let used = Swift.min(columns, tiles.count)
        let rows = (tiles.count + columns - 1) / columns
        var sheet = RGBImage(width: gap + used * (cellWidth + gap), height: gap + rows * (cellHeight + gap), fill: (24, 24, 24))
        for (index, tile) in tiles.enumerated() {
            let x = gap + (index % columns) * (cellWidth + gap)
            let y = gap + (index / columns) * (cellHeight + gap)
            sheet.paste(tile, x: x, y: y)
            for (line, text) in (labelLines?[index] ?? []).enumerated() {
                let (shown, scale) = fitted(text, width: cellWidth)
                sheet.draw(text: shown, x: x + (cellWidth - textWidth(shown, scale: scale)) / 2,
                           y: y + tile.height + 5 + line * labelLineHeight + (2 - scale) * 3, scale: scale)
            }
        }
        return sheet
    }

    /// Pixels from one label line to the next.
    static let labelLineHeight = 18

    /// Pixels under each picture for labels of `lines` lines (none: 0).
    public static func labelHeight(lines: Int) -> Int { lines == 0 ? 0 : 6 + lines * labelLineHeight }

    /// `text` at scale 2 if it fits `width`, else at 1, shortened in the middle ("ab...yz") if
    /// it still does not.
    static func fitted(_ text: String, width: Int) -> (text: String, scale: Int) {
        if textWidth(text, scale: 2) <= width { return (text, 2) }
        guard textWidth(text, scale: 1) > width else { return (text, 1) }
        let characters = Array(text), room = Swift.max(0, (width + 1) / BitmapFont.advance(scale: 1) - 3)
        let head = (room + 1) / 2, tail = room / 2
        return (String(characters.prefix(head)) + "..." + String(characters.suffix(tail)), 1)
    }
}
