import Testing
import VRenderCore

/// The throwing parsers every command-line value of a syntax goes through: a value is read once,
/// and a refused one is worded here and nowhere else, quoting the value as it was typed.
@Suite struct ValueSyntaxErrorTests {
    /// The reason a parser gave, or nil when it accepted the value.
    private func refusal<T>(_ parse: (String) throws(ValueSyntaxError) -> T, _ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func sizes() throws {
        let size = try ValueSyntax.requireSize("1280x720")
        #expect(size.width == 1280 && size.height == 720)
        #expect(try ValueSyntax.requireSize("320X240") == (320, 240))
        for bad in ["1281x720", "13x7", "0x720", "1280", "axb", "32768x720"] {
            #expect(refusal(ValueSyntax.requireSize, bad) == "'\(bad)' is not WxH with even, positive sides (e.g. 1280x720)")
        }
    }

    @Test func frameRates() throws {
        #expect(try ValueSyntax.requireFrameRate("30000/1001") == Rational(30000, 1001))
        #expect(try ValueSyntax.requireFrameRate("29.97") == Rational(2997, 100))
        for bad in ["fast", "0", "1001", "30/0", ""] {
            #expect(refusal(ValueSyntax.requireFrameRate, bad)
                == "'\(bad)' is not a frame rate between 0 and 1000 (e.g. 30, 29.97, 30000/1001)")
        }
    }

    @Test func times() throws {
        #expect(try ValueSyntax.requireSeconds("1500ms") == 1.5)
        #expect(try ValueSyntax.requireSeconds("0s") == 0)
        for bad in ["soon", "-1s", "inf"] {
            #expect(refusal({ (text: String) throws(ValueSyntaxError) in try ValueSyntax.requireSeconds(text) }, bad)
                == "'\(bad)' is not a time (e.g. 0.5, 0.5s, 500ms, 1:02.5)")
        }
    }

    /// A length: zero is a time but no length.
    @Test func positiveTimes() throws {
        #expect(try ValueSyntax.requireSeconds("2m", positive: true) == 120)
        let positive = { (text: String) throws(ValueSyntaxError) in try ValueSyntax.requireSeconds(text, positive: true) }
        for bad in ["0", "0ms", "soon"] {
            #expect(refusal(positive, bad) == "'\(bad)' is not a positive time (e.g. 0.5, 0.5s, 500ms, 1:02.5)")
        }
    }
}
