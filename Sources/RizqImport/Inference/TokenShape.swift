import Foundation

/// What a whole string value looks like when it is a credential by its shape alone: a JWT or
/// JWE, an HTTP `Authorization` value, a provider's API key or token with a well-known prefix, a
/// PEM private key, or a cookie string holding a session cookie. Each check wants more than the
/// prefix — a length and an alphabet, a decodable `user:password` — so that ordinary settings
/// (`sk-SK`, `Basic plan`, `theme=dark; lang=en`) are not taken for credentials.
enum TokenShape {
    /// A provider prefix: at least `minimum` characters after it, all in `alphabet`.
    struct Prefix {
        var prefix: String
        var name: String
        var minimum: Int
        var alphabet: Alphabet = .token
    }

    enum Alphabet {
        /// Base64, base64url and `.`: what tokens are made of.
        case token
        /// Upper-case letters and digits (AWS key ids).
        case upperAlphanumeric
        /// Hexadecimal digits.
        case hex

        func contains(_ character: Character) -> Bool {
            guard character.isASCII else { return false }
            switch self {
            case .token: return character.isLetter || character.isNumber || "+/=-_.".contains(character)
            case .upperAlphanumeric: return character.isUppercase || character.isNumber
            case .hex: return character.isHexDigit
            }
        }
    }

    /// Well-known token prefixes, with what they are. Longer prefixes come before the shorter
    /// ones they start with.
    static let prefixes: [Prefix] = [
        Prefix(prefix: "ya29.", name: "Google OAuth access token (ya29.)", minimum: 10),
        Prefix(prefix: "AIza", name: "Google API key (AIza)", minimum: 30),
        Prefix(prefix: "github_pat_", name: "GitHub token (github_pat_)", minimum: 10),
        Prefix(prefix: "ghp_", name: "GitHub token (ghp_)", minimum: 10), Prefix(prefix: "gho_", name: "GitHub token (gho_)", minimum: 10),
        Prefix(prefix: "ghu_", name: "GitHub token (ghu_)", minimum: 10), Prefix(prefix: "ghs_", name: "GitHub token (ghs_)", minimum: 10),
        Prefix(prefix: "ghr_", name: "GitHub token (ghr_)", minimum: 10),
        Prefix(prefix: "glpat-", name: "GitLab token (glpat-)", minimum: 10), Prefix(prefix: "gldt-", name: "GitLab token (gldt-)", minimum: 10),
        Prefix(prefix: "glrt-", name: "GitLab token (glrt-)", minimum: 10), Prefix(prefix: "glptt-", name: "GitLab token (glptt-)", minimum: 10),
        Prefix(prefix: "AKIA", name: "AWS access key id (AKIA)", minimum: 16, alphabet: .upperAlphanumeric),
        Prefix(prefix: "ASIA", name: "AWS temporary access key id (ASIA)", minimum: 16, alphabet: .upperAlphanumeric),
        Prefix(prefix: "sk_live_", name: "Stripe secret key (sk_live_)", minimum: 10), Prefix(prefix: "sk_test_", name: "Stripe test secret key (sk_test_)", minimum: 10),
        Prefix(prefix: "rk_live_", name: "Stripe restricted key (rk_live_)", minimum: 10), Prefix(prefix: "rk_test_", name: "Stripe test restricted key (rk_test_)", minimum: 10),
        Prefix(prefix: "whsec_", name: "Stripe webhook secret (whsec_)", minimum: 20),
        // OpenAI (sk-proj-, sk-svcacct-, sk-…), Anthropic (sk-ant-), OpenRouter (sk-or-), DeepSeek.
        Prefix(prefix: "sk-", name: "API secret key (sk-: OpenAI, Anthropic and others)", minimum: 20),
        Prefix(prefix: "npm_", name: "npm token (npm_)", minimum: 30),
        Prefix(prefix: "xoxa-", name: "Slack token (xoxa-)", minimum: 10), Prefix(prefix: "xoxb-", name: "Slack token (xoxb-)", minimum: 10),
        Prefix(prefix: "xoxp-", name: "Slack token (xoxp-)", minimum: 10), Prefix(prefix: "xoxr-", name: "Slack token (xoxr-)", minimum: 10),
        Prefix(prefix: "xoxs-", name: "Slack token (xoxs-)", minimum: 10), Prefix(prefix: "xoxe-", name: "Slack token (xoxe-)", minimum: 10),
        Prefix(prefix: "xapp-", name: "Slack app token (xapp-)", minimum: 10),
        Prefix(prefix: "hf_", name: "Hugging Face token (hf_)", minimum: 30),
        Prefix(prefix: "pypi-", name: "PyPI token (pypi-)", minimum: 50),
        Prefix(prefix: "SG.", name: "SendGrid API key (SG.)", minimum: 40),
        Prefix(prefix: "shpat_", name: "Shopify token (shpat_)", minimum: 20), Prefix(prefix: "shpca_", name: "Shopify token (shpca_)", minimum: 20),
        Prefix(prefix: "shppa_", name: "Shopify token (shppa_)", minimum: 20), Prefix(prefix: "shpss_", name: "Shopify secret (shpss_)", minimum: 20),
        Prefix(prefix: "dop_v1_", name: "DigitalOcean token (dop_v1_)", minimum: 40), Prefix(prefix: "doo_v1_", name: "DigitalOcean token (doo_v1_)", minimum: 40),
        Prefix(prefix: "dor_v1_", name: "DigitalOcean token (dor_v1_)", minimum: 40),
        Prefix(prefix: "lin_api_", name: "Linear API key (lin_api_)", minimum: 30),
        Prefix(prefix: "secret_", name: "Notion token (secret_)", minimum: 40), Prefix(prefix: "ntn_", name: "Notion token (ntn_)", minimum: 40),
        Prefix(prefix: "figd_", name: "Figma token (figd_)", minimum: 30),
        Prefix(prefix: "sbp_", name: "Supabase access token (sbp_)", minimum: 30),
        Prefix(prefix: "gsk_", name: "Groq API key (gsk_)", minimum: 30),
        Prefix(prefix: "xai-", name: "xAI API key (xai-)", minimum: 30),
        Prefix(prefix: "r8_", name: "Replicate token (r8_)", minimum: 30),
        Prefix(prefix: "pplx-", name: "Perplexity API key (pplx-)", minimum: 30),
        Prefix(prefix: "PMAK-", name: "Postman API key (PMAK-)", minimum: 30),
        Prefix(prefix: "ATATT", name: "Atlassian API token (ATATT)", minimum: 30),
        Prefix(prefix: "dp.st.", name: "Doppler token (dp.st.)", minimum: 30), Prefix(prefix: "dp.pt.", name: "Doppler token (dp.pt.)", minimum: 30),
        Prefix(prefix: "AGE-SECRET-KEY-1", name: "age secret key", minimum: 30),
        Prefix(prefix: "key-", name: "Mailgun API key (key-)", minimum: 32, alphabet: .hex),
        Prefix(prefix: "dapi", name: "Databricks token (dapi)", minimum: 32, alphabet: .hex),
    ]

