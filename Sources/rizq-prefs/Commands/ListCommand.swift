#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs

/// `rizq-prefs list`
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print every key and value of a suite.",
        discussion: """
            An aligned table of key, type and value (values as JSON), sorted by key; --json prints \
            one JSON object of all keys instead. An empty suite prints nothing on stdout (with \
            --json, {}) and says so on stderr; the exit status is 0.

            Values are what the app reads (see 'rizq-prefs get'). When an administrator's layer \
            or an installed schema is in force, a fourth column, SOURCE, says where each value \
            comes from — managed (with its file's name), user, defaults (with its file's name) or \
            schema — and the keys the schema declares that have no value yet are listed with an \
            empty value and the source 'schema (no value)'. 'rizq-prefs export' writes the suite \
            file's own keys only.
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() throws {
        let suite = try store.openStore()
        let keys = suite.layeredKeys
        var entries: [String: PrefValue] = [:]
        var sources: [String: String] = [:]
        var layered = false
        for key in keys {
            entries[key] = suite.prefValue(forKey: key)
            guard let source = suite.source(forKey: key) else {
                sources[key] = "schema (no value)"
                layered = true
                continue
            }
            layered = layered || source.layer != .user
            switch source.layer {
            case .managed, .defaults: sources[key] = "\(source.layer.rawValue) (\(source.path.map { String($0.split(separator: "/").last ?? "") } ?? ""))"
            default: sources[key] = source.layer.rawValue
            }
        }
        SuiteListing.print(
            entries, keys: keys, json: json, sources: layered ? sources : nil,
            empty: "suite \(store.suiteDescription) is empty: it has no keys (\(suite.location.path))")
    }
}
#endif
