/// How ``DeviceSync/status`` tells whether the sync engine looks after the folder — what
/// ``SyncStatus/engineNotRunning(reason:)`` means.
///
/// Device sync works with any folder-sync engine that replaces whole files (Syncthing,
/// Nextcloud, Dropbox): it only reads and writes files. This setting only decides what the
/// status reports, and whether Syncthing is asked to rescan at once after a publish.
public enum SyncEngineCheck: Sendable, Hashable {
    /// Syncthing, through its REST API: its address and API key are read from `config.xml` in
    /// `home` (its `--home`, e.g. `~/.local/state/syncthing` or `~/.config/syncthing`). The
    /// engine is "not running" when the API does not answer, or when no folder it shares holds
    /// the sync folder, or when that folder is paused there. After each publish, Syncthing is
    /// asked to rescan the replica at once instead of after its watcher's delay.
    case syncthing(home: String)
    /// A marker the engine keeps in the root of every folder it shares — Syncthing's `.stfolder`
    /// by default: the engine is "not running" when neither the sync folder nor a folder above
    /// it holds one (no engine was ever set to share it). It cannot tell a stopped engine.
    case folderMarker(String)
    /// No check: the status never says the engine is not running.
    case none

    /// Syncthing's folder marker.
    public static let syncthingMarker = SyncEngineCheck.folderMarker(".stfolder")
}
