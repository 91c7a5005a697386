import Foundation
import RizqPrefs

/// Where device sync keeps its own files for a suite, under the suites' root — never in the
/// synced folder:
///
/// ```
/// <root>/sync/apps/<app id>/<suite>.json    the sync state of an app's suite (SyncState)
/// <root>/sync/groups/<group.…>.json         the sync state of an app-group suite
/// <root>/sync/conflicts/                    conflict copies, once merged (archived)
/// ```
struct SyncPaths: Sendable, Hashable {
    /// The suites' root (`RIZQ_PREFS_HOME`, …).
    let root: String
    /// The suite's name.
    let suiteName: String
    /// The app whose suite it is; `nil` for an app-group suite.
    let appID: String?

    init(root: String, suiteName: String, appID: String?) {
        self.root = root
        self.suiteName = suiteName
        self.appID = suiteName.hasPrefix("group.") ? nil : appID
    }

    init(store: SuiteStore) {
        let location = store.location
        if location.isGroup {
            self.init(root: String(location.directory.dropLast("/groups".count)), suiteName: store.suiteName, appID: nil)
        } else {
            self.init(root: String(location.directory.dropLast(("/apps/" + store.appID).count)), suiteName: store.suiteName, appID: store.appID)
        }
    }

    /// The folder of the suite's sync state.
    var stateDirectory: String {
        appID.map { root + "/sync/apps/" + $0 } ?? root + "/sync/groups"
    }

    /// Where merged conflict copies are moved.
    var conflictArchive: String { root + "/sync/conflicts" }

    /// The suites under `root` whose sync was enabled, sorted.
    static func enabled(root: String) -> [SyncPaths] {
        let files = FileManager.default
        var found: [SyncPaths] = []
        func states(in folder: String) -> [String] {
            ((try? files.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .map { String($0.dropLast(".json".count)) }
                .sorted()
        }
        for name in states(in: root + "/sync/groups") {
            found.append(SyncPaths(root: root, suiteName: name, appID: nil))
        }
        for app in ((try? files.contentsOfDirectory(atPath: root + "/sync/apps")) ?? []).sorted() where !app.hasPrefix(".") {
            for name in states(in: root + "/sync/apps/" + app) {
                found.append(SyncPaths(root: root, suiteName: name, appID: app))
            }
        }
        return found
    }
}
