#if Secrets
import Foundation
import Logging

/// Items another program's schema identifies — git-credential-libsecret's `user`, `protocol`,
/// `server`, `port` and `object`, say — read and written the way that program does, so that
/// both see the same items (``NetworkCredentialStore`` keeps git's credentials this way).
/// They are not the store's ``SecretServiceStore/service`` items: ``SecretServiceStore/accounts()``
/// never lists them.
extension SecretServiceStore {
    /// An item found by its attributes: its secret and the attributes asked for.
    public struct AttributeItem: Sendable {
        /// The item's D-Bus object path.
        public var path: String
        /// The attributes asked for that the item has.
        public var attributes: [String: String]
        /// The item's secret.
        public var secret: Data
    }

    /// The items whose attributes include `query` (unlocked ones first), at most `limit`, each
    /// with its secret and those of the attributes named in `names` it has.
    public func items(matching query: [String: String], reading names: [String], limit: Int = 32) throws(SecretError) -> [AttributeItem] {
        try Self.validate(query)
        let (prompt, timeout, roundTrip, alias) = (allowsPrompt, timeout, roundTripTimeout, collection.rawValue)
        return try SecretWorker.shared.run(timeout: timeout) { () throws(SecretError) -> [AttributeItem] in
            try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip) { calls, _ throws(ShimFailure) in
                try SecretServicePolicy(calls: calls, allowsPrompt: prompt, alias: alias).items(matching: query, reading: names, limit: limit)
            }
        }
    }

    /// Stores `secret` in the item with `attributes` under the schema named `schema` (its
    /// `xdg:schema` attribute), replacing the item — or the items another schema made — whose
    /// attributes among `identifying` are exactly these.
    public func storeItem(
        attributes: [String: String], identifying: [String], schema: String, label: String, secret: Data, isText: Bool
    ) throws(SecretError) {
        try Self.validate(attributes)
        try SecretInput.validate(service: schema, account: nil, label: label, secretSize: secret.count)
        let (prompt, timeout, roundTrip, alias) = (allowsPrompt, timeout, roundTripTimeout, collection.rawValue)
        try SecretWorker.shared.run(timeout: timeout) { () throws(SecretError) in
            try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip, alias: alias) { calls, _ throws(ShimFailure) in
                try SecretServicePolicy(calls: calls, allowsPrompt: prompt, alias: alias).storeItem(
                    attributes: attributes, identifying: identifying, schema: schema, label: label, secret: secret, isText: isText)
            }
            Logger.rizqSecrets.debug("stored an item", metadata: ["schema": "\(schema)"])
        }
    }

    /// Deletes the items whose attributes include `query`, except those `keep` keeps (it sees
    /// each item's secret and the attributes named in `names`); how many it deleted.
    @discardableResult
    public func deleteItems(
        matching query: [String: String], reading names: [String] = [], keep: @escaping @Sendable (AttributeItem) -> Bool = { _ in false }
    ) throws(SecretError) -> Int {
        try Self.validate(query)
        let (prompt, timeout, roundTrip, alias) = (allowsPrompt, timeout, roundTripTimeout, collection.rawValue)
        return try SecretWorker.shared.run(timeout: timeout) { () throws(SecretError) -> Int in
            try SecretServiceSession.perform(timeout: timeout, roundTrip: roundTrip) { calls, _ throws(ShimFailure) in
                try SecretServicePolicy(calls: calls, allowsPrompt: prompt, alias: alias).deleteItems(matching: query, reading: names, keep: keep)
            }
        }
    }

    /// A query or attributes D-Bus can carry: no NUL byte, and at least one attribute (an empty
    /// query would find every item).
    private static func validate(_ attributes: [String: String]) throws(SecretError) {
        if attributes.isEmpty { throw .invalidInput(reason: "no attributes were given, and an empty query would find every item") }
        for (name, value) in attributes where name.utf8.contains(0) || value.utf8.contains(0) {
            throw .invalidInput(reason: "the attribute '\(name.replacingOccurrences(of: "\0", with: "\\0"))' contains a NUL byte")
        }
    }
}
#endif
