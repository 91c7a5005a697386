/// The one answer to "does this value look like a credential, and of which family?" — for the
/// importer (which sends such values to the Secret Service instead of a suite), and for device
/// sync and fleet suites (which refuse to publish them).
///
/// ```swift
/// if let family = CredentialClassifier.family(of: value) { refuse(because: family.name) }
/// CredentialClassifier.looks(value, like: .jwt)   // true for "eyJhbGciOi…"
/// ```
///
/// A value is judged by its shape alone (``CredentialRule`` adds the key's name, JSON
/// fields and auth libraries): the whole text — trimmed, or the credentials of an HTTP
/// `Authorization` value — as a JWT, a JWE, a session blob, a prefixed key of one of
/// ``CredentialFamily/prefixed`` with a tail of tolerant length, a Telegram bot token, a PEM
/// private key or a cookie string holding a session cookie; then, inside a longer text (a URL's
/// query, a config line), a JWT or a key whose prefix is distinctive enough
/// (``CredentialFamily/foundInsideText``), standing as a word of its own.
package enum CredentialClassifier {
    /// What a value was recognised as.
    package struct Match: Sendable, Equatable {
        /// The family.
        package var family: CredentialFamily
        /// A phrase for a report, e.g. "JWT in a Bearer authorization value"; never the value.
        package var description: String
    }

    /// The family of credential `value` looks like, or `nil`.
    package static func family(of value: String) -> CredentialFamily? {
        match(value)?.family
    }

    /// Whether `value` looks like a credential of `family` (families compare by id: `ghp_…` and
    /// `gho_…` both look like `github-token`).
    package static func looks(_ value: String, like family: CredentialFamily) -> Bool {
        self.family(of: value) == family
    }

    /// The family of `value` with a phrase for a report, or `nil` (see the type's documentation).
    package static func match(_ value: String) -> Match? {
        if let whole = TokenShape.match(value) { return whole }
        return embedded(in: value)
    }

    /// A JWT or a distinctive prefixed key inside `text`, as a word of its own: what precedes it
    /// is not a letter, digit or token character, and its tail runs to the next character outside
    /// its alphabet.
    static func embedded(in text: String) -> Match? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 8 else { return nil }
        if let url = urlWithPassword(bytes) { return url }
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            if index > 0, CredentialFamily.Alphabet.base64URL.contains(bytes[index - 1]) || bytes[index - 1] == UInt8(ascii: ".") { continue }
            let first = bytes[index]
            if first == UInt8(ascii: "e"), let jwt = embeddedJWT(bytes, at: index) { return jwt }
            for family in insideByFirstByte[first] ?? [] where hasPrefix(bytes, family.prefix, at: index) {
                var end = index + family.prefix.utf8.count
                while end < bytes.count, family.alphabet.contains(bytes[end]) { end += 1 }
                if family.accepts(tail: bytes[(index + family.prefix.utf8.count)..<end]) {
                    return Match(family: family, description: family.name + " inside the text")
                }
            }
        }
        return nil
    }

    /// A URL holding a password in its user part, `scheme://user:password@host`, anywhere in
    /// the text: a scheme of letters, digits, `+`, `-` or `.` before `://`, then a user part with
    /// no `/`, `?`, `#`, `@` or space up to an `@` that a host follows, holding a `:` with a
    /// non-empty password after it. `postgres://app:s3cret@db/app` is one; `https://host/a@b`,
    /// `ssh://git@host` and `http://user:@host` are not.
    private static func urlWithPassword(_ bytes: [UInt8]) -> Match? {
        let separator: [UInt8] = Array("://".utf8)
        var index = 1
        while index + 3 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == separator[0], bytes[index + 1] == separator[1], bytes[index + 2] == separator[2] else { continue }
            let before = bytes[index - 1]
            guard isSchemeByte(before) else { continue }
            var colon: Int?
            var end = index + 3
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "@") { break }
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte <= 0x20 || byte == 0x7F { end = bytes.count; break }
                if byte == UInt8(ascii: ":"), colon == nil { colon = end }
                end += 1
            }
            guard end + 1 < bytes.count, let colon, colon >= index + 3, end > colon + 1 else { continue }
            let host = bytes[end + 1]
            guard host > 0x20, host != UInt8(ascii: "/"), host != UInt8(ascii: "@") else { continue }
            return Match(family: .urlWithPassword, description: CredentialFamily.urlWithPassword.name)
        }
        return nil
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func embeddedJWT(_ bytes: [UInt8], at index: Int) -> Match? {
        guard hasPrefix(bytes, "eyJ", at: index) else { return nil }
        var end = index
        while end < bytes.count, CredentialFamily.Alphabet.base64URL.contains(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
        let candidate = String(decoding: bytes[index..<end], as: UTF8.self)
        if TokenShape.isCompactJOSE(candidate, parts: 3) { return Match(family: .jwt, description: "JWT inside the text") }
        if TokenShape.isCompactJOSE(candidate, parts: 5) { return Match(family: .jwe, description: "JWE (encrypted token) inside the text") }
        return nil
    }

    private static func hasPrefix(_ bytes: [UInt8], _ prefix: String, at index: Int) -> Bool {
        let prefix = prefix.utf8
        guard bytes.count - index >= prefix.count else { return false }
        return zip(bytes[index...], prefix).allSatisfy { $0 == $1 }
    }

    /// The families found inside text, by the first byte of their prefix.
    private static let insideByFirstByte: [UInt8: [CredentialFamily]] =
        Dictionary(grouping: CredentialFamily.prefixed.filter(\.foundInsideText)) { $0.prefix.utf8.first ?? 0 }
}
