#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import VRenderCore

/// A font file and the Debian package that installs it (named when the file is missing).
public struct FontFile: Sendable, Hashable {
    public var path: String
    public var package: String

    public init(path: String, package: String) {
        self.path = path
        self.package = package
    }

    /// True when the file is there to be opened.
    package var isInstalled: Bool { access(path, F_OK) == 0 }

    /// The prompter's face. DejaVu ships no semibold cut; bold is the nearest to the seed app's.
    public static let dejaVuSansBold = FontFile(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                                                package: "fonts-dejavu-core")
    /// Chinese, Japanese and Korean characters, which DejaVu lacks.
    public static let wenQuanYiMicroHei = FontFile(path: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
                                                   package: "fonts-wqy-microhei")
}

/// A chain of fonts read with FreeType: a character is drawn from the first font that has it.
///
/// Threading: one `TextFont` may be shared by any number of threads. FreeType faces are not
/// thread-safe, so every FreeType call and the glyph cache sit behind one lock; a caller holds
/// it only to look glyphs up or rasterize ones never drawn before (a batch per acquisition),
/// and what it takes out are references to immutable glyph bitmaps.
// @unchecked Sendable: `faces` (FreeType's faces and the glyph cache) is only touched with `lock` held.
public final class TextFont: @unchecked Sendable {
    /// The files of the chain that were found and opened, primary first.
    public let files: [FontFile]
    private let lock = ConditionLock()
    private var faces = FontFaces()

    /// Opens `primary`, which must exist, and those of `fallbacks` that do. A missing fallback
    /// is not an error: the characters only it has then draw as the primary's missing-glyph box
    /// (and `TextLayout.missingCharacters` lists them).
    public init(primary: FontFile = .dejaVuSansBold, fallbacks: [FontFile] = [.wenQuanYiMicroHei]) throws {
        guard primary.isInstalled else {
            throw VRenderError.input(primary.path, "font not found; install the Debian package \(primary.package) "
                                     + "(scripts/install-deps.sh installs it)")
        }
        let found = [primary] + fallbacks.filter(\.isInstalled)
        for file in found {
            do {
                try faces.open(file)
            } catch {
                faces.close()
                throw error
            }
        }
        files = found
    }

    deinit {
        faces.close()
    }

    /// Runs `body` with the font locked: FreeType calls and glyph look-ups, in one acquisition.
    func withFaces<Result>(_ body: (inout FontFaces) -> Result) -> Result {
        lock.withLock { body(&faces) }
    }
}
