#if Secrets
import Crypto
import Foundation
import RizqAge

/// The vault's plaintext, what `age -d` prints: since this release a sealed JSON object
///
/// ```json
/// {"format":"rizq-prefs.vault.v2","generation":7,"items":{account: {data, isText, label, created, modified}},
///  "mac":["base64 HMAC-SHA256"],"service":"com.rizq.app"}
/// ```
///
/// (keys sorted, dates in ISO 8601 with milliseconds, `data` in base64). `mac` holds one tag per
/// identity the file is encrypted to (two only while ``VaultSecretStore/rekey()`` is under way),
/// each a ``VaultSeal`` over the service, the generation and every item: only the holder of the
/// vault's identity can make one, so a file someone encrypted to `recipient.txt` (the public key)
/// is refused. `generation` counts the writes; a machine's ``VaultGenerationRecord`` refuses an
/// older one.
///
/// The last release wrote the bare items object (`{account: {…}}`), with no seal: it still
/// reads (``isAuthenticated`` is then `false`, and ``VaultSecretStore`` rewrites it sealed at
/// once, unless this machine's record says the vault was sealed before).
struct VaultContents: Sendable, Equatable {
    var items: [String: VaultItem] = [:]
    /// The number of writes that made this version (0 for an old-format vault).
    var generation: UInt64 = 0
    /// Whether the contents carried a seal that verified (a new, empty vault counts as sealed).
    var isAuthenticated = true
    /// Each item as the last ``encoded(service:generation:sealKeys:)`` wrote it, so that the
    /// next one encodes only the items that changed (a set changes one of them; issue 39).
    private var encodings: Encodings = []

    init(items: [String: VaultItem] = [:], generation: UInt64 = 0, isAuthenticated: Bool = true) {
        self.items = items
        self.generation = generation
        self.isAuthenticated = isAuthenticated
    }

    /// Equal contents: the items, the generation, whether sealed (not what is cached).
    static func == (lhs: VaultContents, rhs: VaultContents) -> Bool {
        lhs.items == rhs.items && lhs.generation == rhs.generation && lhs.isAuthenticated == rhs.isAuthenticated
    }

    /// One item as the last write encoded it, valid while the item is `item`: its member of the
    /// `items` object (`"account":{…}`) and its part of the seal's input
    /// (``VaultSeal/input(account:item:)``).
    struct Encoding: Sendable {
        var account: String
        var item: VaultItem
        var member: [UInt8]
        var sealInput: [UInt8]
    }

    /// The items' encodings, accounts in the order of their UTF-8 bytes (the seal's and the
    /// file's order).
    typealias Encodings = [Encoding]

    /// What marks the sealed format: the start of its JSON (the encoder sorts the keys, so
    /// `format` comes first). An old-format vault cannot start so: its members are objects.
    static let format = "rizq-prefs.vault.v2"
    static let formatPrefix = Array(#"{"format":"rizq-prefs.vault.v"#.utf8)

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// One item as the JSON holds it: the dates as their text, so that the seal covers exactly
    /// what the file says.
    struct WireItem: Codable, Sendable {
        var data: Data
        var isText: Bool
        var label: String
        var created: String
        var modified: String
    }

    /// The sealed format's top level.
    struct WireVault: Codable, Sendable {
        var format: String
        var generation: UInt64
        var items: [String: WireItem]
        var mac: [String]
        var service: String
    }

    /// The bare items object (`{account: {…}}`): the plain-text backend's file, and the last
    /// release's vault.
    func encoded() throws(VaultError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(wireItems())
        } catch {
            throw .invalidInput(reason: "the vault's contents could not be encoded as JSON")
        }
    }

    /// Decodes the bare items object (``encoded()``): anything else is damage.
    static func decode(_ data: Data, path: String) throws(VaultError) -> VaultContents {
        let wire: [String: WireItem]
        do {
            wire = try JSONDecoder().decode([String: WireItem].self, from: data)
        } catch {
            // Not the decoder's message: it could quote the decrypted contents.
            throw .damaged(path: path, reason: "it decrypts, but not to the vault's JSON")
        }
        return VaultContents(items: try items(of: wire, path: path), generation: 0, isAuthenticated: false)
    }

    private func wireItems() -> [String: WireItem] {
        var wire: [String: WireItem] = [:]
        wire.reserveCapacity(items.count)
        for (account, item) in items {
            wire[account] = WireItem(
                data: item.data, isText: item.isText, label: item.label, created: item.created.formatted(Self.dateStyle),
                modified: item.modified.formatted(Self.dateStyle))
        }
        return wire
    }

