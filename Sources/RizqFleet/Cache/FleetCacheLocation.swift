#if Fleet
/// Where a fleet suite keeps its last-known-good cache: a suite (a JSON file, readable with
/// `rizq-prefs get --suite …`), beside a second one for its bookkeeping (`<name>.state`: the
/// revision read up to, each key's change stamp, queued writes).
public struct FleetCacheLocation: Sendable, Equatable {
    /// The cache suite's name.
    public var suiteName: String
    /// The app whose suites folder holds it; `nil`: the current app id.
    public var appID: String?
    /// The root of suite files; `nil`: `RIZQ_PREFS_HOME`, else the XDG default.
    public var root: String?

    /// A cache location with these parts.
    public init(suiteName: String, appID: String? = nil, root: String? = nil) {
        self.suiteName = suiteName
        self.appID = appID
        self.root = root
    }

    /// The suite `fleet.<suite>` of the current app, under the default root.
    public static func automatic(for suite: String) -> FleetCacheLocation {
        FleetCacheLocation(suiteName: "fleet." + suite)
    }
}
#endif
