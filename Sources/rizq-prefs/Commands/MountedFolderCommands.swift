#if CLI
import RizqCommandLine
import Foundation
import RizqPrefs
import RizqMounts

/// `get --mounted DIR KEY` and `watch --mounted DIR [KEY…] [--json] [--secrets]`: a mounted
/// folder of one file per key (a Kubernetes ConfigMap or Secret volume, Docker's `/run/secrets`,
/// systemd's `$CREDENTIALS_DIRECTORY`) read as RizqCore's `MountedFolder` reads it for an app —
/// one generation at a time — so that an operator sees what the app sees.
enum MountedFolderCommands {
    /// `get --mounted DIR KEY`: the key's value in the folder's current generation, as `get`
    /// prints a suite's (text with its trailing newlines cut; bytes that are not text in the
    /// `{"$data": …}` form). Warnings (a frozen `subPath` mount) go to stderr.
    static func get(folder path: String, key: String, json: Bool, store: SuiteChoice) throws(CLIError) {
        try refuseSuiteOptions(store, command: "get")
        let folder = MountedFolder(path)
        // One key's file, as an app's one-key read takes it: a folder of many files is not
        // walked (nor refused for holding more than a whole read takes).
        note(folder.warnings(forKey: key), folder: folder.path)
        let bytes: [UInt8]?
        do {
            bytes = try folder.bytes(forKey: key)
        } catch {
            throw CLIError(error.isMissingFolder ? .notFound : .storage, error.description)
        }
        guard let bytes else {
            let listing: String
            if let keys = try? folder.keys() {
                listing = keys.isEmpty ? "it holds no key" : "its keys: " + keys.prefix(20).joined(separator: ", ") + (keys.count > 20 ? ", …" : "")
            } else {
                listing = "its keys cannot be listed (rizq-prefs watch --mounted says why)"
            }
            // Output.error escapes what it prints: the names go in as they are.
            let kind = ((try? folder.dataLink()) ?? nil).map { "Kubernetes volume, generation \($0)" } ?? "plain folder"
            throw CLIError(.notFound, "no key '\(key)' in the mounted folder \(folder.path) (\(kind)); \(listing)")
        }
        let value = printable(bytes)
        Output.line(json ? value.json : value.plain)
    }

    /// `watch --mounted DIR`: the folder's snapshot now, then each new one, as inotify sees it.
    /// One line a snapshot with `--json`; a header and a line a changed key without. A folder
    /// of secrets (`--secrets`, or where hosts put secrets) never has a value printed: only
    /// which keys changed.
    static func watch(folder path: String, keys: [String], json: Bool, secrets: Bool, store: StoreOptions) throws(CLIError) -> AsyncStream<MountedSnapshot> {
        try refuseSuiteOptions(store.choice, command: "watch")
        let folder = MountedFolder(path, sensitivity: secrets ? .secrets : .detect)
        do {
            return try folder.updates()
        } catch {
            throw CLIError(error.isMissingFolder ? .notFound : .storage, error.description)
        }
    }

    /// Prints `snapshot` as `watch` does, compared with `previous`; `nil` when nothing of the
    /// keys asked for changed (the first snapshot is always printed).
    static func lines(for snapshot: MountedSnapshot, previous: MountedSnapshot?, keys: [String], json: Bool) -> [String] {
        let wanted = Set(keys)
        let shown = { (key: String) in wanted.isEmpty || wanted.contains(key) }
        let changed = snapshot.changedKeys(since: previous).filter(shown)
        guard previous == nil || !changed.isEmpty || snapshot.warnings != previous?.warnings else { return [] }
        let removed = changed.filter { snapshot.entries[$0] == nil }
        if json {
            var object: [String: PrefValue] = [
                "folder": .string(snapshot.folder),
                "generation": snapshot.generation.map(PrefValue.string) ?? .null,
                "secret": .bool(snapshot.isSecrets),
                "keys": .array(snapshot.keys.filter(shown).map(PrefValue.string)),
                "changed": .array(changed.filter { snapshot.entries[$0] != nil }.map(PrefValue.string)),
                "removed": .array(removed.map(PrefValue.string)),
                "warnings": .array(snapshot.warnings.map { .string($0.description) }),
            ]
            var values: [String: PrefValue] = [:]
            var refused: [String: PrefValue] = [:]
            for key in snapshot.keys where shown(key) {
                switch snapshot.entries[key] {
                case .bytes(let bytes)?: values[key] = printable(bytes)
                case .refused(let reason)?: refused[key] = .string(reason)
                case nil: break
                }
            }
            if !snapshot.isSecrets { object["values"] = .dictionary(values) }
            if !refused.isEmpty { object["refused"] = .dictionary(refused) }
            // File names are the folder's writer's: nothing hidden in them reaches the terminal.
            return [DisplayText.escapedJSON(PrefValue.dictionary(object).json)]
        }
        var lines = ["\(describe(snapshot)), \(snapshot.keys.count) key\(snapshot.keys.count == 1 ? "" : "s")"]
        for key in changed {
            // A key is a file name: escape sequences in it are shown, never sent to the terminal.
            let name = DisplayText.escaped(key)
            switch snapshot.entries[key] {
            case nil: lines.append("  \(name) removed")
            case .refused(let reason)?: lines.append("  \(name) refused: \(DisplayText.escaped(reason))")
            case .bytes(let bytes)?: lines.append(snapshot.isSecrets ? "  \(name) changed (a secret: not shown)" : "  \(name) = \(DisplayText.escapedJSON(printable(bytes).json))")
            }
        }
        return lines
    }

    /// Writes each warning to stderr, once per folder and warning.
    static func note(_ warnings: [MountWarning], folder: String) {
        for warning in warnings { Output.note("rizq-prefs: warning: \(DisplayText.escaped(folder)): \(DisplayText.escaped(warning.description))") }
    }

    /// "Kubernetes volume, generation ..2026_…" or "plain folder".
    static func describe(_ snapshot: MountedSnapshot) -> String {
        snapshot.generation.map { "Kubernetes volume, generation \(DisplayText.escaped($0))" } ?? "plain folder"
    }

    /// Text as a string, anything else as data (`{"$data": …}` in JSON).
    private static func printable(_ bytes: [UInt8]) -> PrefValue {
        MountedText.string(bytes).map(PrefValue.string) ?? .data(Data(bytes))
    }

    private static func read(_ folder: MountedFolder) throws(CLIError) -> MountedSnapshot {
        do {
            return try folder.read()
        } catch {
            throw CLIError(error.isMissingFolder ? .notFound : .storage, error.description)
        }
    }

    private static func refuseSuiteOptions(_ store: SuiteChoice, command: String) throws(CLIError) {
        guard store.suite == nil, store.app == nil else {
            throw CLIError(.usage, "'\(command) --mounted' reads a mounted folder, not a suite: leave out --suite and --app")
        }
    }
}

extension MountError {
    /// Whether the folder itself is not there.
    var isMissingFolder: Bool {
        if case .missing = self { return true }
        return false
    }
}
#endif
