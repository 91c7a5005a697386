#if Secrets
import Foundation
import RizqCore

/// What RizqSecrets does with the Secret Service: which D-Bus calls an operation takes, and what
/// their answers mean. The C shim makes the calls and decides nothing (``SecretServiceCalls``);
/// every decision is here, beside its tests (`SecretServicePolicyTests`).
///
/// - **Upsert.** Storing finds the account's items by their `service` and `account` attributes,
///   whoever made them (`secret-tool store`, another app): if there is one, its secret and label
///   are replaced, so that an account never has two items; otherwise a new item is created in
///   the collection the store writes to, with the schema's name as its `xdg:schema` attribute
///   (as libsecret writes it).
/// - **Listing.** The accounts of a service are the `account` attributes of the items a search
///   for its `service` finds, locked or not (attributes are readable while locked; no secret is
///   read), each once, sorted.
/// - **Locked and prompts.** A locked item or collection is unlocked only when
///   ``allowsPrompt`` is set: then the service's unlock prompt is performed, and one that
///   unlocked nothing was dismissed (``SecretServiceFailure/promptDismissed``); without it, the
///   operation fails with ``SecretServiceFailure/locked`` and nothing is shown to the user.
///   Creating and deleting happen only on unlocked objects (checked first, or unlocked as
///   above), so a prompt the service asks for then is its own step, not an unlock: KeePassXC
///   answers every `CreateItem` and `Delete` with one, which it completes at once when its
///   confirmations are off (GNOME Keyring asks for none). It is performed whatever
///   ``allowsPrompt`` says (with a confirmation turned on in KeePassXC, that is the dialog the
///   user asked for; headless, the call ends with its time-out), and a search afterwards tells
///   whether it was dismissed (its result does not say).
/// - **Reads** go through ``SecretPathCache``: the remembered item path while no change signal
///   came, else a search. A search that finds nothing while the store's keyring is locked is
///   ``SecretServiceFailure/locked``, not a miss: a locked KeePassXC lists none of its items.
struct SecretServicePolicy<Calls: SecretServiceCalls> {
    /// The calls, with their round-trip time-out.
    let calls: Calls
    /// Whether a locked item or collection may be unlocked by prompting the user.
    let allowsPrompt: Bool
    /// The alias of the keyring the store works with, whose lock tells a miss from an item that
    /// a locked keyring hides.
    var alias = "default"

    /// The attributes of `key`'s items.
    static func attributes(of key: SecretPathCache.Key) -> [String: String] {
        ["service": key.service, "account": key.account]
    }

    /// Stores `secret` for `key` with `lifetime`: replaces the secret and label of the account's
    /// item, or creates one in the collection with `alias` under the schema named `schema`. The
    /// expiry is the item's `password_expiry_utc` attribute; no call changes an attribute in
    /// place, so an item whose expiry changes is made again and the old one deleted. The refresh
    /// token is an item of its own (``refreshTokenAttributes(of:)``), made or deleted to match.
    func store(
        _ secret: Data, isText: Bool, for key: SecretPathCache.Key, label: String, schema: String, alias: String,
        lifetime: SecretLifetime? = nil, paths: inout SecretPathCache
    ) throws(ShimFailure) {
        paths.forget(key)
        let expiry = lifetime?.expiryAttributeValue
        let found = try calls.search(Self.attributes(of: key))
        if let item = found.unlocked.first ?? found.locked.first {
            if found.unlocked.isEmpty { try unlock([item], because: "the item is locked") }
            if try calls.attribute(SecretLifetime.expiryAttribute, of: item) == expiry {
                try calls.setSecret(secret, isText: isText, at: item)
                try calls.setLabel(label, at: item)
            } else {
                let made = try create(Self.attributes(of: key), expiry: expiry, schema: schema, alias: alias, label: label, secret: secret, isText: isText)
                for old in found.unlocked + found.locked where old != made {
                    if let prompt = try calls.delete(old) { _ = try calls.prompt(prompt) }
                }
            }
        } else {
            _ = try create(Self.attributes(of: key), expiry: expiry, schema: schema, alias: alias, label: label, secret: secret, isText: isText)
        }
        try storeRefreshToken(lifetime?.refreshToken, of: key, alias: alias)
    }

