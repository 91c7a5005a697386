#if Secrets
/// The Chromium-family browsers whose profiles `--from` finds by name, and where each keeps its
/// user-data folder on Linux.
///
/// | name | user-data folders, in the order they are tried |
/// | --- | --- |
/// | `chrome` | `google-chrome`, `google-chrome-beta`, `google-chrome-unstable` in the config folder; Flatpak `com.google.Chrome` |
/// | `chromium` | `chromium` in the config folder; Snap `~/snap/chromium/common/chromium`; Flatpak `org.chromium.Chromium` |
/// | `brave` | `BraveSoftware/Brave-Browser` (`-Beta`, `-Nightly`); Flatpak `com.brave.Browser` |
/// | `edge` | `microsoft-edge` (`-beta`, `-dev`); Flatpak `com.microsoft.Edge` |
/// | `vivaldi` | `vivaldi`, `vivaldi-snapshot`; Flatpak `com.vivaldi.Vivaldi` |
///
/// The config folder is `$XDG_CONFIG_HOME` (default `~/.config`); Chrome and Chromium also honour
/// `$CHROME_CONFIG_HOME`, and `$CHROME_USER_DATA_DIR` names their user-data folder outright
/// (Chromium's `docs/user_data_dir.md`). A Flatpak keeps its config folder in
/// `~/.var/app/<id>/config`.
public enum ChromiumBrowser: String, Sendable, CaseIterable {
    /// Google Chrome.
    case chrome
    /// Chromium (Debian's `chromium`).
    case chromium
    /// Brave.
    case brave
    /// Microsoft Edge.
    case edge
    /// Vivaldi.
    case vivaldi

    /// The browser's name for people.
    public var displayName: String {
        switch self {
        case .chrome: return "Google Chrome"
        case .chromium: return "Chromium"
        case .brave: return "Brave"
        case .edge: return "Microsoft Edge"
        case .vivaldi: return "Vivaldi"
        }
    }

    /// The user-data folders to try, in order, for `home` and `environment`.
    public func userDataFolders(home: String, environment: [String: String]) -> [String] {
        func variable(_ name: String) -> String? {
            guard let value = environment[name], value.hasPrefix("/") else { return nil }
            return value
        }
        let xdgConfig = variable("XDG_CONFIG_HOME") ?? home + "/.config"
        let config = [.chrome, .chromium].contains(self) ? (variable("CHROME_CONFIG_HOME") ?? xdgConfig) : xdgConfig
        var folders: [String] = []
        if [.chrome, .chromium].contains(self), let explicit = variable("CHROME_USER_DATA_DIR") { folders.append(explicit) }
        func flatpak(_ id: String, _ name: String) -> String { home + "/.var/app/" + id + "/config/" + name }
        switch self {
        case .chrome:
            folders += ["google-chrome", "google-chrome-beta", "google-chrome-unstable"].map { config + "/" + $0 }
            folders.append(flatpak("com.google.Chrome", "google-chrome"))
        case .chromium:
            folders.append(config + "/chromium")
            folders.append(home + "/snap/chromium/common/chromium")
            folders.append(flatpak("org.chromium.Chromium", "chromium"))
        case .brave:
            folders += ["Brave-Browser", "Brave-Browser-Beta", "Brave-Browser-Nightly"].map { config + "/BraveSoftware/" + $0 }
            folders.append(flatpak("com.brave.Browser", "BraveSoftware/Brave-Browser"))
        case .edge:
            folders += ["microsoft-edge", "microsoft-edge-beta", "microsoft-edge-dev"].map { config + "/" + $0 }
            folders.append(flatpak("com.microsoft.Edge", "microsoft-edge"))
        case .vivaldi:
            folders += ["vivaldi", "vivaldi-snapshot"].map { config + "/" + $0 }
            folders.append(flatpak("com.vivaldi.Vivaldi", "vivaldi"))
        }
        return folders
    }
}
#endif
