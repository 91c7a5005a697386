import Foundation
import RizqCore

/// Where a suite's file lives, and the rules for the names that lead there.
///
/// ```
/// <root>/apps/<app id>/<suite>.json    an app's own suites; the standard one is named after the app
/// <root>/groups/<group.…>.json         app-group suites, the same file for every app of the user
/// ```
///
/// `<root>` is `$RIZQ_PREFS_HOME` when set, else `$XDG_CONFIG_HOME/rizq-prefs`, else
/// `~/.config/rizq-prefs`. `groups/` holds app-group suites and nothing else: it is the one
/// folder a sandboxed app may be given.
///
/// Inside a Flatpak sandbox (`XDG_CONFIG_HOME` is then the app's own `~/.var/app/APP/config`),
/// the app's suites are its own, and its app-group suites are in the host's
/// `~/.config/rizq-prefs/groups` when the app was given
/// `--filesystem=xdg-config/rizq-prefs/groups:create` (``groupsDirectory(root:)``): shared with
/// the host and the other apps given it. An app given the whole `xdg-config/rizq-prefs` (the
/// advice before) keeps its suites where they were, in the host's folder.
public struct SuiteLocation: Sendable, Hashable, CustomStringConvertible {
    /// The longest suite name or app id, in UTF-8 bytes; leaves room in a 255-byte file name for
    /// the `.corrupt-<timestamp>.json` and temporary-file suffixes.
    public static let maximumNameLength = SuiteStoreError.maximumSuiteNameLength

    /// The suite's name, e.g. `com.example.app` or `group.com.example.shared`.
    public let suiteName: String
    /// The folder that holds the suite file.
    public let directory: String
    /// The root it is under (``defaultRoot()`` or the one given).
    public let root: String
    /// The absolute path of the suite file.
    public let path: String

    /// Whether this is an app-group suite (`group.…`), shared by every app of the user.
    public var isGroup: Bool { suiteName.hasPrefix("group.") }

    /// The path, for messages.
    public var description: String { path }

    /// The location of `suiteName` for the app `appID` under `root`.
    /// - Throws: ``SuiteStoreError/invalidSuiteName(name:reason:)`` or
    ///   ``SuiteStoreError/invalidAppID(appID:reason:)``.
    public init(suiteName: String, appID: String, root: String) throws(SuiteStoreError) {
        if let reason = Self.problem(withName: suiteName) {
            throw .invalidSuiteName(name: suiteName, reason: reason)
        }
        self.suiteName = suiteName
        self.root = root
        if suiteName.hasPrefix("group.") {
            directory = Self.groupsDirectory(root: root)
        } else {
            if let reason = Self.problem(withName: appID) { throw .invalidAppID(appID: appID, reason: reason) }
            directory = root + "/apps/" + appID
        }
        path = directory + "/" + suiteName + ".json"
    }

    /// A location that is never written: for a standard suite whose app id is invalid.
    init(unvalidated suiteName: String, root: String) {
        self.suiteName = suiteName
        self.root = root
        directory = root
        path = root + "/" + suiteName + ".json"
    }

    /// The root of all suite files for this environment (see the type's documentation).
    public static func defaultRoot(environment: [String: String]) -> String {
        defaultRoot { environment[$0] }
    }

    /// The root of all suite files for this process's environment (see the type's documentation).
    ///
    /// Reads the three variables with `getenv`: a one-key `rizq-prefs get` must not pay for
    /// `ProcessInfo.environment`, which copies every variable into a dictionary.
    public static func defaultRoot() -> String {
        defaultRoot { name in getenv(name).map { String(cString: $0) } }
    }

    private static func defaultRoot(_ variable: (String) -> String?) -> String {
        if let home = variable("RIZQ_PREFS_HOME"), !home.isEmpty { return absolute(home) }
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        // Inside a Flatpak sandbox given the whole host folder (the advice before), where the
        // app's suites already are: they stay there.
        if FlatpakSandbox.isSandboxed, let whole = FlatpakSandbox.wholeHostPreferencesRoot(home: home) { return whole }
        return ownRoot(variable, home: home)
    }

    private static func ownRoot(_ variable: (String) -> String?, home: String) -> String {
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/rizq-prefs" }
        return home + "/.config/rizq-prefs"
    }

    /// The folder of the app-group suites under `root`: `root/groups`. Inside a Flatpak sandbox,
    /// for the app's own default root, the host's `~/.config/rizq-prefs/groups` when the app was
    /// given it (`FlatpakSandbox.sharedGroupsFolder(home:)` in RizqCore): shared with the host and the
    /// other apps given it.
    public static func groupsDirectory(root: String) -> String {
        if FlatpakSandbox.isSandboxed {
            let variable: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
            let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            if variable("RIZQ_PREFS_HOME").map(\.isEmpty) ?? true, root == ownRoot(variable, home: home),
                let shared = FlatpakSandbox.sharedGroupsFolder(home: home) {
                return shared
            }
        }
        return root + "/groups"
    }

    /// Why `name` cannot be a suite name or app id, or `nil` when it can.
    ///
    /// Checked on the UTF-8 bytes, as the file system sees the name: `String`'s own `contains`
    /// compares whole characters and would miss a `/` that a combining mark follows.
    public static func problem(withName name: String) -> String? {
        let bytes = Array(name.utf8)
        if bytes.isEmpty { return "it is empty" }
        if bytes.count > maximumNameLength { return "it is longer than \(maximumNameLength) bytes" }
        if bytes.contains(UInt8(ascii: "/")) { return "it contains '/'" }
        if zip(bytes, bytes.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") }) { return "it contains '..'" }
        if bytes.first == UInt8(ascii: ".") { return "it starts with '.'" }
        if bytes.contains(0) { return "it contains a NUL character" }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "it contains a control character" }
        return nil
    }

    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
