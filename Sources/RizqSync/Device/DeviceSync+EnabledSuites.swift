import RizqPrefs

extension DeviceSync {
    /// The suites under `root` (default: the suites' root of this environment) whose sync was
    /// enabled on this device: each suite's name, and its app (`nil` for an app-group suite).
    package static func enabledSuites(root: String = SuiteLocation.defaultRoot()) -> [(suite: String, app: String?)] {
        SyncStateMove.prepare(forSuitesRoot: root)
        return SyncPaths.enabled(root: root).map { ($0.suiteName, $0.appID) }
    }
}