    /// The sealed plaintext of these items at `generation`, for `service`, with one tag per key
    /// in `sealKeys` (the keys of the identities the file is encrypted to): the JSON of
    /// ``WireVault``, members in sorted order, items in the order of their accounts' UTF-8 bytes.
    ///
    /// Only the items that changed since the last call on these contents are formatted and
    /// encoded again (their dates, base64, JSON); the others' members are copied as they were.
    /// The seal still covers every item.
    mutating func encoded(service: String, generation: UInt64, sealKeys: [VaultSeal.Key]) throws(VaultError) -> Data {
        let encodings = try refreshedEncodings()
        self.encodings = encodings
        let tags = sealKeys.map { key in
            Data(VaultSeal.tag(service: service, generation: generation, count: encodings.count, inputs: encodings.lazy.map(\.sealInput), key: key)).base64EncodedString()
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let macs: Data
        let serviceText: Data
        do {
            macs = try encoder.encode(tags)
            serviceText = try encoder.encode(service)
        } catch {
            throw .invalidInput(reason: "the vault's contents could not be encoded as JSON")
        }
        var size = 128 + macs.count + serviceText.count + encodings.count
        for encoding in encodings { size += encoding.member.count }
        var json = [UInt8]()
        json.reserveCapacity(size)
        json.append(contentsOf: #"{"format":"\#(Self.format)","generation":\#(generation),"items":{"#.utf8)
        for (index, encoding) in encodings.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: encoding.member)
        }
        json.append(contentsOf: #"},"mac":"#.utf8)
        json.append(contentsOf: macs)
        json.append(contentsOf: #","service":"#.utf8)
        json.append(contentsOf: serviceText)
        json.append(UInt8(ascii: "}"))
        defer { json.zeroize() }
        return Data(json)
    }

    /// The encodings of the items as they are now: those of unchanged items kept, the others
    /// made; the order kept while the accounts are the same (a set of an existing account).
    private func refreshedEncodings() throws(VaultError) -> Encodings {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if encodings.count == items.count {
            var fresh = encodings
            var sameAccounts = true
            for index in fresh.indices {
                guard let item = items[fresh[index].account] else {
                    sameAccounts = false
                    break
                }
                if fresh[index].item != item { fresh[index] = try Self.encoding(fresh[index].account, item, encoder: encoder) }
            }
            if sameAccounts { return fresh }
        }
        var known: [String: Int] = [:]
        known.reserveCapacity(encodings.count)
        for (index, encoding) in encodings.enumerated() { known[encoding.account] = index }
        var fresh = Encodings()
        fresh.reserveCapacity(items.count)
        for account in items.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let item = items[account] else { continue }
            if let index = known[account], encodings[index].item == item {
                fresh.append(encodings[index])
            } else {
                fresh.append(try Self.encoding(account, item, encoder: encoder))
            }
        }
        return fresh
    }

    /// `item`'s encoding under `account`: its dates formatted, its JSON member, its seal input.
    private static func encoding(_ account: String, _ item: VaultItem, encoder: JSONEncoder) throws(VaultError) -> Encoding {
        let wire = WireItem(
            data: item.data, isText: item.isText, label: item.label, created: item.created.formatted(dateStyle),
            modified: item.modified.formatted(dateStyle))
        do {
            var member = [UInt8](try encoder.encode(account))
            member.append(UInt8(ascii: ":"))
            member.append(contentsOf: try encoder.encode(wire))
            return Encoding(account: account, item: item, member: member, sealInput: VaultSeal.input(account: account, item: wire))
        } catch {
            throw .invalidInput(reason: "the vault's contents could not be encoded as JSON")
        }
    }

    /// Decodes the plaintext of the vault at `path` and checks its seal with `sealKey`, the key of
    /// the identity that decrypted it, for `service`. Anything else than the vault's JSON is
    /// damage; a sealed vault whose seal does not verify is
    /// ``VaultError/unauthenticated(path:reason:)``; the last release's format decodes with
    /// ``isAuthenticated`` `false`.
    static func decode(_ data: Data, path: String, service: String, sealKey: VaultSeal.Key) throws(VaultError) -> VaultContents {
        let decoder = JSONDecoder()
        if data.starts(with: formatPrefix) {
            let wire: WireVault
            do {
                wire = try decoder.decode(WireVault.self, from: data)
            } catch {
                // Not the decoder's message: it could quote the decrypted contents.
                throw .damaged(path: path, reason: "it decrypts, but not to the vault's JSON")
            }
            guard wire.format == format else {
                throw .damaged(path: path, reason: "it is in a format this release does not know (written by a newer rizq-prefs?): use that release to read it")
            }
            let tag = VaultSeal.tag(service: service, generation: wire.generation, items: wire.items, key: sealKey)
            let verified = wire.mac.prefix(8).contains { text in
                guard let given = Data(base64Encoded: text) else { return false }
                return tag == given
            }
            guard verified else {
                let reason = wire.service == service
                    ? "its contents are not sealed by this vault's key: it was written by someone who had only the public key (recipient.txt), or changed after it was written"
                    : "its contents are sealed for another service's vault ('\(wire.service)'), not for '\(service)': it was copied here"
                throw .unauthenticated(path: path, reason: reason)
            }
            return VaultContents(items: try items(of: wire.items, path: path), generation: wire.generation, isAuthenticated: true)
        }
        return try decode(data, path: path)
    }

    private static func items(of wire: [String: WireItem], path: String) throws(VaultError) -> [String: VaultItem] {
        var items: [String: VaultItem] = [:]
        items.reserveCapacity(wire.count)
        for (account, item) in wire {
            guard let created = try? dateStyle.parse(item.created), let modified = try? dateStyle.parse(item.modified) else {
                throw .damaged(path: path, reason: "it decrypts, but an item's dates are not ISO 8601 times")
            }
            items[account] = VaultItem(data: item.data, isText: item.isText, label: item.label, created: created, modified: modified)
        }
        return items
    }
}
#endif
