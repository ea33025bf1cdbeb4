import ArgumentParser
import Foundation
import Synchronization
import VRenderCore
import VRenderExport
import VRenderWorkerCommands

/// An option value with a syntax of its own (a size, a frame rate, a time), parsed once, while
/// ArgumentParser reads the command line, by `ValueSyntax` in VRenderCore, which alone words a
/// refusal. Options are declared `@Option(..., transform: X.parse)`: through `init?(argument:)`
/// ArgumentParser could only say "invalid", while a transform's refusal is kept (`ValueRefusals`)
/// and `CommandMain.reportError` words it as every usage error is worded ("--size '13x7' is not WxH
/// ..."). A transform shows no default in help, so an option with one says it in its help text.
protocol ValueArgument: ExpressibleByArgument, Sendable {
    static func read(_ text: String) throws(ValueSyntaxError) -> Self
    /// The value as it was typed, for messages that quote it.
    var text: String { get }
}

extension ValueArgument {
    init?(argument: String) {
        guard let value = try? Self.read(argument) else { return nil }
        self = value
    }

    var defaultValueDescription: String { text }

    /// The transform options are declared with: `read`, a refusal also kept in
    /// `ValueRefusals.current` (ArgumentParser hands it on only inside its own sentence).
    static func parse(_ text: String) throws(ValueSyntaxError) -> Self {
        do {
            return try read(text)
        } catch {
            ValueRefusals.current?.record(error)
            throw error
        }
    }
}

/// `--loudness LUFS`: a number in `LoudnessPlan.targets` ("-16", "-23.5"; "LUFS" after it allowed).
/// Whether it may go with `--codec copy` is the planner's to say (`ExportPlanner`), once.
struct LoudnessArgument: ValueArgument {
    let target: Double
    let text: String

    static func read(_ text: String) throws(ValueSyntaxError) -> Self {
        var number = text.trimmingCharacters(in: .whitespaces)
        if number.uppercased().hasSuffix("LUFS") { number = String(number.dropLast(4)).trimmingCharacters(in: .whitespaces) }
        guard let value = Double(number), LoudnessPlan.targets.contains(value) else {
            throw ValueSyntaxError(value: text, expected: "a loudness in LUFS from -70 to -5 (e.g. -16 for the web, -23 for EBU R128)")
        }
        return Self(target: value, text: text)
    }
}

/// `WxH`, both sides even and positive (`1280x720`).
struct SizeArgument: ValueArgument {
    let width: Int
    let height: Int
    let text: String

    static func read(_ text: String) throws(ValueSyntaxError) -> Self {
        let size = try ValueSyntax.requireSize(text)
        return Self(width: size.width, height: size.height, text: text)
    }

    /// As the library takes sizes.
    var value: (width: Int, height: Int) { (width, height) }
}

/// A frame rate: `30`, `29.97`, `30000/1001`.
struct FrameRateArgument: ValueArgument {
    let rate: Rational
    let text: String

    static func read(_ text: String) throws(ValueSyntaxError) -> Self {
        Self(rate: try ValueSyntax.requireFrameRate(text), text: text)
    }
}

/// An instant or a length of zero or more: `2s`, `1500ms`, `2.5`, `1m`.
struct TimeArgument: ValueArgument {
    let seconds: Double
    let text: String

    static func read(_ text: String) throws(ValueSyntaxError) -> Self {
        Self(seconds: try ValueSyntax.requireSeconds(text), text: text)
    }
}

/// A length above zero: `4s`, `1500ms`.
struct DurationArgument: ValueArgument {
    let seconds: Double
    let text: String

    static func read(_ text: String) throws(ValueSyntaxError) -> Self {
        Self(seconds: try ValueSyntax.requireSeconds(text, positive: true), text: text)
    }
}

// Defaults, as declarations write them.
extension SizeArgument {
    init(_ width: Int, _ height: Int) { self.init(width: width, height: height, text: "\(width)x\(height)") }
}

extension FrameRateArgument {
    init(_ framesPerSecond: Int) { self.init(rate: Rational(framesPerSecond, 1), text: "\(framesPerSecond)") }
}

extension TimeArgument {
    init(seconds: Double) { self.init(seconds: seconds, text: ValueSyntax.text(seconds) + "s") }
}
