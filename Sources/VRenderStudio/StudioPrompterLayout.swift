import Synchronization
import VRenderCore
import VRenderImaging
import VRenderPrompter

/// The prompter's script laid out for the box the pages left, as an export burns it in: the
/// capture lays the script out for the default box (its scroll and takes.json records are in
/// points, whatever the box), and an export wraps it again for the box it draws. The page shows
/// this layout, so what the presenter reads is where and how the export will show it.
final class StudioPrompterLayout: Sendable {
    struct Laid: Sendable {
        var text: PrompterText
        /// The offset that shows the script's end in this box, points.
        var maxOffset: Double
    }

    private struct Key: Equatable {
        var box: [Double]
        var width: Int
        var height: Int
        var fontSize: Double
    }

    private let script: PrompterScript
    private let font: TextFont
    private typealias Cached = (key: Key, laid: Laid)
    // Inferred, not spelled `Mutex<…>`: the ThreadSanitizer build's stand-in (VRenderCore/TSanMutex.swift).
    private let last = Mutex(Cached?.none)

    /// Throws when no font for the prompter is installed (fonts-dejavu-core).
    init(script: PrompterScript) throws {
        self.script = script
        font = try TextFont()
    }

    /// The script wrapped for `box` (fractions) in a `width`x`height` picture at `fontSize`
    /// points; the last one is kept, as it is asked for at every prompter change.
    func layout(box: [Double], width: Int, height: Int, fontSize: Double) -> Laid {
        let key = Key(box: box, width: width, height: height, fontSize: fontSize)
        if let last = last.withLock({ $0 }), last.key == key { return last.laid }
        var geometry = PrompterGeometry(pictureWidth: width, pictureHeight: height)
        if let pixels = StudioExport.box(fractions: box, width: width, height: height) {
            geometry = PrompterGeometry(pictureWidth: width, pictureHeight: height, fitting: pixels)
        }
        let text = geometry.prompterText(geometry.layout(script.text, fontSize: fontSize, font: font))
        let laid = Laid(text: text, maxOffset: Swift.max(0, text.contentHeight - geometry.viewportPoints))
        last.withLock { $0 = (key, laid) }
        return laid
    }
}
