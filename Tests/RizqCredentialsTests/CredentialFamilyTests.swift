import Foundation
import RizqTestSupport
import XCTest
@testable import RizqCredentials

/// The rule asked about a string, as the importer asks about a `localStorage` value.
private func inspect(key: String, value: String) -> CredentialRule.Verdict? { CredentialRule.judge(key: key, value: CredentialCandidate.string(value)) }
/// The value evidence alone of a string.
private func strongValueShape(_ text: String) -> String? { CredentialRule.valueShape(CredentialCandidate.string(text)) }


/// Issue 29, item 8: the credential classifier recognises each family by its prefix and shape
/// with tolerant lengths — a 29-character tail after `AIza` slipped past — tested on variants
/// of every family: the documented length, about 70 % of it, 125 % of it, every character of
/// the family's alphabet, inside a URL or a config line, inside JSON; and ordinary settings
/// that merely start like a family are not taken for credentials. Device sync and fleet suites
/// use the same classifier (``CredentialClassifier``) as their gate.
final class CredentialFamilyTests: XCTestCase {
    private static let alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    private static let base64URL = alphanumeric + "-_"
    private static let hex = "0123456789abcdef"

    /// A family as the providers document it: prefix, the usual length of what follows, its
    /// characters, and whether the prefix is distinctive enough to be found inside a text.
    private struct Family {
        var id: String
        var prefix: String
        var length: Int
        var alphabet: String
        var inside = true
    }

