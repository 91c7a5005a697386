#if Secrets
import Foundation

/// Items found by attributes other than `service` and `account`: another program's items, such
/// as git-credential-libsecret's (``SecretServiceStore/AttributeItem``).
///
/// - **Finding.** The items whose attributes include the query's, unlocked first (a locked one is
///   unlocked only when ``allowsPrompt`` is set), at most `limit` of them, each with its secret
///   and the attributes asked for. An empty answer from a locked keyring is "could not look".
/// - **Storing.** One item per exact set of identifying attributes: the new item is created (the
///   service replaces one with exactly the same attributes, its `xdg:schema` included), then
///   every other item whose identifying attributes are exactly the same (one another schema
///   made) is deleted, so that a search never finds a stale twin first.
/// - **Deleting.** Every item the query finds that the caller does not keep.
extension SecretServicePolicy {
    /// The items whose attributes include `query`: unlocked ones first, at most `limit`.
    func items(matching query: [String: String], reading names: [String], limit: Int) throws(ShimFailure) -> [SecretServiceStore.AttributeItem] {
        let found = try calls.search(query)
        if found.isEmpty {
            try checkMissIsReal()
            return []
        }
        if found.unlocked.isEmpty { try unlock(found.locked, because: "the items are locked") }
        var items: [SecretServiceStore.AttributeItem] = []
        for path in (found.unlocked + found.locked).prefix(limit) {
            if let item = try item(at: path, reading: names) { items.append(item) }
        }
        return items
    }

    /// Creates the item of `attributes` (identified by the names in `identifying`) under
    /// `schema` in the collection with ``alias``, then deletes its twins.
    func storeItem(
        attributes: [String: String], identifying: [String], schema: String, label: String, secret: Data, isText: Bool
    ) throws(ShimFailure) {
        let made = try create(attributes, expiry: nil, schema: schema, alias: alias, label: label, secret: secret, isText: isText)
        let twins = try calls.search(attributes)
        for path in twins.unlocked + twins.locked where path != made {
            if try isTwin(path, of: attributes, identifying: identifying) {
                if let prompt = try calls.delete(path) { _ = try calls.prompt(prompt) }
            }
        }
    }

    /// Deletes the items `query` finds that `keep` does not keep (it sees each item's secret and
    /// the attributes named in `names`); how many.
    func deleteItems(
        matching query: [String: String], reading names: [String], keep: (SecretServiceStore.AttributeItem) -> Bool
    ) throws(ShimFailure) -> Int {
        let found = try calls.search(query)
        if found.isEmpty {
            try checkMissIsReal()
            return 0
        }
        if !found.locked.isEmpty { try unlock(found.locked, because: "the items are locked") }
        var deleted = 0
        for path in found.unlocked + found.locked {
            if let item = try item(at: path, reading: names), keep(item) { continue }
            if let prompt = try calls.delete(path) { _ = try calls.prompt(prompt) }
            deleted += 1
        }
        return deleted
    }

    /// The item at `path` with its secret and the attributes named in `names`; `nil` when the
    /// service gives no secret for it.
    private func item(at path: String, reading names: [String]) throws(ShimFailure) -> SecretServiceStore.AttributeItem? {
        guard let secret = try calls.secret(at: path) else { return nil }
        var attributes: [String: String] = [:]
        for name in names {
            if let value = try calls.attribute(name, of: path) { attributes[name] = value }
        }
        return SecretServiceStore.AttributeItem(path: path, attributes: attributes, secret: secret)
    }

    /// Whether the item at `path` has exactly `attributes` among the `identifying` names: the
    /// same values, and none of the names `attributes` leaves out.
    private func isTwin(_ path: String, of attributes: [String: String], identifying: [String]) throws(ShimFailure) -> Bool {
        for name in identifying where attributes[name] == nil {
            if try calls.attribute(name, of: path) != nil { return false }
        }
        return true
    }
}
#endif
