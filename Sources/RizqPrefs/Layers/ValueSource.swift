/// Where a key's value comes from: its layer, and the file that holds it
/// (``SuiteStore/source(forKey:)``, `rizq-prefs get KEY --source`).
///
/// A read returns the value of the first layer that has the key, highest first:
///
/// | layer | where | what it does |
/// | --- | --- | --- |
/// | ``Layer/managed`` | `<dir>/rizq-prefs/managed/` of each `<dir>` of `$XDG_CONFIG_DIRS` (default `/etc/xdg`) | forced: every reader gets it, no write changes what is read (``SuiteStore/objectIsForced(forKey:)``) |
/// | ``Layer/user`` | the suite file | what the app and the user wrote |
/// | ``Layer/defaults`` | `<dir>/rizq-prefs/defaults/` of each `<dir>` of `$XDG_CONFIG_DIRS` | an administrator's defaults: used where the user has no value |
/// | ``Layer/schema`` | the `default` of the suite's installed schema (``PrefSchema``) | the app's shipped defaults |
/// | ``Layer/registered`` | ``SuiteStore/register(defaults:)``, ``Key`` defaults | this process's fallbacks, in memory |
///
/// ```swift
/// if let source = store.source(forKey: "update_channel") {
///     print(source)   // "managed (/etc/xdg/rizq-prefs/managed/apps/com.rizq.app/com.rizq.app.json)"
/// }
/// ```
public struct ValueSource: Sendable, Hashable, CustomStringConvertible {
    /// A layer of a suite's values, highest first.
    public enum Layer: String, Sendable, Hashable, CaseIterable, Comparable {
        /// An administrator's forced values.
        case managed
        /// The suite file: the user's and the app's own values.
        case user
        /// An administrator's defaults.
        case defaults
        /// The defaults of the suite's installed schema.
        case schema
        /// The defaults this process registered.
        case registered

        /// Higher layers first: `managed < user < … < registered`.
        public static func < (lhs: Layer, rhs: Layer) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// The layer the value comes from.
    public let layer: Layer
    /// The file that holds it: a layer file or drop-in, the suite file, the schema; `nil` for
    /// ``Layer/registered``.
    public let path: String?

    /// A source in `layer`, from the file at `path`.
    public init(layer: Layer, path: String?) {
        self.layer = layer
        self.path = path
    }

    /// "managed (/etc/xdg/…/com.rizq.app.json)", "registered".
    public var description: String {
        path.map { "\(layer.rawValue) (\($0))" } ?? layer.rawValue
    }
}
