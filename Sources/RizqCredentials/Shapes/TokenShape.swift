import Foundation
import RizqJSON

/// What a whole string value looks like when it is a credential by its shape alone: a JWT or
/// JWE, an HTTP `Authorization` value, a provider's API key or token with a well-known prefix, a
/// PEM private key, or a cookie string holding a session cookie. Each check wants more than the
/// prefix — a length and an alphabet, a decodable `user:password` — so that ordinary settings
/// (`sk-SK`, `Basic plan`, `theme=dark; lang=en`) are not taken for credentials.
package enum TokenShape {
    /// Cookie names that hold a session or a credential, beyond those whose name says so
    /// (anything with `session`, `token`, `auth`, `secret`, `jwt`).
    static let sessionCookieNames: Set<String> = [
        "sid", "connect.sid", "phpsessid", "jsessionid", "asp.net_sessionid", "sessionid", "cfid", "cftoken", "rack.session",
        "remember_token", "remember_me", "_gitlab_session", "user_session", "__host-next-auth.csrf-token",
    ]

    /// ``CredentialFamily/prefixed`` by the first byte of their prefix: every value of an import
    /// is looked at, so each looks only at the few prefixes that can match.
    private static let prefixesByFirstByte: [UInt8: [CredentialFamily]] =
        Dictionary(grouping: CredentialFamily.prefixed) { $0.prefix.utf8.first ?? 0 }

    /// The kind of credential `raw` is by its shape, or `nil`.
    static func kind(of raw: String) -> String? {
        match(raw)?.description
    }

    /// The family of credential the whole of `raw` (trimmed) is, or `nil`.
    static func match(_ raw: String) -> CredentialClassifier.Match? {
        let text = raw.trimmingWhiteSpace
        guard let first = text.utf8.first else { return nil }
        if "bBtT".utf8.contains(first), let scheme = authorizationScheme(text) { return scheme }
        if let match = bareToken(text) { return match }
        if first == UInt8(ascii: "-"), text.hasPrefix("-----BEGIN"), text.contains("PRIVATE KEY-----") {
            return .init(family: .pemPrivateKey, description: "private key (PEM)")
        }
        if text.utf8.contains(UInt8(ascii: "=")), let cookie = sessionCookie(in: text) {
            return .init(family: .sessionCookie, description: "session cookie (\(cookie)=…)")
        }
        return nil
    }

    /// A token standing alone: a JWT, JWE, session blob, prefixed key or Telegram bot token.
    private static func bareToken(_ text: String) -> CredentialClassifier.Match? {
        if isCompactJOSE(text, parts: 3) { return .init(family: .jwt, description: "JWT") }
        if isCompactJOSE(text, parts: 5) { return .init(family: .jwe, description: "JWE (encrypted token)") }
        if text.hasPrefix("base64-") {
            let body = text.dropFirst(7)
            if body.count >= 16, CredentialFamily.Alphabet.token.containsAll(body) { return .init(family: .sessionBlob, description: "base64- session blob") }
        }
        for family in prefixesByFirstByte[text.utf8.first ?? 0] ?? [] where text.hasPrefix(family.prefix) {
            if family.accepts(tail: text.utf8.dropFirst(family.prefix.utf8.count)) {
                return .init(family: family, description: family.name)
            }
        }
        if let first = text.utf8.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"), isTelegramBotToken(text) {
            return .init(family: .telegramBotToken, description: "Telegram bot token")
        }
        return nil
    }

    /// `Bearer <token>`, `Token <token>` (at least 16 token characters, or a token of a known
    /// shape), or `Basic <base64 of user:password>`: an HTTP `Authorization` value.
    private static func authorizationScheme(_ text: String) -> CredentialClassifier.Match? {
        guard let space = text.firstIndex(of: " ") else { return nil }
        let scheme = text[..<space].lowercased()
        let credentials = text[text.index(after: space)...].trimmingWhiteSpace
        guard !credentials.isEmpty, !credentials.contains(" ") else { return nil }
        switch scheme {
        case "bearer", "token":
            if let inner = bareToken(credentials) {
                return .init(family: inner.family, description: "\(inner.description) in a \(scheme.capitalized) authorization value")
            }
            guard credentials.count >= 16, CredentialFamily.Alphabet.token.containsAll(credentials) else { return nil }
            return .init(family: .authorization, description: "\(scheme.capitalized) authorization value")
        case "basic":
            guard credentials.count >= 4, let decoded = Data(base64Encoded: credentials),
                let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":"),
                colon != pair.startIndex, pair.index(after: colon) != pair.endIndex
            else { return nil }
            return .init(family: .authorization, description: "Basic authorization value (user and password)")
        default:
            return nil
        }
    }

    /// The bot's id (6 to 12 digits), a colon, 30 to 40 base64url characters (35 today): `123456789:AA…`.
    private static func isTelegramBotToken(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let id = text[..<colon]
        let secret = text[text.index(after: colon)...]
        return (6...12).contains(id.utf8.count) && id.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            && (30...40).contains(secret.utf8.count) && CredentialFamily.Alphabet.base64URL.containsAll(secret)
    }

    /// The name of a session cookie in a cookie string (`connect.sid=s%3A…; theme=dark`), when
    /// its value has at least 8 characters; `nil` when the text is not a cookie string or holds
    /// no session cookie.
    static func sessionCookie(in text: String) -> String? {
        guard text.contains("=") else { return nil }
        var found: String?
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = part.trimmingWhiteSpace
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return nil }
            let name = pair[..<equals]
            // A cookie name is a token: no spaces, quotes or separators.
            guard name.allSatisfy({ $0.isASCII && !$0.isWhitespace && !"\"(),/:<>?@[\\]{}".contains($0) }) else { return nil }
            let value = pair[pair.index(after: equals)...]
            if found == nil, value.count >= 8, isSessionCookieName(String(name)) { found = String(name) }
        }
        return found
    }

    private static func isSessionCookieName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if sessionCookieNames.contains(lowered) || lowered.hasSuffix(".sid") || lowered.hasSuffix("sessid") { return true }
        return ["session", "token", "auth", "secret", "jwt"].contains { lowered.contains(ascii: $0) } && !lowered.contains(ascii: "author")
    }

    /// A JWS (3 parts) or JWE (5 parts) in compact form: base64url parts joined by dots, the
    /// first being a JSON header with `alg` (or `enc`).
    package static func isCompactJOSE(_ text: String, parts count: Int) -> Bool {
        guard text.hasPrefix("eyJ"), text.count >= 20 else { return false }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == count, parts.allSatisfy({ $0.allSatisfy(isBase64URLCharacter) }), !parts[0].isEmpty else { return false }
        guard let header = base64URLDecode(parts[0]),
            let node = try? JSONReader.parseDocument(Array(header), loneSurrogates: .replace).root,
            node["alg"] != nil || node["enc"] != nil
        else { return false }
        return count == 3 ? !parts[1].isEmpty : !parts[3].isEmpty
    }

    private static func base64URLDecode(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    private static func isBase64URLCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }
}

extension Substring {
    /// The text without white space at either end.
    fileprivate var trimmingWhiteSpace: String { String(self).trimmingWhiteSpace }
}
