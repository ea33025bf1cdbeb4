import Testing
@testable import VRenderMedia

/// How each container spells a track's language, asked of FFmpeg's own muxers: .mov keeps only
/// the old Macintosh list (German as "ger", French as "fra"), MP4 and Matroska any ISO code.
@Suite struct LanguageSpellingTests {
    @Test func quickTimeRespellsWhatItsListSpellsTheOtherWay() throws {
        let mov = try OutputContainer(path: "out.mov")
        #expect(mov.spelling(ofLanguage: "eng") == "eng")
        #expect(mov.spelling(ofLanguage: "deu") == "ger")
        #expect(mov.spelling(ofLanguage: "fre") == "fra")
        #expect(mov.spelling(ofLanguage: "ces") == "ces")
        #expect(mov.spelling(ofLanguage: "eus") == "baq")
        #expect(mov.spelling(ofLanguage: "mri") == nil, "Maori has no code on the list")
        #expect(mov.spelling(ofLanguage: "xho") == nil)
    }

    @Test func mp4AndMatroskaKeepTheCode() throws {
        #expect(try OutputContainer(path: "out.mp4").spelling(ofLanguage: "deu") == "deu")
        #expect(try OutputContainer(path: "out.mkv").spelling(ofLanguage: "deu") == "deu")
        #expect(try OutputContainer(path: "out.mkv").spelling(ofLanguage: "en-US") == "en-US")
    }
}
