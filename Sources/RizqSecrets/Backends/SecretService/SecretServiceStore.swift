#if Secrets
import Foundation
import Logging
import RizqCore

/// Secrets in the desktop's Secret Service (GNOME Keyring, KWallet, KeePassXC), through
/// libsecret.
///
/// Items carry the attributes `service` and `account` under the schema
/// ``schemaName`` (`org.rizq.Prefs.Secret`), so `secret-tool lookup service S account A` finds
/// what this store saved, and this store finds what `secret-tool store` saved. Reads match on
/// the attributes only, whatever schema created the item.
///
/// Calls block on D-Bus, so they run on one serial worker thread (never on the Swift
/// concurrency pool); the caller waits at most ``timeout`` seconds. The connection and session
/// stay open across calls, and a read remembers where the item is (its D-Bus path, never its
/// secret), so that reading it again is one round trip as long as the service reports no change.
/// Nothing prompts the user unless ``allowsPrompt`` is set.
///
/// libsecret is loaded when the first call is made, not linked: a program that uses this store
/// starts on a machine without Debian's `libsecret-1-0`, and there each call fails with
/// ``/RizqCore/SecretError/libsecretMissing(detail:)``, whose message says to install it.
///
/// ```swift
/// let secrets = SecretServiceStore(service: "com.rizq.app")
/// try secrets.setSecret(token, forAccount: "auth_token", label: "RIZQ sign-in")
/// let token = try await secrets.secret(forAccount: "auth_token")
/// ```
public struct SecretServiceStore: SecretStore {
    /// Where new items go.
    public enum Collection: String, Sendable {
        /// The user's default keyring (alias `default`): kept across logins.
        case `default`
        /// The session keyring (alias `session`): forgotten when the daemon stops.
        case session
    }

    /// The largest secret a store takes (32 MiB): a larger one is refused with
    /// ``/RizqCore/SecretError/invalidInput(reason:)`` before anything is sent. D-Bus carries at most 64 MiB
    /// in one array, and near that size the daemon, or the connection, fails.
    public static let maximumSecretSize = SecretInput.maximumSecretSize

    /// The libsecret schema name of the items this store creates.
    public static let schemaName = "org.rizq.Prefs.Secret"

    /// The `service` attribute of every item (default: `RIZQ_PREFS_APP_ID`, else the
    /// executable's name).
    public let service: String
    /// Where new items go.
    public let collection: Collection
    /// How long a call may take before it fails with ``/RizqCore/SecretError/timedOut(seconds:)``.
    public let timeout: Double
    /// Whether a locked keyring may be unlocked by prompting the user.
    public let allowsPrompt: Bool
    /// How long the short look of ``probe()`` (and a chain's choice of its write target) may
    /// take, seconds: a daemon that does not answer in time is there but not answering.
    public let probeTimeout: Double
    /// How long each D-Bus round trip of a call may take: three quarters of ``timeout``, so that
    /// a frozen service fails the round trip, and frees the worker thread, before the caller
    /// stops waiting (instead of holding the worker for GDBus's 25 s). Every call passes it to
    /// the shim with each D-Bus call: two stores with different time-outs each keep their own.
    package let roundTripTimeout: Double

    /// A store for `service` in `collection`.
    public init(service: String? = nil, collection: Collection = .default, timeout: Double = 5, allowsPrompt: Bool = false, probeTimeout: Double = 2) {
        self.init(
            service: service, collection: collection, timeout: timeout, allowsPrompt: allowsPrompt, roundTripTimeout: timeout * 0.75,
            probeTimeout: probeTimeout)
    }

    /// A store whose D-Bus round trips have a time-out of their own (tests: a round trip that
    /// times out long before the caller would stop waiting).
    package init(
        service: String? = nil, collection: Collection = .default, timeout: Double, allowsPrompt: Bool = false, roundTripTimeout: Double,
        probeTimeout: Double = 2
    ) {
        self.service = service ?? AppIdentity.current
        self.collection = collection
        self.timeout = timeout
        self.allowsPrompt = allowsPrompt
        self.roundTripTimeout = roundTripTimeout
        self.probeTimeout = probeTimeout
    }

    // MARK: Synchronous

