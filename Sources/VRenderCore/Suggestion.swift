/// "Did you mean …?" for a name someone typed: the known name closest to it by edit distance,
/// as ArgumentParser suggests for a mistyped option (`--fliter`), so that a mistyped value
/// (`--filter sepai`) gets the same help.
package enum Suggestion {
    /// The known name nearest to `typed` (letters compared in any case, so `Mono` finds
    /// `mono`), when at most a third of its letters (at least one) are wrong; nil when none is
    /// that close, or `typed` is known as typed.
    package static func closest(to typed: String, among known: [String]) -> String? {
        let word = Array(typed.lowercased())
        let limit = Swift.max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        guard !known.contains(typed) else { return nil }
        for name in known {
            let distance = editDistance(word, Array(name.lowercased()))
            if distance <= limit, distance < best?.distance ?? Int.max { best = (name, distance) }
        }
        return best?.name
    }

    /// The known name `typed` stands for: itself, itself in another case (`Mono`), or one of its
    /// other names (`aliases`, keyed in lower case: `monochrome` → `mono`, `h265` → `hevc`); nil
    /// for anything else.
    package static func resolve(_ typed: String, among known: [String], aliases: [String: String] = [:]) -> String? {
        if known.contains(typed) { return typed }
        let lowered = typed.lowercased()
        return known.first { $0.lowercased() == lowered } ?? aliases[lowered].flatMap { known.contains($0) ? $0 : nil }
    }

    /// `message` with "; did you mean 'NAME'?" when a known name is close to `typed`.
    package static func appended(to message: String, typed: String, among known: [String]) -> String {
        closest(to: typed, among: known).map { "\(message); did you mean '\($0)'?" } ?? message
    }

    /// Insertions, deletions, substitutions and swaps of neighbours (a typo's "ai" for "ia")
    /// that turn `a` into `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)  // row i - 2
        var previous = Array(0...b.count)                      // row i - 1
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
