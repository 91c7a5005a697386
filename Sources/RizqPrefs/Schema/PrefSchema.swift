import Foundation

/// A suite's schema: what each of its keys is — a title, a description, a type, a default, a
/// range or a set of choices, a deprecation note — as a standard JSON Schema (draft 2020-12)
/// document that editors, validators and every tool can read.
///
/// An app describes its keys once, on its ``Key`` declarations, and one call makes the schema:
///
/// ```swift
/// extension Key where Value == Int {
///     static let volume = Key("volume", default: 50, title: "Volume",
///                             description: "Output volume, in percent.", range: 0...100)
/// }
/// let schema = PrefSchema(title: "com.rizq.app", keys: [Key.volume, Key.theme])
/// try schema.jsonData().write(to: URL(fileURLWithPath: "com.rizq.app.schema.json"))
/// ```
///
/// The app's package installs that file where the library and `rizq-prefs` look for it
/// (``installPath(suite:appID:dataDirectory:)``):
/// `<dir>/rizq-prefs/schemas/apps/<app id>/<suite>.schema.json`, app groups
/// `<dir>/rizq-prefs/schemas/groups/group.NAME.schema.json`, under `$XDG_DATA_HOME` or a `<dir>` of
/// `$XDG_DATA_DIRS` (`/usr/share` for a distribution's package). A hand-written JSON Schema is
/// read the same way: the keywords `type`, `minimum`, `maximum`, `exclusiveMinimum`,
/// `exclusiveMaximum`, `enum`, `const`, `default`, `title`, `description` and `deprecated` (and
/// VS Code's `deprecationMessage`) of each member of `properties`; other keywords are kept out of
/// the checks (an independent validator still applies them).
///
/// What the installed schema does (``SuiteStore``):
///
/// - its `default`s are the ``ValueSource/Layer/schema`` layer: under the user's values and an
///   administrator's defaults, over the defaults this process registered;
/// - a write it forbids is refused — thrown by the throwing paths (`put`, batches, ``Key/put(_:)``,
///   imports), logged and dropped by `set(_:forKey:)` as GSettings drops it — and `rizq-prefs set`
///   exits 2 saying what is allowed;
/// - a value on disk that breaks it reads as the default, is logged once, and stays on disk
///   untouched (`rizq-prefs doctor` names it): never a crash, never a silent wipe.
///
/// The word "schema" means this document, and only this: a suite's versions and the stages between
/// them are its migrations (``SuiteMigrations``).
public struct PrefSchema: Sendable, Equatable {
    /// The JSON Schema dialect of the documents written (`$schema`).
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"
    /// The largest schema file read, in bytes.
    public static let maximumFileSize = 1 << 20
    /// The most keys one schema describes.
    public static let maximumProperties = 10_000

    /// The document's title (the suite's name in a generated one).
    public var title: String?
    /// What the suite is for.
    public var description: String?
    /// Each key's description, by key.
    public var properties: [String: Property]

    /// A schema of `properties`.
    public init(title: String? = nil, description: String? = nil, properties: [String: Property]) {
        self.title = title
        self.description = description
        self.properties = properties
    }

    /// Why `value` may not be stored under `key`, in words that say what is allowed; `nil` when
    /// the schema allows it (a key the schema does not describe takes anything).
    public func problem(with value: PrefValue, forKey key: String) -> String? {
        properties[key]?.problem(with: value)
    }

    /// Where an app's package installs the schema of `suite` (of the app `appID`; app groups:
    /// `group.…`) under `dataDirectory`: `/usr/share` for a distribution's package, `$XDG_DATA_HOME`
    /// (`~/.local/share`) for one user.
    public static func installPath(suite: String, appID: String, dataDirectory: String) -> String {
        dataDirectory + "/rizq-prefs/schemas/" + relativePath(suite: suite, appID: appID) + ".schema.json"
    }

    /// `apps/<app>/<suite>` or `groups/<suite>`: where a suite sits under every root and layer.
    static func relativePath(suite: String, appID: String) -> String {
        suite.hasPrefix("group.") ? "groups/" + suite : "apps/" + appID + "/" + suite
    }
}
