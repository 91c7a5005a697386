#if CLI
import RizqPrefs

/// What `list` prints, for a suite and a fleet suite alike: an aligned table of key, type and
/// value (values as JSON), sorted by key, or one JSON object with `--json`; an empty suite prints
/// nothing on stdout (with `--json`, `{}`) and says so on stderr.
package enum SuiteListing {
    /// Prints `entries` (`keys`: their keys in order); `empty` is the note for an empty suite.
    /// `sources`, when given, is a fourth column: where each key's value comes from (a key in
    /// `keys` with no entry is one a schema declares and nothing sets).
    package static func print(
        _ entries: [String: PrefValue], keys: [String], json: Bool, sources: [String: String]? = nil, empty: @autoclosure () -> String
    ) {
        if json {
            Output.line(PrefValue.dictionary(entries).json)
            return
        }
        guard !keys.isEmpty else {
            Output.note(empty())
            return
        }
        guard let sources else {
            let rows = keys.map { key in [key, entries[key]?.kindName ?? "", entries[key]?.json ?? ""] }
            Output.raw(Table(header: ["KEY", "TYPE", "VALUE"], rows: rows).text)
            return
        }
        let rows = keys.map { key in [key, entries[key]?.kindName ?? "", entries[key]?.json ?? "", sources[key] ?? ""] }
        Output.raw(Table(header: ["KEY", "TYPE", "VALUE", "SOURCE"], rows: rows).text)
    }
}
#endif
