import Foundation
import RizqCore

/// Where an administrator's layers and the installed schemas of suites are looked for, from the
/// XDG base-directory variables of this process: the folders every suite's layers are read from.
///
/// | what | from | default |
/// | --- | --- | --- |
/// | managed values and defaults (``configDirectories``) | `$XDG_CONFIG_DIRS`, each `<dir>/rizq-prefs/managed/` and `<dir>/rizq-prefs/defaults/` | `/etc/xdg` |
/// | installed schemas (``dataDirectories``) | `$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`, each `<dir>/rizq-prefs/schemas/` | `~/.local/share`, then `/usr/local/share:/usr/share` |
///
/// The first folder listed wins (the XDG rule). An environment variable is input from outside
/// the process: an entry that is not an absolute path (the specification says to ignore those),
/// longer than ``maximumPathLength``, or past the first ``maximumEntries`` is left out and named
/// in ``refused``. Inside a Flatpak sandbox, the host's `/etc/xdg` is visible at
/// `/run/host/etc/xdg` when the app was given `--filesystem=host-etc`: it is read first, so that
/// the host administrator's policy wins over the runtime's own `/etc/xdg`.
package struct LayerFolders: Sendable, Hashable {
    /// The most entries taken from one variable.
    package static let maximumEntries = 32
    /// The longest entry taken, in bytes.
    package static let maximumPathLength = 4096
    /// Where a Flatpak sandbox sees the host's `/etc/xdg` (with `--filesystem=host-etc`).
    package static let hostConfigInSandbox = "/run/host/etc/xdg"

    /// The folders of `$XDG_CONFIG_DIRS` (first wins), the host's first inside a sandbox.
    package var configDirectories: [String]
    /// `$XDG_DATA_HOME`, then the folders of `$XDG_DATA_DIRS` (first wins).
    package var dataDirectories: [String]
    /// `$XDG_DATA_HOME`: the one data folder that is the user's own (a schema there is judged as
    /// the user's file, the others as an administrator's).
    package var dataHome: String?
    /// Entries of the variables that were left out, and why.
    package var refused: [String]
    /// Whether this process runs in a Flatpak sandbox (the host's files under `/run/host` are
    /// then judged as a sandbox sees them: ``FileTrust/administrator(_:seenFromSandbox:)``).
    package var inSandbox: Bool

    package init(configDirectories: [String], dataHome: String?, dataDirectories: [String], refused: [String] = [], inSandbox: Bool = false) {
        self.configDirectories = configDirectories
        self.dataHome = dataHome
        self.dataDirectories = (dataHome.map { [$0] } ?? []) + dataDirectories.filter { $0 != dataHome }
        self.refused = refused
        self.inSandbox = inSandbox
    }

    /// The folders of this process's environment (read with `getenv`: a one-key `rizq-prefs get`
    /// must not copy the whole environment).
    package static func fromEnvironment() -> LayerFolders {
        from { name in getenv(name).map { String(cString: $0) } }
    }

    /// The folders `variable` (a variable's value, or `nil` when unset) gives.
    package static func from(_ variable: (String) -> String?) -> LayerFolders {
        var refused: [String] = []
        var config = entries(variable("XDG_CONFIG_DIRS"), named: "XDG_CONFIG_DIRS", refused: &refused)
        if config.isEmpty { config = ["/etc/xdg"] }
        let sandbox = FlatpakSandbox.detect() != nil
        if sandbox, isFolder(hostConfigInSandbox) {
            config.removeAll { $0 == hostConfigInSandbox }
            config.insert(hostConfigInSandbox, at: 0)
        }
        var home: String?
        if let value = variable("XDG_DATA_HOME"), !value.isEmpty {
            home = entries(value, named: "XDG_DATA_HOME", refused: &refused).first
        }
        if home == nil, let user = variable("HOME"), user.hasPrefix("/"), user.utf8.count < maximumPathLength {
            home = user + "/.local/share"
        }
        var data = entries(variable("XDG_DATA_DIRS"), named: "XDG_DATA_DIRS", refused: &refused)
        if data.isEmpty { data = ["/usr/local/share", "/usr/share"] }
        return LayerFolders(configDirectories: config, dataHome: home, dataDirectories: data, refused: refused, inSandbox: sandbox)
    }

    /// The absolute entries of a `:`-separated list, without trailing `/`, each once.
    private static func entries(_ value: String?, named name: String, refused: inout [String]) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        var taken: [String] = []
        for entry in value.split(separator: ":", omittingEmptySubsequences: true) {
            var path = String(entry)
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            if !path.hasPrefix("/") {
                refused.append("\(name): '\(PrintableText.of(path))' is not an absolute path (the XDG specification ignores such entries)")
            } else if path.utf8.count > maximumPathLength {
                refused.append("\(name): an entry longer than \(maximumPathLength) bytes")
            } else if taken.count >= maximumEntries {
                refused.append("\(name): entries past the first \(maximumEntries)")
                break
            } else if !taken.contains(path) {
                taken.append(path)
            }
        }
        return taken
    }

    /// Whether `path` names a folder (through links).
    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// How the host's files are judged: an administrator's, as the sandbox sees them when the
    /// path is the host's (`/run/host/…`) inside a sandbox.
    func administratorTrust(_ subject: String, for path: String) -> FileTrust {
        .administrator(subject, seenFromSandbox: inSandbox && path.hasPrefix("/run/host/"))
    }
}