    /// Creates the item of `attributes` (with `expiry`, when given) under `schema` in the
    /// collection with `alias`, replacing the one with exactly these attributes: its path. A
    /// prompt the service asks for is its own step; one that made nothing was dismissed.
    func create(
        _ attributes: [String: String], expiry: String?, schema: String, alias: String, label: String, secret: Data, isText: Bool
    ) throws(ShimFailure) -> String {
        guard let collection = try calls.collection(alias: alias) else {
            throw ShimFailure(reason: .noCollection, detail: "there is no collection with the alias '\(alias)'")
        }
        if try calls.isLocked(collection: collection) { try unlock([collection], because: "the collection is locked") }
        var created = attributes
        created["xdg:schema"] = schema
        if let expiry { created[SecretLifetime.expiryAttribute] = expiry }
        let made = try calls.createItem(in: collection, attributes: created, label: label, secret: secret, isText: isText)
        if let prompt = made.prompt {
            // The collection is unlocked: the service's own step (see above).
            _ = try calls.prompt(prompt)
            if try calls.search(created).isEmpty { throw ShimFailure(reason: .promptDismissed, detail: "the prompt was dismissed") }
        }
        return made.item
    }

    /// The secret of `key` and its expiry attribute, or `nil` when there is no item: from the
    /// remembered path when nothing changed since it was found (one round trip), else searched
    /// for (three: the search, the expiry, the secret).
    func lookup(_ key: SecretPathCache.Key, paths: inout SecretPathCache) throws(ShimFailure) -> (secret: Data, expiry: String?)? {
        if let remembered = readRemembered(key, paths: &paths) { return remembered }
        let before = calls.changes
        let found = try calls.search(Self.attributes(of: key))
        guard let item = found.unlocked.first ?? found.locked.first else {
            try checkMissIsReal()
            return nil
        }
        let unlocked = !found.unlocked.isEmpty
        if !unlocked { try unlock(found.locked, because: "the item is locked") }
        let expiry = try calls.attribute(SecretLifetime.expiryAttribute, of: item)
        guard let secret = try calls.secret(at: item) else {
            // An item the search listed as unlocked whose secret did not come back is one this
            // session could not decrypt: a new session reads it (SecretServiceFailure.sessionRefused).
            throw unlocked
                ? ShimFailure(reason: .sessionRefused, detail: "the service gave no secret this session could decrypt for an unlocked item")
                : ShimFailure(reason: .locked, detail: "the service gave no secret for the item")
        }
        if let before { paths.remember(item, expiry: expiry, for: key, changesBefore: before) }
        return (secret, expiry)
    }

    /// What is stored for `key`, expired or not, or `nil`; with its refresh token when
    /// `withRefreshToken` (one search more, and its secret).
    func reading(_ key: SecretPathCache.Key, withRefreshToken: Bool, paths: inout SecretPathCache) throws(ShimFailure) -> SecretReading? {
        guard let found = try lookup(key, paths: &paths) else { return nil }
        var lifetime = SecretLifetime(expires: SecretLifetime.expiry(attribute: found.expiry))
        if withRefreshToken { lifetime.refreshToken = try refreshToken(of: key) }
        return SecretReading.of(found.secret, lifetime: lifetime)
    }

    // MARK: Refresh tokens

    /// The attributes of the item that keeps `key`'s refresh token: neither `service` nor
    /// `account`, so that no search for the account (or `secret-tool lookup`) finds it and no
    /// listing of the service names it.
    static func refreshTokenAttributes(of key: SecretPathCache.Key) -> [String: String] {
        ["refresh_token_service": key.service, "refresh_token_account": key.account]
    }

    /// The schema name of the items that keep refresh tokens.
    static var refreshTokenSchema: String { "org.rizq.Prefs.RefreshToken" }

    /// Makes the item holding `token` for `key` (replacing the one there), or deletes it when
    /// `token` is `nil`.
    private func storeRefreshToken(_ token: String?, of key: SecretPathCache.Key, alias: String) throws(ShimFailure) {
        let attributes = Self.refreshTokenAttributes(of: key)
        guard let token else {
            try deleteRefreshToken(of: key)
            return
        }
        _ = try create(
            attributes, expiry: nil, schema: Self.refreshTokenSchema, alias: alias,
            label: "Refresh token of \(SecretInput.defaultLabel(service: key.service, account: key.account))", secret: Data(token.utf8),
            isText: true)
    }

    /// The refresh token kept for `key`, or `nil`.
    private func refreshToken(of key: SecretPathCache.Key) throws(ShimFailure) -> String? {
        let found = try calls.search(Self.refreshTokenAttributes(of: key))
        guard let item = found.unlocked.first ?? found.locked.first else { return nil }
        if found.unlocked.isEmpty { try unlock(found.locked, because: "the refresh token's item is locked") }
        guard let bytes = try calls.secret(at: item) else { return nil }
        let token = String(decoding: bytes, as: UTF8.self)
        // Another program's item: kept only what a refresh token may be.
        return SecretLifetime(refreshToken: token).problem == nil ? token : nil
    }