    /// Cookie names that hold a session or a credential, beyond those whose name says so
    /// (anything with `session`, `token`, `auth`, `secret`, `jwt`).
    static let sessionCookieNames: Set<String> = [
        "sid", "connect.sid", "phpsessid", "jsessionid", "asp.net_sessionid", "sessionid", "cfid", "cftoken", "rack.session",
        "remember_token", "remember_me", "_gitlab_session", "user_session", "__host-next-auth.csrf-token",
    ]

    /// ``prefixes`` by their first byte: every value of an import is looked at, so each looks
    /// only at the few prefixes that can match.
    private static let prefixesByFirstByte: [UInt8: [Prefix]] = Dictionary(grouping: prefixes) { $0.prefix.utf8.first ?? 0 }

    /// The kind of credential `raw` is by its shape, or `nil`.
    static func kind(of raw: String) -> String? {
        let text = raw.trimmingWhiteSpace
        guard let first = text.utf8.first else { return nil }
        if "bBtT".utf8.contains(first), let scheme = authorizationScheme(text) { return scheme }
        if let kind = bareTokenKind(text) { return kind }
        if first == UInt8(ascii: "-"), text.hasPrefix("-----BEGIN"), text.contains("PRIVATE KEY-----") { return "private key (PEM)" }
        if text.utf8.contains(UInt8(ascii: "=")), let cookie = sessionCookie(in: text) { return "session cookie (\(cookie)=…)" }
        return nil
    }

    /// A token standing alone: a JWT, JWE, session blob or prefixed key.
    private static func bareTokenKind(_ text: String) -> String? {
        if CredentialDetector.isCompactJOSE(text, parts: 3) { return "JWT" }
        if CredentialDetector.isCompactJOSE(text, parts: 5) { return "JWE (encrypted token)" }
        if text.hasPrefix("base64-") {
            let body = text.dropFirst(7)
            if body.count >= 16, body.allSatisfy(Alphabet.token.contains) { return "base64- session blob" }
        }
        for entry in prefixesByFirstByte[text.utf8.first ?? 0] ?? [] where text.hasPrefix(entry.prefix) {
            let rest = text.dropFirst(entry.prefix.count)
            if rest.count >= entry.minimum, rest.allSatisfy(entry.alphabet.contains) { return entry.name }
        }
        if let first = text.utf8.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"), isTelegramBotToken(text) { return "Telegram bot token" }
        return nil
    }

    /// `Bearer <token>`, `Token <token>` (at least 16 token characters, or a token of a known
    /// shape), or `Basic <base64 of user:password>`: an HTTP `Authorization` value.
    private static func authorizationScheme(_ text: String) -> String? {
        guard let space = text.firstIndex(of: " ") else { return nil }
        let scheme = text[..<space].lowercased()
        let credentials = text[text.index(after: space)...].trimmingWhiteSpace
        guard !credentials.isEmpty, !credentials.contains(" ") else { return nil }
        switch scheme {
        case "bearer", "token":
            if let inner = bareTokenKind(credentials) { return "\(inner) in a \(scheme.capitalized) authorization value" }
            guard credentials.count >= 16, credentials.allSatisfy(Alphabet.token.contains) else { return nil }
            return "\(scheme.capitalized) authorization value"
        case "basic":
            guard credentials.count >= 4, let decoded = Data(base64Encoded: credentials),
                let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":"),
                colon != pair.startIndex, pair.index(after: colon) != pair.endIndex
            else { return nil }
            return "Basic authorization value (user and password)"
        default:
            return nil
        }
    }

    /// Digits, a colon, 35 token characters: `123456789:AA…`.
    private static func isTelegramBotToken(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let id = text[..<colon]
        let secret = text[text.index(after: colon)...]
        return (8...10).contains(id.count) && id.allSatisfy { $0.isASCII && $0.isNumber }
            && secret.count == 35 && secret.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
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
}

extension Substring {
    /// The text without white space at either end.
    fileprivate var trimmingWhiteSpace: String { String(self).trimmingWhiteSpace }
}
