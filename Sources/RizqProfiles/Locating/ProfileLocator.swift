#if Secrets
import Foundation

/// Finds the storage to read for a ``ProfileSource``: a browser's default (or named) profile,
/// an Electron app's folder, or what a path is.
///
/// A path may be:
/// - a `Local Storage/leveldb` folder (it holds `CURRENT`), or a file inside one;
/// - a profile folder (it holds `Local Storage/leveldb`, or legacy `Local Storage/*.localstorage`),
///   which is also what an Electron app's `~/.config/<App>` is;
/// - a browser's user-data folder (it holds `Local State`): the profile is `--profile`, else
///   `Default`, else the last used one;
/// - a `*.localstorage` or `.sqlite` file (its tables say what it is), or a folder of
///   `*.localstorage` files;
/// - a Firefox profile folder (it holds `prefs.js`, `storage/default` or `webappsstore.sqlite`),
///   its `storage` or `storage/default` folder, an origin's folder `storage/default/<origin>`
///   (it holds `ls/data.sqlite`), or Firefox's own folder (it holds `profiles.ini`: the profile
///   is `--profile`, else the default, as Firefox chooses it).
///
/// It only looks at names and folders; nothing is opened for writing.
public struct ProfileLocator: Sendable {
    /// The home folder (`~`).
    public var home: String
    /// The environment (`XDG_CONFIG_HOME`, `CHROME_CONFIG_HOME`, `CHROME_USER_DATA_DIR`; for
    /// Firefox `MOZ_LEGACY_HOME`, and `PATH` to find the installed Firefox).
    public var environment: [String: String]

    /// A locator for `home` (default: `$HOME`) and `environment` (default: the process's).
    public init(home: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.home = home ?? environment["HOME"] ?? NSHomeDirectory()
        self.environment = environment
    }

