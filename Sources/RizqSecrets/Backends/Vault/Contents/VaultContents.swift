#if Secrets
import Crypto
import Foundation
import RizqCore
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
    /// The items by account; changed through ``setItem(_:forAccount:)`` and
    /// ``removeItem(forAccount:)``, which note what changed for the next encoding.
    private(set) var items: [String: VaultItem] = [:]
    /// The number of writes that made this version (0 for an old-format vault).
    var generation: UInt64 = 0
    /// Whether the contents carried a seal that verified (a new, empty vault counts as sealed).
    var isAuthenticated = true
    /// Each item as the last ``frame(service:generation:sealKeys:)`` encoded it, so that the
    /// next one encodes only the items that changed (a set changes one of them; issue 39).
    private var encodings: Encodings = []
    /// The accounts set or removed since ``encodings`` were made: the only ones whose encodings
    /// a write looks at again while no account is added or removed.
    private var touched: Set<String> = []

    init(items: [String: VaultItem] = [:], generation: UInt64 = 0, isAuthenticated: Bool = true) {
        self.items = items
        self.generation = generation
        self.isAuthenticated = isAuthenticated
    }

    /// Sets `account`'s item.
    mutating func setItem(_ item: VaultItem, forAccount account: String) {
        items[account] = item
        touched.insert(account)
    }

    /// Removes `account`'s item; returns it, or `nil` when there was none.
    @discardableResult
    mutating func removeItem(forAccount account: String) -> VaultItem? {
        touched.insert(account)
        return items.removeValue(forKey: account)
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

    /// The time an item's date text names. What this package writes
    /// (`YYYY-MM-DDTHH:MM:SS.fffZ`, UTC) is read by arithmetic on its digits; anything else goes to
    /// Foundation's ISO 8601 parser, which starts Foundation's calendar and time zone — a cost
    /// every process that reads a secret paid before (a credential helper runs once per request).
    static func parseDate(_ text: String) -> Date? {
        let digits = Array(text.utf8)
        guard digits.count == 24, digits[4] == 0x2D, digits[7] == 0x2D, digits[10] == 0x54, digits[13] == 0x3A, digits[16] == 0x3A,
            digits[19] == 0x2E, digits[23] == 0x5A
        else { return try? dateStyle.parse(text) }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(digits[index]) else { return nil }
                value = value * 10 + Int(digits[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), let millisecond = number(20..<23),
            (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return try? dateStyle.parse(text) }
        // Days from 1970-01-01 to the date (the proleptic Gregorian calendar's civil-day count).
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let monthLength = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard day <= monthLength else { return try? dateStyle.parse(text) }
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        // From 2001, as a Date keeps it (and Foundation's parser computes it): the same Double.
        return Date(timeIntervalSinceReferenceDate: Double(seconds - 978_307_200) + Double(millisecond) / 1_000)
    }

    /// One item as the JSON holds it: the dates as their text, so that the seal covers exactly
    /// what the file says.
    struct WireItem: Codable, Sendable {
        var data: Data
        var isText: Bool
        var label: String
        var created: String
        var modified: String
        /// When it expires (ISO 8601), when it does.
        var expires: String?
        /// Its refresh token, when it has one.
        var refreshToken: String?

        init(_ item: VaultItem) {
            data = item.data
            isText = item.isText
            label = item.label
            created = item.created.formatted(VaultContents.dateStyle)
            modified = item.modified.formatted(VaultContents.dateStyle)
            expires = item.lifetime?.expires?.formatted(VaultContents.dateStyle)
            refreshToken = item.lifetime?.refreshToken
        }
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
            wire[account] = WireItem(item)
        }
        return wire
    }

    /// The sealed plaintext's parts around the items' members (``write(_:into:)`` writes the
    /// whole): its JSON is ``WireVault``'s, members in sorted order, items in the order of their
    /// accounts' UTF-8 bytes.
    struct Frame {
        /// `{"format":…,"generation":…,"items":{`
        var head: [UInt8]
        /// `},"mac":[…],"service":…}`
        var tail: [UInt8]
        /// The whole plaintext's size in bytes.
        var count: Int
    }

    /// Makes these items' plaintext at `generation`, for `service`, ready to be written, with
    /// one tag per key in `sealKeys` (the keys of the identities the file is encrypted to).
    ///
    /// Only the items that changed since the last call on these contents are formatted and
    /// encoded again (their dates, base64, JSON); the others' members are kept as they were.
    /// The seal still covers every item.
    mutating func frame(service: String, generation: UInt64, sealKeys: [VaultSeal.Key]) throws(VaultError) -> Frame {
        // Taken out of `self` while they change, so that they are changed in place.
        var encodings = Encodings()
        swap(&encodings, &self.encodings)
        try Self.refresh(&encodings, to: items, touched: touched)
        self.encodings = encodings
        touched = []
        let tags = sealKeys.map { key in
            // By index: each element is read in place, not copied with its item and member.
            Data(VaultSeal.tag(service: service, generation: generation, count: encodings.count, inputs: encodings.indices.lazy.map { encodings[$0].sealInput }, key: key))
                .base64EncodedString()
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
        let head = Array(#"{"format":"\#(Self.format)","generation":\#(generation),"items":{"#.utf8)
        var tail = Array(#"},"mac":"#.utf8)
        tail.append(contentsOf: macs)
        tail.append(contentsOf: #","service":"#.utf8)
        tail.append(contentsOf: serviceText)
        tail.append(UInt8(ascii: "}"))
        var count = head.count + tail.count + max(0, encodings.count - 1)
        for encoding in encodings { count += encoding.member.count }
        return Frame(head: head, tail: tail, count: count)
    }

    /// Writes the plaintext that `frame` (``frame(service:generation:sealKeys:)``, on these
    /// contents unchanged since) makes ready into `sink`: the members are copied into its chunk
    /// buffer as they are, and the whole plaintext is never held in one buffer (issue 39).
    func write(_ frame: Frame, into sink: inout AgePlaintextSink) throws(AgeError) {
        try sink.append(frame.head)
        for index in encodings.indices {
            if index > 0 { try sink.append(byte: UInt8(ascii: ",")) }
            try sink.append(encodings[index].member)
        }
        try sink.append(frame.tail)
    }

    /// Brings `encodings` up to `items`: the encodings of unchanged items kept, the others made;
    /// the order kept while the accounts are the same (a set of an existing account), changed in
    /// place. While every account in `touched` (set or removed since `encodings` were made) has
    /// an encoding and an item, only those are looked at (a set of an existing account: issue 39).
    private static func refresh(_ encodings: inout Encodings, to items: [String: VaultItem], touched: Set<String>) throws(VaultError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if encodings.count == items.count {
            var positions: [(index: Int, item: VaultItem)] = []
            positions.reserveCapacity(touched.count)
            for account in touched {
                guard let item = items[account], let index = position(of: account, in: encodings) else { break }
                positions.append((index, item))
            }
            if positions.count == touched.count {
                for (index, item) in positions where encodings[index].item != item {
                    encodings[index] = try encoding(encodings[index].account, item, encoder: encoder)
                }
                return
            }
        }
        // An account added or removed (or no encodings yet): every item in the file's order, the
        // encodings of unchanged items kept.
        var known: [String: Int] = [:]
        known.reserveCapacity(encodings.count)
        for index in encodings.indices { known[encodings[index].account] = index }
        var fresh = Encodings()
        fresh.reserveCapacity(items.count)
        for account in items.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let item = items[account] else { continue }
            if let index = known[account], encodings[index].item == item {
                fresh.append(encodings[index])
            } else {
                fresh.append(try encoding(account, item, encoder: encoder))
            }
        }
        encodings = fresh
    }

    /// The index of `account`'s encoding in `encodings` (sorted by the accounts' UTF-8 bytes).
    private static func position(of account: String, in encodings: Encodings) -> Int? {
        var low = 0
        var high = encodings.count
        while low < high {
            let middle = low + (high - low) / 2
            let other = encodings[middle].account
            if other == account { return middle }
            if other.utf8.lexicographicallyPrecedes(account.utf8) { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// `item`'s encoding under `account`: its dates formatted, its JSON member, its seal input.
    private static func encoding(_ account: String, _ item: VaultItem, encoder: JSONEncoder) throws(VaultError) -> Encoding {
        let wire = WireItem(item)
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
            guard let created = parseDate(item.created), let modified = parseDate(item.modified) else {
                throw .damaged(path: path, reason: "it decrypts, but an item's dates are not ISO 8601 times")
            }
            var expires: Date?
            if let text = item.expires {
                guard let date = parseDate(text) else { throw .damaged(path: path, reason: "it decrypts, but an item's expiry is not an ISO 8601 time") }
                expires = date
            }
            if let token = item.refreshToken, token.utf8.count > SecretLifetime.maximumRefreshTokenSize || token.utf8.contains(0) {
                throw .damaged(path: path, reason: "it decrypts, but an item's refresh token is larger than \(SecretLifetime.maximumRefreshTokenSize >> 10) KiB or holds a NUL byte")
            }
            items[account] = VaultItem(
                data: item.data, isText: item.isText, label: item.label, created: created, modified: modified,
                lifetime: SecretLifetime(expires: expires, refreshToken: item.refreshToken))
        }
        return items
    }
}
#endif
