#if Secrets
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a file keyring is, and why there: the file libsecret uses for the same process.
///
/// libsecret's rule (and so this one): `SECRET_FILE_TEST_PATH` when it is set and not empty,
/// taken as it is (a relative path from the working folder); otherwise
/// `$XDG_DATA_HOME/keyrings/default.keyring`, with GLib's user data folder — `XDG_DATA_HOME`
/// when set and not empty, else `~/.local/share`. Inside a Flatpak that is
/// `~/.var/app/<app id>/data/keyrings/default.keyring` on the host: the sandbox's own data
/// folder, which libsecret and oo7 in the same app use too.
public struct FileKeyringLocation: Sendable, Equatable, Codable {
    /// The keyring file.
    public var path: String
    /// Where the path came from: `SECRET_FILE_TEST_PATH`, `$XDG_DATA_HOME`, `$HOME`, the
    /// user database, or the API.
    public var origin: String

    /// The keyring at `path`.
    public init(path: String, origin: String = "the API") {
        self.path = path
        self.origin = origin
    }

    /// The file's name in its folder.
    public static let defaultName = "default.keyring"

    /// The keyring libsecret would use in this process, from `environment`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> FileKeyringLocation {
        if let path = environment["SECRET_FILE_TEST_PATH"], !path.isEmpty {
            return FileKeyringLocation(path: path, origin: "SECRET_FILE_TEST_PATH")
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return FileKeyringLocation(path: data + "/keyrings/" + defaultName, origin: "$XDG_DATA_HOME")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return FileKeyringLocation(path: home + "/.local/share/keyrings/" + defaultName, origin: "$HOME")
        }
        let home = getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? "/"
        return FileKeyringLocation(path: home + "/.local/share/keyrings/" + defaultName, origin: "the user database's home folder")
    }
}
#endif