    /// Deletes the refresh token kept for `key`, if there is one.
    private func deleteRefreshToken(of key: SecretPathCache.Key) throws(ShimFailure) {
        let found = try calls.search(Self.refreshTokenAttributes(of: key))
        if !found.locked.isEmpty { try unlock(found.locked, because: "the refresh token's item is locked") }
        for item in found.unlocked + found.locked {
            if let prompt = try calls.delete(item) { _ = try calls.prompt(prompt) }
        }
    }

    /// Deletes every item of `key`; `false` when there was none.
    func delete(_ key: SecretPathCache.Key, paths: inout SecretPathCache) throws(ShimFailure) -> Bool {
        paths.forget(key)
        let found = try calls.search(Self.attributes(of: key))
        if found.isEmpty {
            try checkMissIsReal()
            return false
        }
        if !found.locked.isEmpty { try unlock(found.locked, because: "the item is locked") }
        var prompted = false
        for item in found.unlocked + found.locked {
            // Every item is unlocked by now: a prompt is the service's own step (see above).
            if let prompt = try calls.delete(item) {
                _ = try calls.prompt(prompt)
                prompted = true
            }
        }
        if prompted, try !calls.search(Self.attributes(of: key)).isEmpty {
            throw ShimFailure(reason: .promptDismissed, detail: "the prompt was dismissed")
        }
        try deleteRefreshToken(of: key)
        return true
    }

    /// The accounts with items under `service` (names only, never secrets), each once, sorted.
    func accounts(of service: String) throws(ShimFailure) -> [String] {
        let found = try calls.search(["service": service])
        if found.isEmpty { try checkMissIsReal() }
        var accounts = Set<String>()
        for item in found.unlocked + found.locked {
            if let account = try calls.attribute("account", of: item) { accounts.insert(account) }
        }
        return accounts.sorted()
    }

    /// Whether the collection with `alias` exists and is locked.
    func keyringStatus(alias: String) throws(ShimFailure) -> (exists: Bool, locked: Bool) {
        guard let collection = try calls.collection(alias: alias) else { return (false, false) }
        return (true, try calls.isLocked(collection: collection))
    }

    /// Locks the collection with `alias`. Locking is what the caller asked for, so a prompt the
    /// service wants for it is performed; a lock that locked nothing, at once or through its
    /// prompt, is an error (KeePassXC's prompt may complete without locking), never a success.
    func lockKeyring(alias: String) throws(ShimFailure) {
        guard let collection = try calls.collection(alias: alias) else {
            throw ShimFailure(reason: .noCollection, detail: "there is no collection with the alias '\(alias)'")
        }
        let locked = try calls.setLocked([collection], lock: true)
        var done = locked.done
        if let prompt = locked.prompt { done += try calls.prompt(prompt) }
        if !done.contains(collection), try !calls.isLocked(collection: collection) {
            throw ShimFailure(reason: .other, detail: "the service did not lock the \(alias) keyring (its answer named \(done))")
        }
    }

    // MARK: Locked

    /// A search that found nothing is a miss only if the keyring is not locked: GNOME Keyring
    /// lists a locked keyring's items as locked, but KeePassXC lists none of them, so an empty
    /// answer from a locked keyring means "could not look", never "not found".
    func checkMissIsReal() throws(ShimFailure) {
        guard let collection = try calls.collection(alias: alias) else { return }
        if try calls.isLocked(collection: collection) {
            throw ShimFailure(reason: .locked, detail: "the \(alias) keyring is locked, and a locked keyring may list none of its items (KeePassXC's does not)")
        }
    }

    /// Unlocks `objects` by prompting, when allowed; `detail` says what was locked. An unlock
    /// that unlocked nothing, at once or through its prompt, was dismissed.
    func unlock(_ objects: [String], because detail: String) throws(ShimFailure) {
        guard allowsPrompt else { throw ShimFailure(reason: .locked, detail: detail) }
        let unlocked = try calls.setLocked(objects, lock: false)
        var done = unlocked.done
        if let prompt = unlocked.prompt { done += try calls.prompt(prompt) }
        if done.isEmpty { throw ShimFailure(reason: .promptDismissed, detail: "the unlock prompt was dismissed") }
    }

    // MARK: Remembered paths

    /// The secret at the path remembered for `key`, if the count of changes stood still from
    /// before the search that found it until after this read (``SecretPathCache``); else `nil`,
    /// with the entry gone.
    private func readRemembered(_ key: SecretPathCache.Key, paths: inout SecretPathCache) -> (secret: Data, expiry: String?)? {
        guard let now = calls.changes, let remembered = paths.path(for: key, changes: now) else { return nil }
        if let secret = try? calls.secret(at: remembered.path), calls.changes == now { return (secret, remembered.expiry) }
        paths.forget(key)
        return nil
    }
}
#endif
