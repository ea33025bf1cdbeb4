import VRenderCore

/// Every filter vrender knows, in the order `vrender filters` lists them. A static list:
/// adding a filter means adding it here, nothing is discovered at run time.
public enum FilterRegistry {
    public static let all: [any VideoFilter] = [IdentityFilter(), MonoFilter()]

    public static var names: [String] { all.map(\.descriptor.name) }

    public static func filter(named name: String) -> (any VideoFilter)? {
        all.first { $0.descriptor.name == name }
    }

    /// Parses `--filter` ("mono", "none", "a,b"). Throws an option error naming the unknown
    /// filter and listing the known ones.
    public static func chain(_ specification: String) throws -> FilterChain {
        let names = specification.split(separator: ",").map { String($0).trimmingCharacters() }
        guard !names.isEmpty else {
            throw VRenderError.option("--filter", "empty filter list (known filters: \(Self.names.joined(separator: ", ")))")
        }
        return FilterChain(try names.map { name in
            guard let filter = filter(named: name) else {
                throw VRenderError.option("--filter", "unknown filter '\(name)' (known filters: \(Self.names.joined(separator: ", ")))")
            }
            return filter
        })
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
