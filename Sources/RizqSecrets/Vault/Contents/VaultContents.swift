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
    /// in `sealKeys` (the keys of the identities the file is encrypted to).
    func encoded(service: String, generation: UInt64, sealKeys: [VaultSeal.Key]) throws(VaultError) -> Data {
        let wire = wireItems()
        let tags = sealKeys.map { Data(VaultSeal.tag(service: service, generation: generation, items: wire, key: $0)).base64EncodedString() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(WireVault(format: Self.format, generation: generation, items: wire, mac: tags, service: service))
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
