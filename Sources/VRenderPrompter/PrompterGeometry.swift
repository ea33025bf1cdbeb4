import VRenderCore
import VRenderImaging

/// Where the prompter's box sits in a picture and how big its parts are, in pixels.
///
/// The seed measures in points on a phone whose screen is 390 points wide, filled by the
/// camera's picture. Here a point is 1/390 of the picture's shorter side, so the text takes
/// the same share of the picture as on the phone whatever the resolution: 2.77 pixels at
/// 1080p, 1.85 at 720p, 1.23 at 640×480. Speeds and offsets stay in points (takes.json keeps
/// them so), which makes a scroll recorded at one size play the same at another.
public struct PrompterGeometry: Sendable, Equatable {
    /// The seed's screen width in points: the picture's shorter side.
    public static let pointsAcrossShorterSide = 390.0
    /// The box's default place, as fractions of the picture: across the top, as the seed's
    /// overlay sits under the recording timer.
    public static let defaultBox = (x: 0.05, y: 0.04, width: 0.90, height: 0.34)
    /// The smallest box, points: room for two lines of the largest font.
    public static let minimumBoxSize = (width: 160.0, height: 116.0)
    /// The text's inset from the box's edges, points: left and right, and the text area's
    /// from the top and bottom (the seed's compact padding while recording, 36 points in all,
    /// rounded to the side inset so the box looks even).
    public static let padding = 16.0
    public static let cornerRadius = 16.0
    /// The fade at the bottom of the text area, points.
    public static let fadeHeight = 24.0
    /// How dark the box is (0 clear, 1 black).
    public static let boxOpacity = 0.55

    public let pictureWidth: Int
    public let pictureHeight: Int
    /// The box, inside the picture.
    public let box: PixelRect

    /// Pixels per point in this picture.
    public var pixelsPerPoint: Double {
        Double(Swift.min(pictureWidth, pictureHeight)) / Self.pointsAcrossShorterSide
    }

    /// The default box for a picture.
    public init(pictureWidth: Int, pictureHeight: Int) {
        let box = Self.defaultBox
        self.init(pictureWidth: pictureWidth, pictureHeight: pictureHeight,
                  fitting: PixelRect(x: Int((Double(pictureWidth) * box.x).rounded()),
                                     y: Int((Double(pictureHeight) * box.y).rounded()),
                                     width: Int((Double(pictureWidth) * box.width).rounded()),
                                     height: Int((Double(pictureHeight) * box.height).rounded())))
    }

    /// A box asked for in pixels, moved and resized to fit: at least the minimum size (or the
    /// whole picture, if that is smaller), wholly inside the picture.
    public init(pictureWidth: Int, pictureHeight: Int, fitting requested: PixelRect) {
        self.pictureWidth = pictureWidth
        self.pictureHeight = pictureHeight
        box = Self.fit(requested, width: pictureWidth, height: pictureHeight,
                       minimum: Self.minimumPixels(width: pictureWidth, height: pictureHeight))
    }

    /// The box with what fitting it changed, one notice per change, naming `option`
    /// ("--prompter-box 0,0,50,40 is smaller than 160x116 points (197x143 pixels): …").
    public static func fitted(_ requested: PixelRect, pictureWidth: Int, pictureHeight: Int,
                              option: String = "--prompter-box") -> (geometry: PrompterGeometry, notice: String?) {
        let geometry = PrompterGeometry(pictureWidth: pictureWidth, pictureHeight: pictureHeight, fitting: requested)
        guard geometry.box != requested else { return (geometry, nil) }
        let minimum = minimumPixels(width: pictureWidth, height: pictureHeight)
        let asked = "\(option) \(requested.x),\(requested.y),\(requested.width),\(requested.height)"
        let reason = requested.width < minimum.width || requested.height < minimum.height
            ? "is smaller than the minimum \(Int(minimumBoxSize.width))x\(Int(minimumBoxSize.height)) points "
              + "(\(minimum.width)x\(minimum.height) pixels in this \(pictureWidth)x\(pictureHeight) picture)"
            : "does not fit in the \(pictureWidth)x\(pictureHeight) picture"
        let box = geometry.box
        return (geometry, "\(asked) \(reason): \(box.x),\(box.y),\(box.width),\(box.height) is used")
    }

    // MARK: - Parts of the box, pixels

    /// The box's parts in this picture's pixels, for `PrompterOverlay`.
    public var appearance: PrompterOverlay.Appearance {
        PrompterOverlay.Appearance(box: box, cornerRadius: pixels(Self.cornerRadius), boxOpacity: Self.boxOpacity,
                                   padding: Int(pixels(Self.padding).rounded()),
                                   fadeHeight: Int(pixels(Self.fadeHeight).rounded()))
    }

    /// Where the text shows: the box less its top and bottom padding.
    public var viewport: PixelRect { appearance.viewport }

    /// `text` wrapped to the box's width at `fontSize` points, with the seed's line spacing.
    public func layout(_ text: String, fontSize: Double, font: TextFont) -> TextLayout {
        TextLayout(text: text, font: font, pixelSize: pixels(fontSize), lineSpacing: pixels(PrompterSettings.lineSpacing),
                   width: appearance.textWidth)
    }

    /// A layout in points, for the scroll model and the terminal.
    public func prompterText(_ layout: TextLayout) -> PrompterText {
        PrompterText(lines: layout.lines.map(\.text), lineHeight: points(layout.lineHeight),
                     contentHeight: points(layout.height) + Self.fadeHeight, lineStarts: layout.lines.map(\.sourceStart))
    }

    /// The font's size in pixels for a size in points.
    public func pixels(_ points: Double) -> Double { points * pixelsPerPoint }

    /// A length in pixels, in points.
    public func points(_ pixels: Double) -> Double { pixels / pixelsPerPoint }

    /// The viewport's height in points (the scroll model's `viewportHeight`).
    public var viewportPoints: Double { points(Double(viewport.height)) }


    // MARK: - Fitting

    static func minimumPixels(width: Int, height: Int) -> (width: Int, height: Int) {
        let perPoint = Double(Swift.min(width, height)) / pointsAcrossShorterSide
        return (Swift.min(width, Int((minimumBoxSize.width * perPoint).rounded(.up))),
                Swift.min(height, Int((minimumBoxSize.height * perPoint).rounded(.up))))
    }

    /// `rect` grown to `minimum`, cut to the picture, then moved inside it.
    static func fit(_ rect: PixelRect, width: Int, height: Int, minimum: (width: Int, height: Int)) -> PixelRect {
        let boxWidth = Swift.min(width, Swift.max(rect.width, minimum.width))
        let boxHeight = Swift.min(height, Swift.max(rect.height, minimum.height))
        let x = Swift.min(Swift.max(0, rect.x), width - boxWidth)
        let y = Swift.min(Swift.max(0, rect.y), height - boxHeight)
        return PixelRect(x: x, y: y, width: boxWidth, height: boxHeight)
    }
}
