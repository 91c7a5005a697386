import RizqPrefs

/// Why device sync refused a change or could not do its work.
///
/// Every message says what happened and what to do. A refused change leaves the suite, this
/// device's replica and the synced folder as they were. No message ever holds a value: a value
/// refused as a secret is named by its key only.
public enum SyncError: Error, Sendable, Equatable {
    /// The value looks like a credential (the same classifier that keeps tokens out of suites
    /// on import), and a synced key never carries one. `reason` names the evidence, never the value.
    case secretRefused(key: String, reason: String)
    /// The change would break the suite's sync limits (``SyncLimits``, such as Apple's for
    /// `NSUbiquitousKeyValueStore`). `limit` says which one.
    case quotaExceeded(key: String, limit: String)
    /// Sync was never enabled for the suite (`rizq-prefs sync enable`, or
    /// ``RizqPrefs/SuiteStore/enableDeviceSync(_:replicaID:)``).
    case notEnabled(suite: String)
    /// The configuration cannot work: a relative folder, a folder inside the suite's own
    /// folders, an invalid key list.
    case invalidConfiguration(String)
    /// The suite, the replica, or the sync state could not be read or written.
    case storage(SuiteStoreError)
    /// A file in the synced folder or the sync state is not what this version writes.
    case unreadableReplica(path: String, reason: String)
    /// This machine's replica id could not be had: `RIZQ_PREFS_REPLICA_ID` is not a replica id,
    /// or the state folder cannot keep one (`reason`: which, and what to do).
    case replicaIdentity(reason: String)
    /// The device is this one: a device cannot forget itself.
    case cannotForgetSelf(String)
    /// The key is not synced (neither listed nor marked `sync: true`).
    case keyNotSynced(key: String)
    /// No device of this id is known to this suite: none merged, none forgotten, no replica file
    /// of that name. `known` lists the devices that are.
    case unknownDevice(id: String, known: [String])
}

extension SyncError: CustomStringConvertible {
    /// One line: the cause and the fix.
    public var description: String {
        switch self {
        case .secretRefused(let key, let reason):
            return "key '\(key)' is synced, and its value looks like a credential (\(reason)); nothing was written: keep secrets in a SecretStore (rizq-prefs secret set), or stop syncing the key"
        case .quotaExceeded(let key, let limit):
            return "key '\(key)' was not written: it would exceed the sync limit of \(limit); remove other synced keys or store less"
        case .notEnabled(let suite):
            return "device sync is not enabled for suite '\(suite)'; enable it with 'rizq-prefs sync enable \(suite) --folder PATH'"
        case .invalidConfiguration(let problem):
            return "device sync cannot be set up: \(problem)"
        case .storage(let error):
            return error.description
        case .unreadableReplica(let path, let reason):
            return "cannot use \(path): \(reason); move it away (it is left as it is), then sync again"
        case .replicaIdentity(let reason):
            return reason
        case .keyNotSynced(let key):
            return "key '\(key)' is not synced; list it ('rizq-prefs sync enable … --keys \(key)') or declare it with Key(…, sync: true)"
        case .unknownDevice(let id, let known):
            return "no device '\(id)' is known to this suite (" + (known.isEmpty ? "it has merged no other device" : "known: " + known.joined(separator: ", "))
                + "); nothing was changed: take the id from 'rizq-prefs sync status --json' (\"devices\")"
        case .cannotForgetSelf(let id):
            return "'\(id)' is this device's own replica id; run 'rizq-prefs sync forget-device' on another device"
        }
    }
}
