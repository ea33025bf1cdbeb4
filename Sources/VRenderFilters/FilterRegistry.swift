import VRenderCore

/// Every filter vrender knows, in the order `vrender filters` lists them. A static list:
/// adding a filter means adding it here, nothing is discovered at run time.
public enum FilterRegistry {
    /// Each filter with its options at their defaults.
    public static let all: [any VideoFilter] = [
        IdentityFilter(), MonoFilter(), NoirFilter(), ChromeFilter(), FadeFilter(), InstantFilter(),
        ProcessFilter(), TonalFilter(), TransferFilter(), SepiaFilter(),
    ]

    public static var names: [String] { all.map(\.descriptor.name) }

    /// Other names for the filters (lower case): what people call a look, and the iOS app's
    /// Core Image names, so `--filter monochrome` or `CIPhotoEffectNoir` finds its filter.
    static let aliases: [String: String] = [
        "monochrome": "mono", "bw": "mono", "b&w": "mono", "black-and-white": "mono", "grayscale": "mono",
        "greyscale": "mono", "gray": "mono", "grey": "mono", "ciphotoeffectmono": "mono",
        "ciphotoeffectnoir": "noir", "ciphotoeffectchrome": "chrome", "ciphotoeffectfade": "fade",
        "ciphotoeffectinstant": "instant", "ciphotoeffectprocess": "process", "ciphotoeffecttonal": "tonal",
        "ciphotoeffecttransfer": "transfer", "cisepiatone": "sepia", "vintage": "sepia",
        "original": "none", "identity": "none", "off": "none", "null": "none",
    ]

    /// The filter called `name` (in any case, or by another of its names), options at their defaults.
    public static func filter(named name: String) -> (any VideoFilter)? {
        guard let known = Suggestion.resolve(name, among: names, aliases: aliases) else { return nil }
        return all.first { $0.descriptor.name == known }
    }

    /// Parses `--filter`: comma-separated filters, each a name optionally followed by
    /// `=option=value` settings separated by `:` (as FFmpeg's `-vf` writes them):
    /// `"mono"`, `"none"`, `"fade,mono"`, `"mono=strength=60,noir"`. Throws an option error for
    /// `--filter` that names the bad filter or option and lists the valid ones.
    public static func chain(_ specification: String) throws -> FilterChain {
        let items = specification.split(separator: ",").map { String($0).trimmingCharacters() }.filter { !$0.isEmpty }
        guard !items.isEmpty else {
            throw VRenderError.option("--filter", "empty filter list (known filters: \(Self.names.joined(separator: ", ")))")
        }
        return FilterChain(try items.map(parseFilter))
    }

    /// One item of the list: `name` or `name=option=value[:option=value...]`.
    static func parseFilter(_ item: String) throws -> any VideoFilter {
        let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0]).trimmingCharacters()
        guard let filter = filter(named: name) else {
            let message = "unknown filter '\(name)' (known filters: \(Self.names.joined(separator: ", ")))"
            throw VRenderError.option("--filter", Suggestion.appended(to: message, typed: name, among: Self.names + aliases.keys.sorted()))
        }
        guard parts.count == 2 else { return filter }
        let descriptor = filter.descriptor
        let settings = String(parts[1])
        guard !descriptor.options.isEmpty else {
            throw VRenderError.option("--filter", "filter '\(name)' takes no options (got '\(settings)')")
        }
        let known = "options: " + descriptor.options.map { "\($0.name)=\($0.range.lowerBound)...\($0.range.upperBound)" }
            .joined(separator: ", ")
        var values: [String: Int] = [:]
        for setting in settings.split(separator: ":", omittingEmptySubsequences: false) {
            let pair = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let optionName = String(pair[0]).trimmingCharacters()
            guard pair.count == 2 else {
                throw VRenderError.option("--filter", "filter '\(name)': '\(setting)' is not option=value (\(known))")
            }
            guard let option = descriptor.option(named: optionName) else {
                throw VRenderError.option("--filter", "filter '\(name)': unknown option '\(optionName)' (\(known))")
            }
            let text = String(pair[1]).trimmingCharacters()
            guard let value = Int(text), option.range.contains(value) else {
                throw VRenderError.option("--filter", "filter '\(name)': option '\(optionName)' must be an integer in "
                                          + "\(option.range.lowerBound)...\(option.range.upperBound), not '\(text)'")
            }
            guard values.updateValue(value, forKey: optionName) == nil else {
                throw VRenderError.option("--filter", "filter '\(name)': option '\(optionName)' is given twice")
            }
        }
        return filter.configured(with: values)
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
