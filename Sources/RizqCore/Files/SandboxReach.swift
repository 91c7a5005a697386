#if canImport(Glibc)
import Glibc
#endif

/// The folders a sandboxed app of this user can write: a Flatpak app runs as this same user, so
/// "owned by this user" says nothing about whether a sandbox wrote a file there. What this
/// package reads from them is data — a suite's values — never a command to run, a path to
/// trust, a key or a secret, nor an instruction to delete.
///
/// | folder | why a sandbox can write it |
/// | --- | --- |
/// | `~/.config/rizq-prefs` (and `$XDG_CONFIG_HOME/rizq-prefs`) | the whole folder was the permission the docs advised before (`--filesystem=xdg-config/rizq-prefs:create`); its `groups/` is the one advised now (``sharedGroupsFolder(home:)``) |
/// | `~/.var/app` | every Flatpak app's own data (on the host only: inside a sandbox it is the app's own) |
///
/// The host's trust base lives outside them: the secrets config file
/// (`$XDG_CONFIG_HOME/rizq-prefs-secrets/secrets.json`), journals and device-sync state
/// (``stateRoot(forSuitesRoot:)``: `$XDG_STATE_HOME/rizq-prefs`), the vault and its key
/// (`$XDG_DATA_HOME/rizq-prefs/secrets`). The file layer refuses, by ``FileTrust``, a config,
/// key, secret or credential file found inside one of them (``folder(holding:)``), whatever the
/// path it was named by (a link, another spelling, a bind mount: folders are compared by device
/// and inode).
package struct SandboxReach: Sendable, Equatable {
    /// The folders, as paths (they need not exist).
    package var folders: [String]
    /// The home folder they were found from.
    package var home: String

    /// The folder name, under `~/.config`, that holds suites (and, in it, the shared `groups/`).
    package static let preferencesFolderName = "rizq-prefs"

    /// The file Flatpak puts at the root of every sandbox.
    package static let flatpakInfoPath = "/.flatpak-info"

    /// Whether this process runs in a Flatpak sandbox: a regular file at ``flatpakInfoPath``,
    /// not read.
    package static var processIsSandboxed: Bool {
        var info = stat()
        return lstat(flatpakInfoPath, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The folders for `home` and `configHome` (`$XDG_CONFIG_HOME`, when set and absolute);
    /// `sandboxed`: this process runs inside a sandbox (then `~/.var/app` is its own).
    package init(home: String, configHome: String?, sandboxed: Bool) {
        self.home = home
        var folders = [home + "/.config/" + Self.preferencesFolderName]
        if let configHome, configHome.hasPrefix("/"), !sandboxed {
            let other = configHome + "/" + Self.preferencesFolderName
            if !folders.contains(other) { folders.append(other) }
        }
        if !sandboxed { folders.append(home + "/.var/app") }
        self.folders = folders
    }

    /// The folders for this process's environment (`HOME`, `XDG_CONFIG_HOME`, `/.flatpak-info`).
    package static var current: SandboxReach {
        SandboxReach(environment: { name in getenv(name).map { String(cString: $0) } })
    }

    /// The folders for an environment.
    package init(environment: [String: String]) {
        self.init(environment: { environment[$0] })
    }

    private init(environment variable: (String) -> String?) {
        let home = variable("HOME").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? Self.passwordHome()
        self.init(home: home, configHome: variable("XDG_CONFIG_HOME"), sandboxed: Self.processIsSandboxed)
    }

    /// The home folder of the effective user from the user database.
    private static func passwordHome() -> String {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }

    /// The folder the docs tell integrators to give sandboxed apps, and the one place app-group
    /// suites are shared in: `HOME/.config/rizq-prefs/groups`
    /// (`--filesystem=xdg-config/rizq-prefs/groups:create`). It holds app-group suites and
    /// nothing else.
    package static func sharedGroupsFolder(home: String) -> String {
        home + "/.config/" + preferencesFolderName + "/groups"
    }

    /// The folder of ``folders`` that holds `path` (or is it), or `nil`. Each existing ancestor
    /// of `path` is compared with each existing folder by device and inode (a link, `..`, a bind
    /// mount or a second spelling leads to the same folder); a path that does not exist yet is
    /// compared by its text.
    package func folder(holding path: String) -> String? {
        let existing: [(path: String, device: UInt64, inode: UInt64)] = folders.compactMap { folder in
            var info = stat()
            guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            return (folder, UInt64(info.st_dev), UInt64(info.st_ino))
        }
        let normalized = Self.normalize(path)
        if let byText = folders.first(where: { normalized == $0 || normalized.hasPrefix($0 + "/") }) { return byText }
        guard !existing.isEmpty else { return nil }
        // The deepest folder of the path that exists, resolved (links, `..`): its ancestors
        // are where the path really is.
        var current = normalized
        var info = stat()
        while stat(current, &info) != 0, current != "/" { current = PrivateFolder.parent(of: current) }
        current = Self.resolved(current) ?? current
        while true {
            if stat(current, &info) == 0,
                let found = existing.first(where: { $0.device == UInt64(info.st_dev) && $0.inode == UInt64(info.st_ino) }) {
                return found.path
            }
            if current == "/" || current.isEmpty { return nil }
            current = PrivateFolder.parent(of: current)
        }
    }

    /// `realpath(3)` of an existing path.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The folder of ``folders`` that holds the open file `descriptor`, judged by the path the
    /// kernel knows it by (whatever link or spelling opened it), or `nil`.
    package func folder(holdingDescriptor descriptor: Int32, info: stat) -> String? {
        // No folder of ours on the file's file system: nothing to walk.
        let devices = folders.compactMap { folder -> UInt64? in
            var folderInfo = stat()
            return stat(folder, &folderInfo) == 0 ? UInt64(folderInfo.st_dev) : nil
        }
        guard devices.contains(UInt64(info.st_dev)) else { return nil }
        guard let real = Self.realPath(of: descriptor) else { return nil }
        return folder(holding: real)
    }

    /// The path the kernel keeps for an open descriptor (`/proc/self/fd/N`).
    static func realPath(of descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasPrefix("/") ? path : nil
    }

    /// `path` made absolute (from the current folder), without `.` components, repeated or
    /// trailing slashes; `..` taken back textually.
    static func normalize(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                absolute = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
            }
        }
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Where the host keeps its trust base for the suites under `suitesRoot`: journals of
    /// imports (`apps/<app id>/`) and device-sync state (`sync/`).
    ///
    /// A root a sandbox can write (``folder(holding:)``: the default root, `~/.config/rizq-prefs`)
    /// keeps them in `$XDG_STATE_HOME/rizq-prefs` (default `~/.local/state/rizq-prefs`), which no
    /// permission this package documents reaches. Any other root (`RIZQ_PREFS_HOME` naming a
    /// service's folder, a test's) keeps them under itself, as it always has.
    package func stateRoot(forSuitesRoot suitesRoot: String, stateHome: String?) -> String {
        guard folder(holding: suitesRoot) != nil else { return suitesRoot }
        if let stateHome, stateHome.hasPrefix("/") { return stateHome + "/" + Self.preferencesFolderName }
        return home + "/.local/state/" + Self.preferencesFolderName
    }

    /// ``stateRoot(forSuitesRoot:stateHome:)`` for this process's environment.
    package static func stateRoot(forSuitesRoot suitesRoot: String) -> String {
        current.stateRoot(forSuitesRoot: suitesRoot, stateHome: getenv("XDG_STATE_HOME").map { String(cString: $0) })
    }

    /// Words for a message: "inside ~/.config/rizq-prefs, which sandboxed (Flatpak) apps of this
    /// user may be given".
    package static func describe(_ folder: String) -> String {
        folder.hasSuffix("/.var/app")
            ? "inside \(folder), where every Flatpak app keeps its own files"
            : "inside \(folder), which sandboxed (Flatpak) apps of this user may be given"
    }
}
