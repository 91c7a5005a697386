import Foundation

/// Where a suite's device sync stands, as ``DeviceSync/status`` and `rizq-prefs sync status`
/// report it. Reads and writes of the suite never wait on any of these: sync is local first.
public enum SyncStatus: Sendable, Hashable, CustomStringConvertible {
    /// This device has not merged another device's replica yet, so it publishes nothing (its
    /// changes are kept, with their stamps, and published after the first merge). Ends when
    /// another device's replica arrives, or with `--first-device`.
    case initialSync
    /// The folder and the engine are there and this device publishes; `lastMerge` is when it
    /// last read the folder (`nil`: not yet in this state file's life).
    case upToDate(lastMerge: Date?)
    /// The synced folder does not exist (not created yet, or on a disk that is not mounted).
    case folderMissing(path: String)
    /// The sync engine does not look after the folder, as ``SyncEngineCheck`` tells it:
    /// Syncthing's REST API does not answer, or shares no folder holding this one, or has it
    /// paused; or no engine's marker (`.stfolder`) is in or above the folder. Changes are still
    /// made and published locally; they travel when the engine runs again.
    case engineNotRunning(reason: String)

    /// One line for people.
    public var description: String {
        switch self {
        case .initialSync: return "initial sync: waiting for another device's replica (nothing published yet)"
        case .upToDate(let lastMerge):
            return "up to date" + (lastMerge.map { " (last merge \(ISO8601DateFormatter().string(from: $0)))" } ?? "")
        case .folderMissing(let path): return "folder missing: \(path)"
        case .engineNotRunning(let reason): return "engine not running: \(reason)"
        }
    }
}
