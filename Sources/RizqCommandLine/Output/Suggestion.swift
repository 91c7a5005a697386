#if CLI
/// The word a user probably meant: for an unknown command, type or option, so that the error can
/// say "did you mean …?".
package enum Suggestion {
    /// What other tools call our value types (`defaults write -float`, `--type integer`).
    package static let typeAliases: [String: String] = [
        "integer": "int", "long": "int", "float": "double", "real": "double", "number": "double",
        "boolean": "bool", "str": "string", "text": "string", "array": "json", "dict": "json",
        "dictionary": "json", "object": "json", "base64": "data", "bytes": "data", "timestamp": "date",
        "datetime": "date", "time": "date",
    ]

    /// The candidate closest to `word` — the same but for case, one or two edits away (a typo,
    /// two letters swapped), or a type's other name — or `nil` when none is close.
    package static func nearest(_ word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        if let exact = candidates.first(where: { $0.lowercased() == lowered }) { return exact }
        if let alias = typeAliases[lowered], candidates.contains(alias) { return alias }
        let allowed = lowered.count <= 3 ? 1 : 2
        let scored = candidates.map { (candidate: $0, distance: distance(lowered, $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= allowed else { return nil }
        return best.candidate
    }

    /// Edits between `a` and `b`: insertions, deletions, substitutions, and swaps of two
    /// neighbours (optimal string alignment).
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
#endif
