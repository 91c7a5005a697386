#if Secrets
import Foundation

/// Firefox's list of profiles (`profiles.ini`, with `installs.ini`) and the choice of the
/// default one, as Firefox makes it (`toolkit/profile/nsToolkitProfileService.cpp`).
///
/// ```ini
/// [Profile0]
/// Name=default-esr
/// IsRelative=1
/// Path=m4bxbel5.default-esr
///
/// [Profile1]
/// Name=default
/// IsRelative=1
/// Path=2pvjnlf3.default
/// Default=1
///
/// [Install3B6073811A6ABF12]
/// Default=m4bxbel5.default-esr
/// Locked=1
/// ```
///
/// Since Firefox 67 each installation has its own default profile, named in an
/// `[Install<hash>]` section (`FirefoxInstallHash`); the profile marked `Default=1` is the
/// default of the time before, which Firefox still uses where installations have no profiles of
/// their own (the Snap package). So ``choose(_:installHashes:dedicated:)`` takes:
/// 1. the profile named, by its name or its folder;
/// 2. the one default of every `[Install…]` section, or when they differ, the default of the
///    Firefox installed on this machine;
/// 3. the profile marked `Default=1`;
/// 4. the only profile;
/// and otherwise asks for `--profile`.
package struct FirefoxProfiles: Sendable, Equatable {
    /// A profile of `profiles.ini`.
    package struct Profile: Sendable, Equatable {
        /// The name Firefox shows (`default-release`).
        package var name: String
        /// The profile folder.
        package var path: String
        /// Whether it is marked `Default=1` (the default before per-installation defaults).
        package var isMarkedDefault: Bool

        /// The profile folder's own name (`m4bxbel5.default-esr`).
        package var folderName: String { (path as NSString).lastPathComponent }

        /// How lists show it: `default-esr (m4bxbel5.default-esr)`.
        package var listed: String { name == folderName ? name : "\(name) (\(folderName))" }
    }

    /// The folder that holds `profiles.ini`.
    package var folder: String
    /// The profiles, in `profiles.ini`'s order.
    package var profiles: [Profile]
    /// Each installation's default profile folder, by installation hash.
    package var installDefaults: [String: String]

    /// Reads `folder/profiles.ini`, and `folder/installs.ini` when `profiles.ini` is of the older
    /// format (no `[General] Version`) that kept the installations there only, as Firefox does.
    /// - Throws: ``ProfileError/unreadable(path:reason:)``.
    package init(folder: String) throws(ProfileError) {
        self.folder = folder
        let ini = try Self.readINI(folder + "/profiles.ini")
        var profiles: [Profile] = []
        // Firefox reads Profile0, Profile1, … and stops at the first without IsRelative.
        var index = 0
        while let isRelative = ini[section: "Profile\(index)", key: "IsRelative"] {
            let section = "Profile\(index)"
            index += 1
            guard let path = ini[section: section, key: "Path"], !path.isEmpty, let name = ini[section: section, key: "Name"] else { continue }
            profiles.append(Profile(
                name: name, path: Self.resolve(path, relative: isRelative == "1", in: folder),
                isMarkedDefault: ini[section: section, key: "Default"] == "1"))
        }
        self.profiles = profiles
        var installs: [String: String] = [:]
        for name in ini.sectionNames where name.hasPrefix("Install") {
            if let path = ini[section: name, key: "Default"], !path.isEmpty { installs[String(name.dropFirst("Install".count))] = path }
        }
        if ini[section: "General", key: "Version"] == nil, ProfilePath.exists(folder + "/installs.ini") {
            let installsINI = try Self.readINI(folder + "/installs.ini")
            for name in installsINI.sectionNames where installs[name] == nil {
                if let path = installsINI[section: name, key: "Default"], !path.isEmpty { installs[name] = path }
            }
        }
        installDefaults = installs.mapValues { Self.resolve($0, relative: !$0.hasPrefix("/"), in: folder) }
    }

    /// The profile `name` (by name or folder name, then ignoring case), or the default one.
    /// `installHashes` are the hashes of the Firefox installations on this machine; `dedicated`
    /// is false where Firefox gives installations no profiles of their own (Snap).
    /// - Throws: ``ProfileError/profileNotFound(name:folder:available:)``,
    ///   ``ProfileError/profileRequired(folder:available:)``.
    package func choose(_ name: String?, installHashes: [String], dedicated: Bool = true) throws(ProfileError) -> Profile {
        let listed = profiles.map(\.listed)
        if let name {
            if let match = profiles.first(where: { $0.name == name }) ?? profiles.first(where: { $0.folderName == name })
                ?? profiles.first(where: { $0.name.lowercased() == name.lowercased() || $0.folderName.lowercased() == name.lowercased() })
            {
                return match
            }
            throw .profileNotFound(name: name, folder: folder, available: listed)
        }
        if dedicated {
            let known = installDefaults.compactMap { hash, path in profile(at: path).map { (hash: hash, profile: $0) } }
            let defaults = Self.unique(known.map(\.profile))
            if defaults.count == 1, let only = defaults.first { return only }
            if defaults.count > 1 {
                let wanted = Set(installHashes.map { $0.uppercased() })
                let mine = Self.unique(known.filter { wanted.contains($0.hash.uppercased()) }.map(\.profile))
                if mine.count == 1, let only = mine.first { return only }
                throw .profileRequired(folder: folder, available: listed)
            }
        }
        if let marked = profiles.first(where: \.isMarkedDefault) { return marked }
        if profiles.count == 1, let only = profiles.first { return only }
        if profiles.isEmpty { throw .profileNotFound(name: "default", folder: folder, available: []) }
        throw .profileRequired(folder: folder, available: listed)
    }

    private func profile(at path: String) -> Profile? {
        let wanted = (path as NSString).standardizingPath
        return profiles.first { ($0.path as NSString).standardizingPath == wanted }
    }

    private static func unique(_ profiles: [Profile]) -> [Profile] {
        var seen: Set<String> = []
        return profiles.filter { seen.insert($0.path).inserted }.sorted { $0.path < $1.path }
    }

    private static func resolve(_ path: String, relative: Bool, in folder: String) -> String {
        relative ? folder + "/" + path : path
    }

    private static func readINI(_ path: String) throws(ProfileError) -> INIFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot read it")
        }
        return INIFile(String(decoding: data, as: UTF8.self))
    }

    // MARK: Where Firefox lives

    /// The folders that may hold `profiles.ini`, in the order Firefox itself prefers them
    /// (`nsXREDirProvider`): `~/.mozilla/firefox` when `~/.mozilla` exists or
    /// `MOZ_LEGACY_HOME=1`, else `$XDG_CONFIG_HOME/mozilla/firefox` (default
    /// `~/.config/mozilla/firefox`, where recent Firefox starts a new user); then the Snap and
    /// Flatpak packages'.
    package static func dataFolders(home: String, environment: [String: String]) -> [String] {
        let legacy = home + "/.mozilla/firefox"
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let xdg = configHome + "/mozilla/firefox"
        let preferLegacy = environment["MOZ_LEGACY_HOME"] == "1" || ProfilePath.exists(home + "/.mozilla")
        return (preferLegacy ? [legacy, xdg] : [xdg, legacy]) + [
            home + "/snap/firefox/common/.mozilla/firefox",
            home + "/.var/app/org.mozilla.firefox/.mozilla/firefox",
            home + "/.var/app/org.mozilla.firefox/config/mozilla/firefox",
        ]
    }

    /// Whether Firefox gives each installation its own default profile for the profiles in
    /// `folder`: not in the Snap package.
    static func usesInstallDefaults(_ folder: String) -> Bool {
        !folder.contains("/snap/firefox/")
    }

    /// The installation folders of the Firefox on this machine: where `firefox` and
    /// `firefox-esr` on `PATH` lead, and the usual places; each holds `application.ini`.
    static func installFolders(environment: [String: String]) -> [String] {
        var candidates: [String] = []
        for directory in (environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            for name in ["firefox", "firefox-esr"] {
                let path = String(directory) + "/" + name
                guard ProfilePath.exists(path) else { continue }
                candidates.append((URL(fileURLWithPath: path).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent)
            }
        }
        candidates += ["/usr/lib/firefox-esr", "/usr/lib/firefox", "/usr/lib64/firefox-esr", "/usr/lib64/firefox", "/opt/firefox", "/usr/local/lib/firefox"]
        var seen: Set<String> = []
        return candidates.filter { ProfilePath.exists($0 + "/application.ini") && seen.insert($0).inserted }
    }
}
#endif
