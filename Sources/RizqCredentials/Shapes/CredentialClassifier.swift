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
