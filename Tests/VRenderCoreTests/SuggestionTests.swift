import Testing
@testable import VRenderCore

/// "Did you mean …?" for mistyped values.
@Suite struct SuggestionTests {
    let filters = ["none", "mono", "noir", "chrome", "fade", "instant", "process", "tonal", "transfer", "sepia"]

    @Test("a typo's swapped, missing, extra or wrong letter finds the name; far-off words and known names find none")
    func closest() {
        #expect(Suggestion.closest(to: "sepai", among: filters) == "sepia")      // swapped
        #expect(Suggestion.closest(to: "chrom", among: filters) == "chrome")     // missing
        #expect(Suggestion.closest(to: "instannt", among: filters) == "instant") // extra
        #expect(Suggestion.closest(to: "TONAL", among: filters) == "tonal")      // another case
        #expect(Suggestion.closest(to: "tonal", among: filters) == nil)          // known
        #expect(Suggestion.closest(to: "Tonel", among: filters) == "tonal")
        #expect(Suggestion.closest(to: "vintage", among: filters) == nil)
        #expect(Suggestion.closest(to: "", among: filters) == nil)
    }

    @Test func editDistance() {
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.editDistance(Array("ab"), Array("ba")) == 1)
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
        #expect(Suggestion.editDistance(Array("abc"), Array("abc")) == 0)
    }

    @Test func appended() {
        #expect(Suggestion.appended(to: "unknown filter 'sepai'", typed: "sepai", among: filters)
            == "unknown filter 'sepai'; did you mean 'sepia'?")
        #expect(Suggestion.appended(to: "unknown filter 'xyz'", typed: "xyz", among: filters) == "unknown filter 'xyz'")
    }
}
