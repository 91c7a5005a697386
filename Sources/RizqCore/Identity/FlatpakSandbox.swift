import Foundation

/// The Flatpak sandbox this process runs in, if any: known from `/.flatpak-info` alone, the file
/// Flatpak puts at the root of every sandbox (and the file the Secret portal itself reads, through
/// `/proc/PID/root`, to tell which app is calling). Suites use it to find the folder app-group
/// suites are shared in (``sharedGroupsFolder(home:)``), secrets to key the file keyring.
///
/// Environment variables never count: `GTK_USE_PORTAL=1` or `FLATPAK_ID` set outside a sandbox
/// (a user's shell profile, a desktop file) do not make a process sandboxed, and taking them
/// for it sends secrets to a keyring nothing else reads (linux-credentials/oo7#331). Snap's
/// confinement, which libsecret also treats as a sandbox (`SNAP_NAME`), is not detected.
public struct FlatpakSandbox: Sendable, Equatable, Codable {
    /// Where Flatpak puts its description of the sandbox.
    public static let infoPath = SandboxReach.flatpakInfoPath
    /// The most read of it (a real one is under 1 KiB).
    static let infoLimit = 64 << 10

    /// The app id (`[Application] name=`), when the file could be read and names one.
    public var appID: String?
    /// The file it was found from.
    public var infoPath: String

    /// A sandbox of the app `appID`, described by the file at `infoPath`.
    public init(appID: String?, infoPath: String = FlatpakSandbox.infoPath) {
        self.appID = appID
        self.infoPath = infoPath
    }

    /// The sandbox of this process: `nil` outside one. Looks at the file each time it is asked.
    public static var current: FlatpakSandbox? { detect(infoPath: infoPath) }

    /// Whether this process runs in a Flatpak sandbox (a regular file at ``infoPath-type.property``), without
    /// reading the file.
    public static var isSandboxed: Bool {
        SandboxReach.processIsSandboxed
    }

    /// The sandbox `infoPath` describes: `nil` when there is no regular file there.
    public static func detect(infoPath: String = FlatpakSandbox.infoPath) -> FlatpakSandbox? {
        var info = stat()
        guard lstat(infoPath, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        // The file says which app this is (for status and messages only: the portal reads it
        // itself). One another user could have written is not believed, but still a sandbox.
        let bytes = try? PrivateFile.read(infoPath, trust: .hostProvided("Flatpak sandbox description"), limit: infoLimit)?.bytes
        return FlatpakSandbox(appID: bytes.flatMap(applicationName(in:)), infoPath: infoPath)
    }

    /// The host's app-group suites folder, `HOME/.config/rizq-prefs/groups`, when it can be seen
    /// from inside the sandbox — the app was given `--filesystem=xdg-config/rizq-prefs/groups:create`
    /// (or the whole folder, the advice before) — else `nil`.
    public static func sharedGroupsFolder(home: String) -> String? {
        let folder = SandboxReach.sharedGroupsFolder(home: home)
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return folder
    }

    /// The host's whole preferences folder, `HOME/.config/rizq-prefs`, when the app was given all
    /// of it (`--filesystem=xdg-config/rizq-prefs:create`, the advice before) and apps' suites are
    /// there (`apps/` is seen): the app keeps its suites where they are. `nil` otherwise — with
    /// the advice now, `groups/` alone, the app's own suites are in its own folder.
    public static func wholeHostPreferencesRoot(home: String) -> String? {
        let root = home + "/.config/" + SandboxReach.preferencesFolderName
        var info = stat()
        guard lstat(root + "/apps", &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return root
    }

    /// The host's whole preferences folder as seen from the sandbox: the advice before, which
    /// gave a sandbox the host's trust base too.
    @available(*, deprecated, renamed: "wholeHostPreferencesRoot(home:)", message: "give sandboxed apps xdg-config/rizq-prefs/groups only: sharedGroupsFolder(home:)")
    public static func sharedPreferencesRoot(home: String) -> String? {
        wholeHostPreferencesRoot(home: home)
    }

    /// `name=` of the `[Application]` group of a key file.
    static func applicationName(in bytes: [UInt8]) -> String? {
        var group = ""
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                group = String(trimmed.dropFirst().dropLast())
            } else if group == "Application", trimmed.hasPrefix("name=") {
                let name = trimmed.dropFirst(5).trimmingCharacters(in: .whitespaces)
                return name.isEmpty ? nil : name
            }
        }
        return nil
    }
}
