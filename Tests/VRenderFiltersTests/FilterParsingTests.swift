import Testing
import VRenderCore
@testable import VRenderFilters

/// `--filter` parsing: names, `name=option=value` settings, and errors that name the culprit
/// and list what is valid.
@Suite struct FilterParsingTests {
    static let known = "known filters: none, mono, noir, chrome, fade, instant, process, tonal, transfer, sepia"

    @Test func parsesNamesChainsAndOptions() throws {
        #expect(try FilterRegistry.chain("sepia").names == ["sepia"])
        #expect(try FilterRegistry.chain("fade,mono").names == ["fade", "mono"])
        #expect(try FilterRegistry.chain(" noir , chrome ").names == ["noir", "chrome"])
        let chain = try FilterRegistry.chain("mono=strength=60,noir, sepia = strength = 5")
        #expect(chain.names == ["mono", "noir", "sepia"])
        #expect(chain.filters.map(\.optionValues) == [["strength": 60], ["strength": 100], ["strength": 5]])
        let mono = try #require(chain.filters[0] as? MonoFilter)
        #expect(mono.program == MonoFilter.fullStrength.atStrength(60))
        #expect(try FilterRegistry.chain("mono=strength=100").filters[0].optionValues == ["strength": 100])
    }

    /// `--filter monochrome` (or bw, grayscale, the iOS app's Core Image name) once got
    /// "unknown filter" with no hint; it is mono, and the chain says so by its own name.
    @Test func filtersAreFoundByTheirOtherNames() throws {
        #expect(try FilterRegistry.chain("monochrome,BW,grayscale,Mono").names == ["mono", "mono", "mono", "mono"])
        #expect(try FilterRegistry.chain("CIPhotoEffectNoir,vintage=strength=50").names == ["noir", "sepia"])
        #expect(try FilterRegistry.chain("vintage=strength=50").specification == "sepia=strength=50")
        #expect(try FilterRegistry.chain("original").names == ["none"])
        #expect(throws: Self.error("unknown filter 'monochrom' (\(Self.known)); did you mean 'monochrome'?")) {
            try FilterRegistry.chain("monochrom")
        }
    }

    @Test func specificationRoundTrips() throws {
        for text in ["mono", "mono=strength=60,noir", "none,sepia=strength=0,process"] {
            #expect(try FilterRegistry.chain(text).specification == text)
        }
        // Defaults are left out.
        #expect(try FilterRegistry.chain("fade=strength=100").specification == "fade")
    }

    static func error(_ reason: String) -> VRenderError { .option("--filter", reason) }

    @Test func rejectsUnknownFiltersAndEmptyLists() {
        #expect(throws: Self.error("unknown filter 'sepiaa' (\(Self.known)); did you mean 'sepia'?")) { try FilterRegistry.chain("sepiaa") }
        #expect(throws: Self.error("unknown filter 'Monoo' (\(Self.known)); did you mean 'mono'?")) { try FilterRegistry.chain("noir,Monoo") }
        #expect(throws: Self.error("unknown filter '' (\(Self.known))")) { try FilterRegistry.chain("=strength=3") }
        #expect(throws: Self.error("empty filter list (\(Self.known))")) { try FilterRegistry.chain(" , ") }
    }

    @Test func rejectsBadOptions() {
        let options = "options: strength=0...100"
        #expect(throws: Self.error("filter 'mono': unknown option 'strenght' (\(options))")) {
            try FilterRegistry.chain("mono=strenght=50")
        }
        #expect(throws: Self.error("filter 'noir': '60' is not option=value (\(options))")) {
            try FilterRegistry.chain("noir=60")
        }
        #expect(throws: Self.error("filter 'fade': option 'strength' must be an integer in 0...100, not '101'")) {
            try FilterRegistry.chain("fade=strength=101")
        }
        #expect(throws: Self.error("filter 'fade': option 'strength' must be an integer in 0...100, not '-1'")) {
            try FilterRegistry.chain("mono,fade=strength=-1")
        }
        #expect(throws: Self.error("filter 'fade': option 'strength' must be an integer in 0...100, not 'high'")) {
            try FilterRegistry.chain("fade=strength=high")
        }
        #expect(throws: Self.error("filter 'fade': option 'strength' must be an integer in 0...100, not ''")) {
            try FilterRegistry.chain("fade=strength=")
        }
        #expect(throws: Self.error("filter 'sepia': option 'strength' is given twice")) {
            try FilterRegistry.chain("sepia=strength=1:strength=2")
        }
        #expect(throws: Self.error("filter 'none' takes no options (got 'strength=5')")) {
            try FilterRegistry.chain("none=strength=5")
        }
    }
}