    /// The storage `source` names; `profile` picks a profile of a browser's user-data folder
    /// by folder name (`Profile 1`) or by the name the browser shows (`Work`).
    /// - Throws: ``ProfileError``.
    public func locate(_ source: ProfileSource, profile: String? = nil) throws(ProfileError) -> ProfileLocation {
        switch source {
        case .browser(let browser):
            let candidates = browser.userDataFolders(home: home, environment: environment)
            guard let folder = candidates.first(where: { ProfilePath.isFolder($0) && ProfilePath.exists($0 + "/Local State") })
                ?? candidates.first(where: { ProfilePath.isFolder($0) })
            else {
                throw .browserNotFound(name: browser.displayName, looked: candidates)
            }
            return try locate(path: folder, profile: profile, label: browser.displayName)
        case .firefox:
            return try locateFirefox(profile: profile)
        case .electron(let appName):
            let config = configFolder
            var folder = config + "/" + appName
            if !ProfilePath.isFolder(folder) {
                // Electron names the folder after the app's productName or name; accept another case.
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: config)) ?? []
                let matches = entries.filter { $0.lowercased() == appName.lowercased() && ProfilePath.isFolder(config + "/" + $0) }
                guard matches.count == 1, let match = matches.first else {
                    throw .browserNotFound(name: "Electron app '\(appName)'", looked: [folder])
                }
                folder = config + "/" + match
            }
            return try locate(path: folder, profile: profile, label: "Electron app '\((folder as NSString).lastPathComponent)'")
        case .path(let path):
            return try locate(path: expand(path), profile: profile, label: nil)
        }
    }

    /// Firefox's default profile, or `profile` (by the name Firefox shows or the folder's
    /// name), from the first folder that holds `profiles.ini`, in the order Firefox prefers
    /// them (`~/.mozilla/firefox` or `~/.config/mozilla/firefox`, then the Snap and Flatpak
    /// packages'); the default is chosen as Firefox chooses it (the `[Install<hash>]` of the
    /// Firefox installed here, then `Default=1`).
    public func locateFirefox(profile: String?) throws(ProfileError) -> ProfileLocation {
        let folders = FirefoxProfiles.dataFolders(home: home, environment: environment)
        guard let folder = folders.first(where: { ProfilePath.exists($0 + "/profiles.ini") }) else {
            throw .browserNotFound(name: "Firefox", looked: folders)
        }
        return try locateFirefoxProfile(in: folder, name: profile, label: "Firefox")
    }

    private func locateFirefoxProfile(in folder: String, name: String?, label: String) throws(ProfileError) -> ProfileLocation {
        let list = try FirefoxProfiles(folder: folder)
        let hashes = FirefoxProfiles.installFolders(environment: environment).map(FirefoxInstallHash.of(installFolder:))
        let chosen = try list.choose(name, installHashes: hashes, dedicated: FirefoxProfiles.usesInstallDefaults(folder))
        guard ProfilePath.isFolder(chosen.path) else {
            throw .notAProfile(path: chosen.path, reason: "\(folder)/profiles.ini lists this profile folder, but it does not exist")
        }
        return ProfileLocation(kind: .firefoxProfile, path: chosen.path, label: "\(label) profile '\(chosen.name)'" + (chosen.name == chosen.folderName ? "" : " (\(chosen.folderName))"))
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    var configFolder: String {
        if let value = environment["XDG_CONFIG_HOME"], value.hasPrefix("/") { return value }
        return home + "/.config"
    }

    // MARK: Paths

    private func expand(_ path: String) -> String {
        var expanded = path
        if expanded == "~" { expanded = home } else if expanded.hasPrefix("~/") { expanded = home + expanded.dropFirst(1) }
        if !expanded.hasPrefix("/") { expanded = FileManager.default.currentDirectoryPath + "/" + expanded }
        while expanded.count > 1, expanded.hasSuffix("/") { expanded.removeLast() }
        return expanded
    }

    private func locate(path: String, profile: String?, label: String?) throws(ProfileError) -> ProfileLocation {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .notFound(path: path) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .unreadable(path: path, reason: "permission denied") }
        let name = (path as NSString).lastPathComponent
        if !isFolder.boolValue {
            if profile != nil { throw .notAProfile(path: path, reason: "--profile chooses a profile of a browser's user-data folder, and this is a file") }
            return try locateFile(path, name: name, label: label)
        }
        if ProfilePath.exists(path + "/Local State"), !ProfilePath.exists(path + "/CURRENT") {
            let chosen = try Self.chooseProfile(in: path, name: profile)
            let location = try locate(path: path + "/" + chosen.directory, profile: nil, label: nil)
            let what = (label ?? "browser") + " profile '\(chosen.directory)'" + (chosen.name.map { $0 == chosen.directory ? "" : " (\($0))" } ?? "")
            return ProfileLocation(kind: location.kind, path: location.path, label: what)
        }
        if ProfilePath.exists(path + "/profiles.ini"), !ProfilePath.exists(path + "/prefs.js") {
            return try locateFirefoxProfile(in: path, name: profile, label: label ?? "Firefox")
        }
        if profile != nil {
            throw .notAProfile(path: path, reason: "--profile chooses a profile of a browser's user-data folder (one that holds 'Local State' or Firefox's profiles.ini), and this folder is not one")
        }
        let described = label ?? "profile folder"
        if ProfilePath.exists(path + "/CURRENT") {
            return ProfileLocation(kind: .chromiumLevelDB, path: path, label: label ?? "LevelDB folder")
        }
        if ProfilePath.exists(path + "/Local Storage/leveldb/CURRENT") {
            return ProfileLocation(kind: .chromiumLevelDB, path: path + "/Local Storage/leveldb", label: described)
        }
        if name == "Local Storage", ProfilePath.exists(path + "/leveldb/CURRENT") {
            return ProfileLocation(kind: .chromiumLevelDB, path: path + "/leveldb", label: label ?? "Local Storage folder")
        }
        if ProfilePath.isFolder(path + "/Local Storage"), !WebKitLocalStorageReader.files(in: path + "/Local Storage").isEmpty {
            return ProfileLocation(kind: .webkitSQLite, path: path + "/Local Storage", label: described + " (legacy *.localstorage files)")
        }
        if !WebKitLocalStorageReader.files(in: path).isEmpty {
            return ProfileLocation(kind: .webkitSQLite, path: path, label: label ?? "folder of *.localstorage files")
        }
        if ProfilePath.exists(path + "/ls/data.sqlite") || (name == "ls" && ProfilePath.exists(path + "/data.sqlite")) {
            let database = name == "ls" ? path + "/data.sqlite" : path + "/ls/data.sqlite"
            return ProfileLocation(kind: .firefoxLSNG, path: database, label: label ?? "Firefox origin folder")
        }
        if ProfilePath.exists(path + "/prefs.js") || ProfilePath.isFolder(path + "/storage/default") || ProfilePath.exists(path + "/webappsstore.sqlite") {
            return ProfileLocation(kind: .firefoxProfile, path: path, label: label ?? "Firefox profile")
        }
        if FirefoxLocalStorageReader.Layout.holdsStorage(path) {
            return ProfileLocation(kind: .firefoxProfile, path: path, label: label ?? "Firefox storage folder")
        }
        if ProfilePath.exists(path + "/Preferences") || ProfilePath.isFolder(path + "/Local Storage") {
            throw .notAProfile(path: path, reason: "this browser profile holds no localStorage (its 'Local Storage' folder has no leveldb database and no *.localstorage files)")
        }
        throw .notAProfile(path: path, reason: "found no 'Local Storage/leveldb', *.localstorage files, 'Local State' (a browser's user-data folder), or Firefox storage in it")
    }

    private func locateFile(_ path: String, name: String, label: String?) throws(ProfileError) -> ProfileLocation {
        if name.hasSuffix(".localstorage") {
            return ProfileLocation(kind: .webkitSQLite, path: path, label: label ?? "*.localstorage file")
        }
        let folder = (path as NSString).deletingLastPathComponent
        if ProfilePath.exists(folder + "/CURRENT"), name == "CURRENT" || name.hasPrefix("MANIFEST-") || name.hasSuffix(".ldb") || name.hasSuffix(".log") || name.hasSuffix(".sst") {
            return ProfileLocation(kind: .chromiumLevelDB, path: folder, label: label ?? "LevelDB folder")
        }
        if name.hasSuffix(".plist") {
            throw .unsupported(path: path, reason: "a property list is read by RizqImport's plist importer (`rizq-prefs import-app --from FILE.plist`), not as browser storage")
        }
        if name.hasSuffix(".sqlite") || name.hasSuffix(".sqlite3") || name.hasSuffix(".db") || Self.isSQLite(path) {
            return ProfileLocation(kind: .sqliteFile, path: path, label: label ?? "SQLite file")
        }
        throw .notAProfile(path: path, reason: "it is not a browser storage file (expected a *.localstorage or .sqlite file, or a folder)")
    }

    // MARK: Chromium profiles

    /// A profile of a Chromium user-data folder: its folder name and the name the browser shows.
    package struct ChromiumProfile: Sendable, Equatable {
        /// The folder: `Default`, `Profile 1`, …
        package var directory: String
        /// The name the browser shows (`Local State`'s `profile.info_cache`), if known.
        package var name: String?
    }

    /// The profiles of the user-data folder `folder`, and the last used one.
    package static func chromiumProfiles(in folder: String) -> (profiles: [ChromiumProfile], lastUsed: String?) {
        var names: [String: String] = [:]
        var lastUsed: String?
        if let data = FileManager.default.contents(atPath: folder + "/Local State"),
            let state = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let profile = state["profile"] as? [String: Any]
        {
            lastUsed = profile["last_used"] as? String
            for (directory, info) in (profile["info_cache"] as? [String: Any]) ?? [:] {
                names[directory] = (info as? [String: Any])?["name"] as? String
            }
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let directories = entries.filter { entry in
            !["System Profile", "Guest Profile"].contains(entry)
                && (ProfilePath.exists(folder + "/" + entry + "/Preferences") || ProfilePath.isFolder(folder + "/" + entry + "/Local Storage") || names[entry] != nil)
                && ProfilePath.isFolder(folder + "/" + entry)
        }
        let sorted = directories.sorted { left, right in
            // Default first, then Profile 1, Profile 2, … in number order.
            if left == "Default" || right == "Default" { return left == "Default" && right != "Default" }
            return left.compare(right, options: .numeric) == .orderedAscending
        }
        return (sorted.map { ChromiumProfile(directory: $0, name: names[$0]) }, lastUsed)
    }

    private static func chooseProfile(in folder: String, name: String?) throws(ProfileError) -> ChromiumProfile {
        let (profiles, lastUsed) = chromiumProfiles(in: folder)
        let listed = profiles.map { profile in profile.directory + (profile.name.map { $0 == profile.directory ? "" : " (\($0))" } ?? "") }
        if let name {
            if let match = profiles.first(where: { $0.directory == name }) ?? profiles.first(where: { $0.name == name })
                ?? profiles.first(where: { $0.directory.lowercased() == name.lowercased() || $0.name?.lowercased() == name.lowercased() })
            {
                return match
            }
            throw .profileNotFound(name: name, folder: folder, available: listed)
        }
        if let standard = profiles.first(where: { $0.directory == "Default" }) { return standard }
        if let lastUsed, let last = profiles.first(where: { $0.directory == lastUsed }) { return last }
        if profiles.count == 1, let only = profiles.first { return only }
        if profiles.isEmpty { throw .profileNotFound(name: "Default", folder: folder, available: []) }
        throw .profileRequired(folder: folder, available: listed)
    }

    // MARK: Helpers

    /// Whether the file starts with SQLite's header.
    static func isSQLite(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\0".utf8)
    }
}
#endif