    private static let families: [Family] = [
        Family(id: "google-oauth-token", prefix: "ya29.", length: 150, alphabet: base64URL + "."),
        Family(id: "google-api-key", prefix: "AIza", length: 35, alphabet: base64URL),
        Family(id: "github-token", prefix: "github_pat_", length: 82, alphabet: alphanumeric + "_"),
        Family(id: "github-token", prefix: "ghp_", length: 36, alphabet: alphanumeric),
        Family(id: "github-token", prefix: "gho_", length: 36, alphabet: alphanumeric),
        Family(id: "github-token", prefix: "ghs_", length: 36, alphabet: alphanumeric),
        Family(id: "gitlab-token", prefix: "glpat-", length: 20, alphabet: base64URL),
        Family(id: "aws-access-key-id", prefix: "AKIA", length: 16, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
        Family(id: "aws-access-key-id", prefix: "ASIA", length: 16, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
        Family(id: "stripe-secret-key", prefix: "sk_live_", length: 24, alphabet: alphanumeric),
        Family(id: "stripe-secret-key", prefix: "rk_test_", length: 99, alphabet: alphanumeric),
        Family(id: "stripe-webhook-secret", prefix: "whsec_", length: 32, alphabet: alphanumeric),
        Family(id: "api-secret-key", prefix: "sk-proj-", length: 156, alphabet: base64URL),
        Family(id: "api-secret-key", prefix: "sk-ant-", length: 100, alphabet: base64URL),
        Family(id: "api-secret-key", prefix: "sk-", length: 48, alphabet: alphanumeric, inside: false),
        Family(id: "npm-token", prefix: "npm_", length: 36, alphabet: alphanumeric),
        Family(id: "slack-token", prefix: "xoxb-", length: 50, alphabet: "0123456789-" + alphanumeric),
        Family(id: "hugging-face-token", prefix: "hf_", length: 34, alphabet: alphanumeric),
        Family(id: "pypi-token", prefix: "pypi-", length: 180, alphabet: base64URL),
        Family(id: "sendgrid-api-key", prefix: "SG.", length: 66, alphabet: base64URL + ".", inside: false),
        Family(id: "shopify-token", prefix: "shpat_", length: 32, alphabet: hex),
        Family(id: "digitalocean-token", prefix: "dop_v1_", length: 64, alphabet: hex),
        Family(id: "linear-api-key", prefix: "lin_api_", length: 40, alphabet: alphanumeric),
        Family(id: "notion-token", prefix: "ntn_", length: 46, alphabet: alphanumeric),
        Family(id: "notion-token", prefix: "secret_", length: 43, alphabet: alphanumeric, inside: false),
        Family(id: "figma-token", prefix: "figd_", length: 40, alphabet: base64URL),
        Family(id: "supabase-access-token", prefix: "sbp_", length: 40, alphabet: hex),
        Family(id: "groq-api-key", prefix: "gsk_", length: 52, alphabet: alphanumeric),
        Family(id: "xai-api-key", prefix: "xai-", length: 80, alphabet: alphanumeric),
        Family(id: "replicate-token", prefix: "r8_", length: 37, alphabet: alphanumeric),
        Family(id: "perplexity-api-key", prefix: "pplx-", length: 48, alphabet: alphanumeric),
        Family(id: "postman-api-key", prefix: "PMAK-", length: 59, alphabet: hex + "-"),
        Family(id: "atlassian-api-token", prefix: "ATATT", length: 186, alphabet: base64URL + "="),
        Family(id: "doppler-token", prefix: "dp.st.", length: 43, alphabet: alphanumeric),
        Family(id: "age-secret-key", prefix: "AGE-SECRET-KEY-1", length: 58, alphabet: "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
        Family(id: "mailgun-api-key", prefix: "key-", length: 32, alphabet: hex, inside: false),
        Family(id: "databricks-token", prefix: "dapi", length: 32, alphabet: hex, inside: false),
    ]

    /// A tail of `count` characters that holds every character of `alphabet` when it is long
    /// enough (so that no character of the family's alphabet is refused), the rest random.
    private func tail(_ count: Int, _ alphabet: String) -> String {
        let characters = Array(alphabet)
        var text = Array(characters.shuffled().prefix(count))
        while text.count < count { text.append(characters[Int.random(in: 0..<characters.count)]) }
        // A token starts and ends with a letter or digit, not with its punctuation.
        let letters = Array(Self.alphanumeric.filter { alphabet.contains($0) })
        if let first = letters.randomElement(), let last = letters.randomElement() {
            text[0] = first
            text[text.count - 1] = last
        }
        return String(text)
    }

    private func variants(_ family: Family) -> [(label: String, value: String)] {
        let lengths = [("documented length", family.length), ("70 %", Int((Double(family.length) * 0.7).rounded(.up))),
                       ("125 %", Int((Double(family.length) * 1.25).rounded(.up)))]
        return lengths.map { ("\(family.prefix) \($0.0) (\($0.1))", family.prefix + tail($0.1, family.alphabet)) }
    }

    func testEveryFamilyIsRecognisedWithTolerantLengths() {
        var missed: [String] = []
        for family in Self.families {
            for variant in variants(family) where strongValueShape(variant.value) == nil {
                missed.append(variant.label)
            }
        }
        XCTAssertEqual(missed, [], "variants that slipped past the classifier")
    }

    /// The report's case: `AIza` and 29 characters, and the shorter and longer keys around it.
    func testAGoogleAPIKeyWithATwentyNineCharacterTail() {
        for count in [24, 29, 30, 35, 39, 45] {
            let key = "AI" + "za" + tail(count, Self.base64URL)
            XCTAssertEqual(strongValueShape(key), "Google API key (AIza)", "\(count)")
            XCTAssertEqual(inspect(key: "maps", value: key)?.evidence, .valueShape, "\(count)")
        }
    }

    func testKeysInsideATextAreFound() {
        var missed: [String] = []
        for family in Self.families where family.inside {
            let key = family.prefix + tail(family.length, family.alphabet)
            for text in ["https://example.com/api?key=\(key)&lang=en", "token: \(key)", "export API_KEY=\"\(key)\"", "(\(key))"]
            where strongValueShape(text) == nil {
                missed.append("\(family.prefix) in \(text.prefix(20))…")
            }
        }
        XCTAssertEqual(missed, [])
        XCTAssertEqual(strongValueShape("Authorization: Bearer " + FakeToken.jwt()), "JWT inside the text")
        XCTAssertEqual(strongValueShape("https://app.example/callback#access_token=" + FakeToken.jwt() + "&state=1"), "JWT inside the text")
        XCTAssertEqual(strongValueShape(#"{"maps":"https://x.example/js?key=\#(FakeToken.googleAPIKey())"}"#), "Google API key (AIza) inside the text inside the JSON value (at /maps)")
    }

    func testOrdinarySettingsAreNotCredentials() {
        let settings = [
            "sk-SK", "key-value", "secret_santa_enabled", "AIzawesome", "dapi-version", "Basic plan", "theme=dark; lang=en",
            "SG.Singapore", "pypi-mirror", "r8_setting", "hf_cache_dir", "xai-enabled", "gsk_default", "ATATTEMPT", "npm_config_cache",
            "ghp_short", "AKIAbcdefghijklmnop", "whsec_test", "use the sk- prefix for keys", "task-management-dashboard-settings",
            "https://example.com/docs/AIza-keys", "AGE-SECRET-KEY-1", "lin_api_docs", "glpat-", "ya29.", "12345678:short",
            "mailto:someone@example.com", "2026-11-26T10:00:00Z", "com.rizq.app.theme", "AIza" + String(repeating: " ", count: 30) + "x",
            "sk_live_" + String(repeating: "-", count: 30),
        ]
        for setting in settings {
            XCTAssertNil(strongValueShape(setting), setting)
        }
        // The prefix glued to a longer word is not a key of its own.
        XCTAssertNil(strongValueShape("my" + "AIza" + tail(35, Self.base64URL)))
        XCTAssertNil(strongValueShape("x" + "ghp_" + tail(36, Self.alphanumeric)))
    }

    /// The package API for device sync and fleet suites: "this value looks like a credential of
    /// family F".
    func testTheClassifierNamesTheFamily() throws {
        for family in Self.families {
            let key = family.prefix + tail(family.length, family.alphabet)
            XCTAssertEqual(CredentialClassifier.family(of: key)?.id, family.id, family.prefix)
            let known = try XCTUnwrap(CredentialFamily.all.first { $0.id == family.id }, family.id)
            XCTAssertTrue(CredentialClassifier.looks(key, like: known), family.prefix)
            XCTAssertFalse(CredentialClassifier.looks(key, like: .jwt), family.prefix)
        }
        XCTAssertTrue(CredentialClassifier.looks(FakeToken.jwt(), like: .jwt))
        XCTAssertTrue(CredentialClassifier.looks(FakeToken.jwe(), like: .jwe))
        XCTAssertTrue(CredentialClassifier.looks(FakeToken.pemPrivateKey(), like: .pemPrivateKey))
        XCTAssertTrue(CredentialClassifier.looks(FakeToken.basic(), like: .authorization))
        XCTAssertTrue(CredentialClassifier.looks(FakeToken.phpSessionCookie(), like: .sessionCookie))
        XCTAssertTrue(CredentialClassifier.looks(FakeToken.base64Session(), like: .sessionBlob))
        XCTAssertEqual(CredentialClassifier.family(of: "Bearer " + FakeToken.github()), CredentialFamily.prefixed.first { $0.prefix == "ghp_" })
        XCTAssertEqual(CredentialClassifier.family(of: "123456789:" + tail(35, Self.base64URL)), .telegramBotToken)
        XCTAssertEqual(CredentialClassifier.family(of: "postgres://app:s3cret@db/app"), .urlWithPassword)
        XCTAssertNil(CredentialClassifier.family(of: "dark"))
        XCTAssertEqual(Set(CredentialFamily.all.map(\.id)).count, Set(Self.families.map(\.id)).count + 8, "every family is tested")
    }
}
