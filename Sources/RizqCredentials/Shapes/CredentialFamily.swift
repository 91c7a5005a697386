/// A kind of credential the classifier recognises by its shape: a provider's key with a
/// well-known prefix (Google `AIza`, GitHub `ghp_`, AWS `AKIA`, …), or a format (a JWT, a PEM
/// private key, an HTTP authorization value, a session cookie).
///
/// Lengths are tolerant: a prefix family wants at least ``minimumTail`` characters of its
/// ``alphabet`` after the prefix — about two thirds of the documented length, never the exact
/// length, so that a key of a new generation or a shortened copy is still recognised — and no
/// more than ``maximumTail`` (where the provider's format fixes the length, a run much longer is
/// something else). The prefix and the alphabet are what keep ordinary settings out (`sk-SK`,
/// `key-value`, `secret_santa`).
///
/// Two families are the same when their ``id`` is: `ghp_` and `gho_` are both `github-token`.
package struct CredentialFamily: Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier: `google-api-key`, `github-token`, `jwt`, … .
    package let id: String
    /// What it is, for a report: "Google API key (AIza)".
    package let name: String
    /// The prefix, for a prefix family; empty for a format family.
    package let prefix: String
    /// The fewest characters after the prefix.
    package let minimumTail: Int
    /// The most characters after the prefix.
    package let maximumTail: Int
    /// The characters the tail is made of.
    package let alphabet: Alphabet
    /// Whether a key of this family is recognised inside a longer text (a URL's `?key=AIza…`, a
    /// config line): only for prefixes distinctive enough that an ordinary word never starts so.
    package let foundInsideText: Bool

    /// The characters of a tail.
    package enum Alphabet: Sendable, Hashable {
        /// Letters, digits, `+/=-_.`: base64, base64url and dotted tokens.
        case token
        /// Letters, digits, `-` and `_` (base64url).
        case base64URL
        /// Letters and digits.
        case alphanumeric
        /// Upper-case letters and digits (AWS key ids).
        case upperAlphanumeric
        /// Hexadecimal digits.
        case hex

        /// Whether `byte` (ASCII) belongs to the alphabet.
        package func contains(_ byte: UInt8) -> Bool {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            let isDigit = byte >= 0x30 && byte <= 0x39
            switch self {
            case .token: return isLetter || isDigit || "+/=-_.".utf8.contains(byte)
            case .base64URL: return isLetter || isDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            case .alphanumeric: return isLetter || isDigit
            case .upperAlphanumeric: return (byte >= 0x41 && byte <= 0x5A) || isDigit
            case .hex: return isDigit || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
            }
        }

        /// Whether every character of `text` belongs to the alphabet.
        package func containsAll<Text: StringProtocol>(_ text: Text) -> Bool {
            text.utf8.allSatisfy(contains)
        }
    }

    /// A format family (no prefix).
    init(format id: String, name: String) {
        self.init(id: id, name: name, prefix: "", minimumTail: 0, maximumTail: .max, alphabet: .token, foundInsideText: false)
    }

    init(id: String, name: String, prefix: String, minimumTail: Int, maximumTail: Int = 4_096, alphabet: Alphabet = .token, foundInsideText: Bool = true) {
        self.id = id
        self.name = name
        self.prefix = prefix
        self.minimumTail = minimumTail
        self.maximumTail = maximumTail
        self.alphabet = alphabet
        self.foundInsideText = foundInsideText
    }

    /// The ``name``.
    package var description: String { name }

    /// Same ``id``.
    package static func == (left: CredentialFamily, right: CredentialFamily) -> Bool { left.id == right.id }

    /// Hashes the ``id``.
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Whether `tail` (what follows the prefix) has this family's shape.
    func accepts<Bytes: Collection<UInt8>>(tail: Bytes) -> Bool {
        let count = tail.count
        return count >= minimumTail && count <= maximumTail && tail.allSatisfy(alphabet.contains)
    }
}

extension CredentialFamily {
    // Format families.
    /// A JSON Web Token: three base64url parts, the first a JSON header with `alg`.
    package static let jwt = CredentialFamily(format: "jwt", name: "JWT")
    /// A JSON Web Encryption in compact form: five parts.
    package static let jwe = CredentialFamily(format: "jwe", name: "JWE (encrypted token)")
    /// Supabase SSR's `base64-` session blob.
    package static let sessionBlob = CredentialFamily(format: "session-blob", name: "base64- session blob")
    /// An HTTP `Authorization` value: `Bearer …`, `Token …`, `Basic` with a user and password.
    package static let authorization = CredentialFamily(format: "authorization", name: "authorization value")
    /// A URL that carries a password: `scheme://user:password@host` (a database URL, a DSN, a
    /// proxy or Git remote with credentials).
    package static let urlWithPassword = CredentialFamily(format: "url-password", name: "URL with a password (scheme://user:password@host)")
    /// A PEM private key.
    package static let pemPrivateKey = CredentialFamily(format: "pem-private-key", name: "private key (PEM)")
    /// A cookie string holding a session cookie.
    package static let sessionCookie = CredentialFamily(format: "session-cookie", name: "session cookie")
    /// A Telegram bot token: the bot's id, a colon, 35 characters.
    package static let telegramBotToken = CredentialFamily(format: "telegram-bot-token", name: "Telegram bot token")

