import VRenderCore
import VRenderImaging

/// One prompter frame drawn onto a picture: a translucent dark rounded box and, inside it, the
/// script's lines in white, scrolled, cut at the box's top and bottom insets and fading out
/// toward the bottom. A value; drawing only reads it, so one overlay may draw frames on any
/// number of threads at once (each into its own picture).
public struct PrompterOverlay: Sendable {
    /// Where and how the box is drawn, all in pixels of the picture drawn into.
    public struct Appearance: Sendable, Equatable {
        /// The box, in the picture; any part outside the picture is cut off.
        public var box: PixelRect
        /// The radius of the box's corners (at most half its shorter side).
        public var cornerRadius: Double
        /// How far the box darkens the picture toward black: 0 not at all, 1 solid black.
        public var boxOpacity: Double
        /// The text's inset from the box's left edge, and the viewport's inset from the box's
        /// top and bottom edges. Lay the text out `textWidth` wide.
        public var padding: Int
        /// How many rows at the viewport's bottom fade the text out (linearly, to nothing).
        public var fadeHeight: Int
        /// The text's luma from black (0) to nominal white (1): 1 for SDR, graphics white for
        /// HDR (`YUVOverlay.GraphicsWhite`).
        public var textLevel: Double = 1

        public init(box: PixelRect, cornerRadius: Double, boxOpacity: Double = 0.55, padding: Int, fadeHeight: Int) {
            self.box = box
            self.cornerRadius = cornerRadius
            self.boxOpacity = boxOpacity
            self.padding = padding
            self.fadeHeight = fadeHeight
        }

        /// Where text shows: the box less `padding` at its top and bottom. Text above or
        /// below it is cut; across, it is the box's full width, so a glyph reaching a little
        /// past its advance (a "j" at a line's start) into the side padding is not cut.
        /// Scroll offset 0 puts the first line's top at the viewport's top.
        public var viewport: PixelRect {
            PixelRect(x: box.x, y: box.y + padding, width: box.width, height: Swift.max(0, box.height - 2 * padding))
        }

        /// The width to lay the text out at: the box less `padding` on both sides.
        public var textWidth: Int { Swift.max(1, box.width - 2 * padding) }

        /// Where every line starts: `padding` in from the box's left edge.
        public var textLeft: Int { box.x + padding }
    }

    public let layout: TextLayout
    public let font: TextFont
    public let appearance: Appearance

    /// `layout` must have been laid out in `font` (at `appearance.textWidth` for the lines to
    /// fit the box).
    public init(layout: TextLayout, font: TextFont, appearance: Appearance) {
        self.layout = layout
        self.font = font
        self.appearance = appearance
    }

    /// Draws the box and the text scrolled by `offset` pixels (0: the first line at the
    /// viewport's top; it may be fractional, the text moves in whole pixels).
    public func draw(into image: YUVImage, offset: Double) {
        YUVOverlay.darken(image, roundedRect: appearance.box, cornerRadius: appearance.cornerRadius,
                          opacity: appearance.boxOpacity)
        YUVOverlay.drawText(layout, font: font, into: image, left: appearance.textLeft, top: appearance.viewport.y,
                            offset: offset, clip: appearance.viewport, fadeHeight: appearance.fadeHeight,
                            level: appearance.textLevel)
    }

    /// Draws onto a 10- or 12-bit picture; see the 8-bit `draw`.
    public func draw(into image: YUVImage16, offset: Double) {
        YUVOverlay.darken(image, roundedRect: appearance.box, cornerRadius: appearance.cornerRadius,
                          opacity: appearance.boxOpacity)
        YUVOverlay.drawText(layout, font: font, into: image, left: appearance.textLeft, top: appearance.viewport.y,
                            offset: offset, clip: appearance.viewport, fadeHeight: appearance.fadeHeight,
                            level: appearance.textLevel)
    }
}