    /// Stores the secret, replacing the item's secret if one exists (whoever created it), with no
    /// lifetime (an expiry or refresh token the item had goes).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: nil)
    }

    /// Stores the secret with its lifetime: the expiry as the item's `password_expiry_utc`
    /// attribute (Unix seconds), the refresh token as an item of its own, under the schema
    /// `org.rizq.Prefs.RefreshToken` (never an attribute: a locked keyring shows those).
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label, secretSize: bytes.count, lifetime: lifetime)
        try SecretWorker.shared.run(timeout: timeout, storeOperation(bytes, isText, account, label, lifetime))
    }

    /// The stored bytes, or `nil` when there is no item, or the secret expired.
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try SecretInput.validate(service: service, account: account)
        return try SecretWorker.shared.run(timeout: timeout, lookupOperation(account, withRefreshToken: false))?.bytes
    }

    /// The stored secret, found or expired (with its refresh token), or `nil` when there is no item.
    public func readSecret(forAccount account: String) throws(SecretError) -> SecretReading? {
        try SecretInput.validate(service: service, account: account)
        return try SecretWorker.shared.run(timeout: timeout, lookupOperation(account, withRefreshToken: true))
    }

    /// Deletes every item of the account; `false` when there was none.
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        return try SecretWorker.shared.run(timeout: timeout, deleteOperation(account))
    }

    /// The accounts with items under ``service``, sorted; never the secrets.
    public func accounts() throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        return try SecretWorker.shared.run(timeout: timeout, listOperation())
    }

    // MARK: Asynchronous

    /// Stores the secret; the calling task is suspended, not blocked.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) async throws(SecretError) {
        try await storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: nil)
    }

    /// Stores the secret with its lifetime; the calling task is suspended, not blocked.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?, lifetime: SecretLifetime?) async throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label, secretSize: bytes.count, lifetime: lifetime)
        try await SecretWorker.shared.run(timeout: timeout, storeOperation(bytes, isText, account, label, lifetime))
    }

    /// The stored bytes, or `nil`; the calling task is suspended, not blocked.
    public func secretBytes(forAccount account: String) async throws(SecretError) -> Data? {
        try SecretInput.validate(service: service, account: account)
        return try await SecretWorker.shared.run(timeout: timeout, lookupOperation(account, withRefreshToken: false))?.bytes
    }

    /// The stored secret, found or expired, or `nil`; the calling task is suspended, not blocked.
    public func readSecret(forAccount account: String) async throws(SecretError) -> SecretReading? {
        try SecretInput.validate(service: service, account: account)
        return try await SecretWorker.shared.run(timeout: timeout, lookupOperation(account, withRefreshToken: true))
    }

    /// Deletes the account's items; the calling task is suspended, not blocked.
    public func deleteSecret(forAccount account: String) async throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        return try await SecretWorker.shared.run(timeout: timeout, deleteOperation(account))
    }

    /// The accounts; the calling task is suspended, not blocked.
    public func accounts() async throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        return try await SecretWorker.shared.run(timeout: timeout, listOperation())
    }

    // MARK: Keyring state

    /// Whether the keyring new items go to exists and is locked (for diagnostics such as
    /// `rizq-prefs doctor`).
    public func keyringStatus() throws(SecretError) -> (exists: Bool, locked: Bool) {
        let (alias, timeout, roundTrip) = (collection.rawValue, timeout, roundTripTimeout)
        return try SecretWorker.shared.run(timeout: timeout) { () throws(SecretError) -> KeyringStatus in
            let status = try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip, alias: alias) {
                calls, _ throws(ShimFailure) in try SecretServicePolicy(calls: calls, allowsPrompt: false).keyringStatus(alias: alias)
            }
            return KeyringStatus(exists: status.exists, locked: status.locked)
        }.pair
    }

    /// Locks the keyring new items go to (unlocking it again takes the user's password).
    public func lockKeyring() throws(SecretError) {
        let (alias, timeout, roundTrip) = (collection.rawValue, timeout, roundTripTimeout)
        try SecretWorker.shared.run(timeout: timeout) { () throws(SecretError) in
            try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip, alias: alias) { calls, _ throws(ShimFailure) in
                try SecretServicePolicy(calls: calls, allowsPrompt: false).lockKeyring(alias: alias)
            }
        }
    }

    // MARK: Operations (run on the worker)

    private func key(_ account: String) -> SecretPathCache.Key {
        SecretPathCache.Key(service: service, account: account)
    }

    private func storeOperation(
        _ bytes: Data, _ isText: Bool, _ account: String, _ label: String?, _ lifetime: SecretLifetime?
    ) -> @Sendable () throws(SecretError) -> Void {
        let (key, alias, prompt, timeout, roundTrip) = (key(account), collection.rawValue, allowsPrompt, timeout, roundTripTimeout)
        let label = label ?? SecretInput.defaultLabel(service: service, account: account)
        // Text holding U+0000 goes as bytes (application/octet-stream): KWallet keeps a text/plain
        // secret as a Qt string, which ends at the first NUL. Read back, it is the same text.
        let isText = isText && !bytes.contains(0)
        return { () throws(SecretError) in
            try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip, alias: alias) { calls, paths throws(ShimFailure) in
                try SecretServicePolicy(calls: calls, allowsPrompt: prompt)
                    .store(bytes, isText: isText, for: key, label: label, schema: Self.schemaName, alias: alias, lifetime: lifetime, paths: &paths)
            }
            Logger.rizqSecrets.debug("stored a secret", metadata: ["service": "\(key.service)", "account": "\(key.account)"])
        }
    }

    private func lookupOperation(_ account: String, withRefreshToken: Bool) -> @Sendable () throws(SecretError) -> SecretReading? {
        let (key, prompt, timeout, roundTrip, alias) = (key(account), allowsPrompt, timeout, roundTripTimeout, collection.rawValue)
        return { () throws(SecretError) -> SecretReading? in
            let found = try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip) { calls, paths throws(ShimFailure) in
                try SecretServicePolicy(calls: calls, allowsPrompt: prompt, alias: alias).reading(key, withRefreshToken: withRefreshToken, paths: &paths)
            }
            Logger.rizqSecrets.debug("looked up a secret", metadata: ["service": "\(key.service)", "account": "\(key.account)", "found": "\(found != nil)"])
            return found
        }
    }

    private func deleteOperation(_ account: String) -> @Sendable () throws(SecretError) -> Bool {
        let (key, prompt, timeout, roundTrip, alias) = (key(account), allowsPrompt, timeout, roundTripTimeout, collection.rawValue)
        return { () throws(SecretError) -> Bool in
            let found = try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip) { calls, paths throws(ShimFailure) in
                try SecretServicePolicy(calls: calls, allowsPrompt: prompt, alias: alias).delete(key, paths: &paths)
            }
            Logger.rizqSecrets.debug("deleted a secret", metadata: ["service": "\(key.service)", "account": "\(key.account)", "found": "\(found)"])
            return found
        }
    }

    private func listOperation() -> @Sendable () throws(SecretError) -> [String] {
        let (service, prompt, timeout, roundTrip, alias) = (service, allowsPrompt, timeout, roundTripTimeout, collection.rawValue)
        return { () throws(SecretError) -> [String] in
            let accounts = try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip) { calls, _ throws(ShimFailure) in
                try SecretServicePolicy(calls: calls, allowsPrompt: prompt, alias: alias).accounts(of: service)
            }
            Logger.rizqSecrets.debug("listed accounts", metadata: ["service": "\(service)", "items": "\(accounts.count)"])
            return accounts
        }
    }
}

extension SecretServiceStore {
    /// Whether the one libsecret thread is free, as seen within `seconds`: the tests' way to see
    /// that a timed-out call did not keep it (its round trips have time-outs of their own).
    package static func workerIsFree(within seconds: Double) -> Bool {
        (try? SecretWorker.shared.run(timeout: seconds) { () throws(SecretError) in true }) ?? false
    }
}

/// Sendable carrier for ``SecretServiceStore/keyringStatus()``.
private struct KeyringStatus: Sendable {
    var exists: Bool
    var locked: Bool
    var pair: (exists: Bool, locked: Bool) { (exists, locked) }
}
#endif
