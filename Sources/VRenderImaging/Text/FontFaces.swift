internal import CFreeType
import VRenderCore

/// One glyph rasterized at one size: FreeType's 8-bit anti-aliased coverage (0 = no ink,
/// 255 = fully covered), cropped to the glyph's ink box, with where that box sits.
/// Immutable, so shared freely between the font's cache and any drawing thread.
final class GlyphBitmap: Sendable {
    /// Columns from the pen position to the bitmap's first column (may be negative).
    let left: Int
    /// Rows from the baseline up to the bitmap's first row (positive: above the baseline).
    let top: Int
    let width: Int
    let height: Int
    /// How far the pen moves after this glyph, in 26.6 fixed point (1/64 pixel).
    let advance: Int
    /// `width`×`height` coverage values, row after row, no padding.
    let coverage: [UInt8]

    init(left: Int, top: Int, width: Int, height: Int, advance: Int, coverage: [UInt8]) {
        precondition(coverage.count == width * height, "glyph coverage does not match its size")
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.advance = advance
        self.coverage = coverage
    }
}

/// The FreeType side of `TextFont`: one library, the chain's faces, the size each face is set
/// to and the rasterized glyphs. Not thread-safe (FreeType faces are not): `TextFont` keeps
/// it inside a mutex and is the only thing that touches it.
struct FontFaces {
    /// A glyph of one face of the chain at one size (26.6 pixels).
    private struct GlyphKey: Hashable {
        let font: Int
        let glyph: UInt32
        let size: Int
    }

    private var library: FT_Library?
    private var faces: [FT_Face] = []
    /// The character size (26.6) each face is set to now, so a size is only set when it changes.
    private var currentSizes: [Int] = []
    private var cache: [GlyphKey: GlyphBitmap] = [:]

    var faceCount: Int { faces.count }

    /// Opens `file` (which exists) as the next face of the chain.
    mutating func open(_ file: FontFile) throws {
        if library == nil {
            var newLibrary: FT_Library?
            let error = FT_Init_FreeType(&newLibrary)
            guard error == 0, let newLibrary else {
                throw VRenderError(.runtime, subject: "FreeType", reason: "cannot start FreeType (error \(error))")
            }
            library = newLibrary
        }
        var face: FT_Face?
        let error = FT_New_Face(library, file.path, 0, &face)
        guard error == 0, let face else {
            throw VRenderError.input(file.path, "is not a font FreeType can read (error \(error)); "
                                     + "reinstall the Debian package \(file.package)")
        }
        faces.append(face)
        currentSizes.append(-1)
    }

    /// Frees every face and the library. Call once, last.
    mutating func close() {
        for face in faces { FT_Done_Face(face) }
        faces = []
        if let library { FT_Done_FreeType(library) }
        library = nil
        cache = [:]
    }

    /// The first face of the chain with a glyph for `scalar` and that glyph's index.
    func lookUp(_ scalar: Unicode.Scalar) -> (font: Int, glyph: UInt32)? {
        for (font, face) in faces.enumerated() {
            let glyph = FT_Get_Char_Index(face, FT_ULong(scalar.value))
            if glyph != 0 { return (font, glyph) }
        }
        return nil
    }

    /// The primary face's line metrics at `size` (26.6), in whole pixels: FreeType rounds a
    /// scalable face's scaled ascender up, descender down and height to the nearest pixel.
    mutating func lineMetrics(size: Int) -> (ascender: Int, descender: Int, height: Int) {
        let metrics = setSize(size, of: 0).pointee.size.pointee.metrics
        return (metrics.ascender >> 6, metrics.descender >> 6, metrics.height >> 6)
    }

    /// The kerning (26.6, grid-fitted) between two glyphs of one face at `size`; 0 when the
    /// face has no kerning table. (FreeType's `FT_Get_Kerning` reads the TrueType 'kern'
    /// table only, not OpenType GPOS kerning.)
    mutating func kerning(font: Int, _ left: UInt32, _ right: UInt32, size: Int) -> Int {
        let face = setSize(size, of: font)
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0 else { return 0 }
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, left, right, FT_KERNING_DEFAULT.rawValue, &delta) == 0 else { return 0 }
        return delta.x
    }

    /// The glyph rasterized at `size`, from the cache when it was drawn before.
    mutating func bitmap(font: Int, glyph: UInt32, size: Int) -> GlyphBitmap {
        let key = GlyphKey(font: font, glyph: glyph, size: size)
        if let cached = cache[key] { return cached }
        let bitmap = rasterize(font: font, glyph: glyph, size: size)
        cache[key] = bitmap
        return bitmap
    }

    /// Renders with FreeType's default (light vertical) hinting into 8-bit coverage. Embedded
    /// bitmap strikes are skipped so every glyph is anti-aliased the same way. A glyph
    /// FreeType cannot load draws as nothing and takes no room.
    private mutating func rasterize(font: Int, glyph: UInt32, size: Int) -> GlyphBitmap {
        let face = setSize(size, of: font)
        let flags = FT_Int32(FT_LOAD_RENDER) | FT_Int32(FT_LOAD_NO_BITMAP)
        guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph else {
            return GlyphBitmap(left: 0, top: 0, width: 0, height: 0, advance: 0, coverage: [])
        }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        var coverage = [UInt8](repeating: 0, count: width * height)
        // Normal render mode gives one byte per pixel (FT_PIXEL_MODE_GRAY); its rows may be
        // padded (`pitch`) or stored bottom-up (negative pitch).
        if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), let buffer = bitmap.buffer {
            let pitch = Int(bitmap.pitch)
            let first = pitch >= 0 ? buffer : buffer + (height - 1) * -pitch
            for row in 0..<height {
                for column in 0..<width { coverage[row * width + column] = first[row * pitch + column] }
            }
        }
        return GlyphBitmap(left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
                           width: width, height: height, advance: slot.pointee.advance.x, coverage: coverage)
    }

    /// `faces[font]` set to `size` (26.6 pixels, at 72 dpi so points are pixels).
    mutating func setSize(_ size: Int, of font: Int) -> FT_Face {
        let face = faces[font]
        if currentSizes[font] != size {
            FT_Set_Char_Size(face, 0, FT_F26Dot6(size), 72, 72)
            currentSizes[font] = size
        }
        return face
    }
}

extension TextFont {
    /// The FreeType this process runs with ("2.12.1"), or nil when a FreeType library cannot be
    /// started. Starts and ends a library of its own: no font is opened.
    package static func freeTypeVersion() -> String? {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        defer { FT_Done_FreeType(library) }
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(library, &major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}
