import Foundation
import Logging
import RizqCore
import RizqPrefs
#if canImport(Glibc)
import Glibc
#endif

/// The one-time move of the sync states earlier releases kept under `~/.config/rizq-prefs/sync`
/// — a folder sandboxed apps may be given — to the state root (``SyncPaths``).
///
/// A sync state names the folder its suite is published to, so one a sandbox planted there
/// would send the host's suite where the sandbox chose. A state is carried over only when the
/// folder it names already holds this device's replica (the host has published there before,
/// under its own device id, which no sandbox is given); any other is left where it is, unread,
/// and named in a warning with the command that enables its sync again. The move runs once: the
/// new folder's `apps/` and `groups/`, made even when there is nothing to move, mark it done
/// (not the folder itself, which an archived conflict copy may make first), and a file planted
/// in the old folder later is never read.
///
/// Device sync runs it before it reads a state (``prepare(forSuitesRoot:)``, from `DeviceSync`).
enum SyncStateMove {
    /// Moves the sync states an earlier release kept under the suites' root `root` to its
    /// state root, once; nothing when the two are the same (a root of its own).
    static func prepare(forSuitesRoot root: String) {
        let stateRoot = SyncPaths.stateRoot(forSuitesRoot: root)
        if stateRoot != root { runOnce(from: root + "/sync", to: stateRoot + "/sync") }
    }

    /// Moves what `old` holds into `new`, once (see the type's documentation).
    static func runOnce(from old: String, to new: String) {
        var info = stat()
        guard lstat(new + "/apps", &info) != 0, lstat(new + "/groups", &info) != 0 else { return }
        do {
            try PrivateFolder.ensure(new, trust: .settings("sync state folder"))
            try PrivateFolder.ensure(new + "/apps", trust: .settings("sync state folder"))
            try PrivateFolder.ensure(new + "/groups", trust: .settings("sync state folder"))
        } catch {
            DeviceSync.logger.warning("cannot make the sync state folder: \(error.reason)", metadata: ["path": "\(new)"])
            return
        }
        guard lstat(old, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        let device = try? ReplicaIdentity.current()
        var states: [(folder: String, name: String, app: String?)] = []
        for name in PrivateFolder.names(in: old + "/groups").sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            states.append(("groups", name, nil))
        }
        for app in PrivateFolder.names(in: old + "/apps").sorted() where !app.hasPrefix(".") {
            for name in PrivateFolder.names(in: old + "/apps/" + app).sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
                states.append(("apps/" + app, name, app))
            }
        }
        for state in states {
            let from = old + "/" + state.folder + "/" + state.name
            let to = new + "/" + state.folder + "/" + state.name
            let suite = String(state.name.dropLast(".json".count))
            let published = device.flatMap { publishedFolder(of: from, device: $0) }
            guard let published else {
                let appOption = state.app.map { " --app '\($0)'" } ?? ""
                DeviceSync.logger.warning(
                    "device sync of suite \(suite) was not carried over from \(from): it was kept in a folder sandboxed apps may be given, and the folder it names holds no replica of this device, so it is not believed; run `rizq-prefs sync enable --suite '\(suite)'\(appOption) --folder FOLDER` to sync it again, then remove the old file")
                continue
            }
            do {
                try PrivateFolder.ensure(new + "/" + state.folder, trust: .settings("sync state folder"))
                try AtomicFile.move(from, to: to, replacing: false, subject: "sync state")
                DeviceSync.logger.warning("moved the device-sync state of suite \(suite) (folder \(published)) from \(from) to \(to): sandboxed apps may be given the old folder")
            } catch {
                DeviceSync.logger.warning("cannot move the device-sync state of suite \(suite) from \(from) to \(to): \(error.reason)")
            }
        }
    }

    /// The folder the state at `path` publishes to, when it holds this device's replica.
    private static func publishedFolder(of path: String, device: String) -> String? {
        guard let (bytes, _) = try? PrivateFile.read(path, trust: .settings("sync state"), limit: 256 << 20),
            let state = try? SyncState(parsing: bytes, path: path)
        else { return nil }
        let folder = state.configuration.folder
        var info = stat()
        guard lstat(folder + "/" + ReplicaFolder.replicaPrefix + device + ".json", &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            info.st_uid == geteuid()
        else { return nil }
        return folder
    }
}
