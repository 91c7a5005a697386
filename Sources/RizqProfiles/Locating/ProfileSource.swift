#if Secrets
/// What `rizq-prefs import-app --from` names: a browser, an Electron app, or a path.
///
/// ```swift
/// try ProfileSource("chromium")          // .browser(.chromium)
/// try ProfileSource("electron:Obsidian") // .electron(appName: "Obsidian")
/// try ProfileSource("~/Backups/Default") // .path("~/Backups/Default")
/// ```
public enum ProfileSource: Sendable, Equatable, CustomStringConvertible {
    /// A Chromium-family browser's default profile.
    case browser(ChromiumBrowser)
    /// Firefox's default profile (from `profiles.ini`).
    case firefox
    /// An Electron app's storage, `~/.config/<appName>` (`$XDG_CONFIG_HOME`).
    case electron(appName: String)
    /// A profile folder, a `Local Storage/leveldb` folder, or a storage file.
    case path(String)

    /// Reads `--from`'s argument: a browser name (`chrome`, `chromium`, `brave`, `edge`,
    /// `vivaldi`, `firefox`), `electron:<AppName>`, or else a path.
    /// - Throws: ``ProfileError/unknownSource(_:)`` for an empty name or an Electron app name
    ///   that cannot be a folder name.
    public init(_ text: String) throws(ProfileError) {
        if let browser = ChromiumBrowser(rawValue: text) {
            self = .browser(browser)
        } else if text == "firefox" {
            self = .firefox
        } else if text.hasPrefix("electron:") {
            let name = String(text.dropFirst("electron:".count))
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.utf8.contains(0) else {
                throw .unknownSource(text)
            }
            self = .electron(appName: name)
        } else {
            guard !text.isEmpty else { throw .unknownSource(text) }
            self = .path(text)
        }
    }

    /// The text it was read from.
    public var description: String {
        switch self {
        case .browser(let browser): return browser.rawValue
        case .firefox: return "firefox"
        case .electron(let name): return "electron:" + name
        case .path(let path): return path
        }
    }
}
#endif