    /// The prefix families, longer prefixes before the shorter ones they start with. The
    /// documented lengths are in the comments; the minimums are about two thirds of them.
    package static let prefixed: [CredentialFamily] = {
        func family(_ id: String, _ name: String, _ prefixes: [String], _ minimum: Int, _ maximum: Int = 4_096,
                    _ alphabet: Alphabet = .token, inside: Bool = true) -> [CredentialFamily] {
            prefixes.map { CredentialFamily(id: id, name: name.replacingOccurrences(of: "{}", with: $0), prefix: $0, minimumTail: minimum, maximumTail: maximum, alphabet: alphabet, foundInsideText: inside) }
        }
        var all: [CredentialFamily] = []
        all += family("google-oauth-token", "Google OAuth access token ({})", ["ya29."], 10)                     // ~150+
        all += family("google-api-key", "Google API key ({})", ["AIza"], 20, 64, .base64URL)                    // 35
        all += family("github-token", "GitHub token ({})", ["github_pat_"], 10, 4_096, .base64URL)              // 22_59
        all += family("github-token", "GitHub token ({})", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], 10, 255, .alphanumeric) // 36
        all += family("gitlab-token", "GitLab token ({})", ["glpat-", "gldt-", "glrt-", "glptt-", "gloas-", "glcbt-"], 10, 255, .base64URL) // 20
        all += family("aws-access-key-id", "AWS access key id ({})", ["AKIA"], 12, 20, .upperAlphanumeric)      // 16
        all += family("aws-access-key-id", "AWS temporary access key id ({})", ["ASIA"], 12, 20, .upperAlphanumeric)
        all += family("stripe-secret-key", "Stripe secret key ({})", ["sk_live_"], 10, 255, .alphanumeric)     // 24–99
        all += family("stripe-secret-key", "Stripe test secret key ({})", ["sk_test_"], 10, 255, .alphanumeric)
        all += family("stripe-secret-key", "Stripe restricted key ({})", ["rk_live_"], 10, 255, .alphanumeric)
        all += family("stripe-secret-key", "Stripe test restricted key ({})", ["rk_test_"], 10, 255, .alphanumeric)
        all += family("stripe-webhook-secret", "Stripe webhook secret ({})", ["whsec_"], 20, 255, .alphanumeric) // 32
        // OpenAI (sk-proj-, sk-svcacct-, sk-admin-, sk-…), Anthropic (sk-ant-), OpenRouter (sk-or-), DeepSeek (sk-).
        all += family("api-secret-key", "API secret key (sk-: OpenAI, Anthropic and others)", ["sk-ant-", "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-or-"], 20, 4_096, .base64URL)
        all += family("api-secret-key", "API secret key (sk-: OpenAI, Anthropic and others)", ["sk-"], 20, 4_096, .base64URL, inside: false) // 48
        all += family("npm-token", "npm token ({})", ["npm_"], 24, 255, .alphanumeric)                         // 36
        all += family("slack-token", "Slack token ({})", ["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "xoxe-", "xoxe.xoxp-"], 10, 4_096, .base64URL)
        all += family("slack-token", "Slack app token ({})", ["xapp-"], 10, 4_096, .base64URL)
        all += family("hugging-face-token", "Hugging Face token ({})", ["hf_"], 24, 255, .alphanumeric)        // 34
        all += family("pypi-token", "PyPI token ({})", ["pypi-"], 50, 4_096, .base64URL)                       // ~180
        all += family("sendgrid-api-key", "SendGrid API key ({})", ["SG."], 40, 255, .token, inside: false)    // 22.43
        all += family("shopify-token", "Shopify token ({})", ["shpat_", "shpca_", "shppa_"], 20, 255, .hex)    // 32
        all += family("shopify-token", "Shopify secret ({})", ["shpss_"], 20, 255, .hex)
        all += family("digitalocean-token", "DigitalOcean token ({})", ["dop_v1_", "doo_v1_", "dor_v1_"], 40, 255, .hex) // 64
        all += family("linear-api-key", "Linear API key ({})", ["lin_api_"], 26, 255, .alphanumeric)           // 40
        all += family("notion-token", "Notion token ({})", ["ntn_"], 30, 255, .alphanumeric)                   // 46
        all += family("notion-token", "Notion token ({})", ["secret_"], 30, 255, .alphanumeric, inside: false) // 43
        all += family("figma-token", "Figma token ({})", ["figd_"], 26, 255, .base64URL)                       // ~40
        all += family("supabase-access-token", "Supabase access token ({})", ["sbp_"], 26, 255, .alphanumeric) // 40
        all += family("groq-api-key", "Groq API key ({})", ["gsk_"], 30, 255, .alphanumeric)                   // 52
        all += family("xai-api-key", "xAI API key ({})", ["xai-"], 30, 255, .alphanumeric)                     // 80
        all += family("replicate-token", "Replicate token ({})", ["r8_"], 24, 255, .alphanumeric)               // 37
        all += family("perplexity-api-key", "Perplexity API key ({})", ["pplx-"], 30, 255, .alphanumeric)       // 48
        all += family("postman-api-key", "Postman API key ({})", ["PMAK-"], 30, 255, .base64URL)                // 59
        all += family("atlassian-api-token", "Atlassian API token ({})", ["ATATT"], 30, 4_096, .token)          // ~190
        all += family("doppler-token", "Doppler token ({})", ["dp.st.", "dp.pt.", "dp.ct.", "dp.sa."], 30, 255, .base64URL) // 43+
        all += family("age-secret-key", "age secret key", ["AGE-SECRET-KEY-1"], 30, 80, .upperAlphanumeric)    // 58
        all += family("mailgun-api-key", "Mailgun API key ({})", ["key-"], 21, 64, .hex, inside: false)        // 32
        all += family("databricks-token", "Databricks token ({})", ["dapi"], 21, 64, .hex, inside: false)      // 32
        return all
    }()

    /// Every family the classifier knows.
    package static let all: [CredentialFamily] = [.jwt, .jwe, .sessionBlob, .authorization, .pemPrivateKey, .sessionCookie, .telegramBotToken, .urlWithPassword] + prefixed
}
