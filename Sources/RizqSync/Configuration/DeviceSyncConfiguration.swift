#if canImport(Glibc)
import Glibc
#endif

/// How a suite is synced between the user's devices: where the replicas go, which keys, and
/// with which limits. Kept in the suite's sync state, so that an app and `rizq-prefs sync`
/// work from the same settings.
///
/// ```swift
/// var configuration = DeviceSyncConfiguration(folder: home + "/Sync/rizq/com.example.notes")
/// configuration.keys = ["theme", "fontSize"]      // besides the keys marked sync: true
/// configuration.limits = .apple                    // for code shared with iOS
/// let sync = try store.enableDeviceSync(configuration)
/// ```
public struct DeviceSyncConfiguration: Sendable, Hashable {
    /// The folder the sync engine shares (or a folder inside it), which holds the replicas of
    /// this suite only: one `replica-<device>.json` per device. An absolute path.
    public var folder: String
    /// Keys synced besides those marked `sync: true` (``includesMarkedKeys``).
    public var keys: [String]
    /// Whether keys declared with `Key(…, sync: true)` are synced. Their names are remembered
    /// in the sync state as apps mark them, so that `rizq-prefs sync now` knows them too.
    public var includesMarkedKeys: Bool
    /// Whether this device starts the synced state: it publishes at once, and its values win
    /// over those another device had before it joined. Otherwise this device publishes nothing
    /// until it has merged another device's replica (``SyncStatus/initialSync``).
    public var isFirstDevice: Bool
    /// Limits on the synced keys (``SyncLimits/apple`` for code shared with iOS).
    public var limits: SyncLimits
    /// How long a deleted key's tombstone is kept (default 90 days). A device that comes back
    /// after a longer absence can bring the deleted key back; ``SyncEvent/staleReplica(id:newest:)``
    /// reports such replicas.
    public var tombstoneRetention: Duration
    /// What the status checks (default: Syncthing's `.stfolder` marker).
    public var engineCheck: SyncEngineCheck

    /// A configuration with the defaults: the keys marked `sync: true`, no limits, tombstones
    /// kept 90 days, Syncthing's folder marker checked, not the first device.
    public init(
        folder: String, keys: [String] = [], includesMarkedKeys: Bool = true, isFirstDevice: Bool = false,
        limits: SyncLimits = .none, tombstoneRetention: Duration = .seconds(90 * 86_400),
        engineCheck: SyncEngineCheck = .syncthingMarker
    ) {
        self.folder = folder
        self.keys = keys
        self.includesMarkedKeys = includesMarkedKeys
        self.isFirstDevice = isFirstDevice
        self.limits = limits
        self.tombstoneRetention = tombstoneRetention
        self.engineCheck = engineCheck
    }

    /// Why the configuration cannot work, or `nil`.
    var problem: String? {
        if !folder.hasPrefix("/") { return "the folder '\(folder)' is not an absolute path" }
        if let bad = keys.first(where: \.isEmpty) { return "the key list holds an empty key name\(bad)" }
        if tombstoneRetention < .zero { return "the tombstone retention is negative" }
        return nil
    }

    /// The retention in milliseconds (saturated: a retention of any length never traps).
    var retentionMilliseconds: Int64 {
        let (seconds, attoseconds) = tombstoneRetention.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? 0 : Int64.max }
        let (sum, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflowAgain ? Int64.max : sum
    }

    /// `folder` written one way: no empty or `.` components, so no `//`, `/./` or trailing `/`
    /// (`/home/u/Sync/./notes/` → `/home/u/Sync/notes`). `..` stays: behind a link it is not
    /// the lexical parent. ``DeviceSync`` keeps the folder in this form, and takes two folders
    /// for one when these forms agree or they are the same folder on disk (so `--folder DIR/`
    /// given again is no account change).
    static func normalized(_ folder: String) -> String {
        guard folder.hasPrefix("/") else { return folder }
        let parts = folder.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether `left` and `right` name one folder: the same ``normalized(_:)`` form, or the
    /// same folder on disk (device and inode: `..`, links).
    static func sameFolder(_ left: String, _ right: String) -> Bool {
        if normalized(left) == normalized(right) { return true }
        var first = stat()
        var second = stat()
        guard stat(left, &first) == 0, stat(right, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
