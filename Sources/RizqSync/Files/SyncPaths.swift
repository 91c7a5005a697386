import Foundation
import RizqCore
import RizqPrefs

/// Where device sync keeps its own files for a suite — never in the synced folder, and never
/// where a sandboxed app can write (``RizqCore/SandboxReach``): under the state root of the
/// suites' root (`$XDG_STATE_HOME/rizq-prefs` for the default root, `~/.config/rizq-prefs`, which
/// sandboxed apps may be given; the root itself for a root of its own, `RIZQ_PREFS_HOME`):
///
/// ```
/// <state root>/sync/apps/<app id>/<suite>.json    the sync state of an app's suite (SyncState)
/// <state root>/sync/groups/<group.…>.json         the sync state of an app-group suite
/// <state root>/sync/conflicts/                    conflict copies, once merged (archived)
/// ```
///
/// The sync state names the folder a suite is published to: one a sandbox wrote would send the
/// host's suite where the sandbox chose. Sync states that earlier releases kept in
/// `~/.config/rizq-prefs/sync` are moved once, before device sync reads a state (`DeviceSync`
/// runs `SyncStateMove`).
struct SyncPaths: Sendable, Hashable {
    /// The suites' root (`RIZQ_PREFS_HOME`, …).
    let root: String
    /// Where this device's sync state is kept (see the type's documentation).
    let stateRoot: String
    /// The suite's name.
    let suiteName: String
    /// The app whose suite it is; `nil` for an app-group suite.
    let appID: String?

    init(root: String, suiteName: String, appID: String?) {
        self.root = root
        self.stateRoot = Self.stateRoot(forSuitesRoot: root)
        self.suiteName = suiteName
        self.appID = suiteName.hasPrefix("group.") ? nil : appID
    }

    init(store: SuiteStore) {
        self.init(root: store.location.root, suiteName: store.suiteName, appID: store.location.isGroup ? nil : store.appID)
    }

    /// The state root of `root` (RizqCore's `SandboxReach`).
    static func stateRoot(forSuitesRoot root: String) -> String {
        SandboxReach.stateRoot(forSuitesRoot: root)
    }

    /// The folder of the suite's sync state.
    var stateDirectory: String {
        appID.map { stateRoot + "/sync/apps/" + $0 } ?? stateRoot + "/sync/groups"
    }

    /// Where merged conflict copies are moved.
    var conflictArchive: String { stateRoot + "/sync/conflicts" }

    /// The suites under `root` whose sync was enabled, sorted.
    static func enabled(root: String) -> [SyncPaths] {
        let stateRoot = stateRoot(forSuitesRoot: root)
        let files = FileManager.default
        var found: [SyncPaths] = []
        func states(in folder: String) -> [String] {
            ((try? files.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .map { String($0.dropLast(".json".count)) }
                .sorted()
        }
        for name in states(in: stateRoot + "/sync/groups") {
            found.append(SyncPaths(root: root, suiteName: name, appID: nil))
        }
        for app in ((try? files.contentsOfDirectory(atPath: stateRoot + "/sync/apps")) ?? []).sorted() where !app.hasPrefix(".") {
            for name in states(in: stateRoot + "/sync/apps/" + app) {
                found.append(SyncPaths(root: root, suiteName: name, appID: app))
            }
        }
        return found
    }
}
