import Foundation
import RizqTestSupport
import XCTest
@testable import RizqCredentials

/// The rule asked about a string, as the importer asks about a `localStorage` value.
private func inspect(key: String, value: String) -> CredentialRule.Verdict? { CredentialRule.judge(key: key, value: CredentialCandidate.string(value)) }
/// The value evidence alone of a string.
private func strongValueShape(_ text: String) -> String? { CredentialRule.valueShape(CredentialCandidate.string(text)) }


/// Which entries are credentials, and why (the routing to the real Secret Service is tested in
/// `CredentialRoutingTests`).
final class CredentialRuleTests: XCTestCase {
    private func evidence(_ key: String, _ value: String) -> CredentialRule.Verdict.Evidence? {
        inspect(key: key, value: value)?.evidence
    }

    func testAuthLibraryKeys() {
        for key in [
            "firebase:authUser:AIzaFake:[DEFAULT]", "@@auth0spajs@@::client::default::openid", "msal.token.keys.client-id",
            "uid.tid-login.windows.net-accesstoken-client-tenant-scope", "sb-abcdefgh-auth-token",
            "CognitoIdentityServiceProvider.client.user.idToken", "CognitoIdentityServiceProvider.client.LastAuthUser",
            "okta-token-storage", "Meteor.loginToken", "Meteor.loginTokenExpires",
        ] {
            XCTAssertEqual(evidence(key, "x"), .authLibraryKey, key)
        }
    }

    func testValueShapes() {
        XCTAssertEqual(evidence("a", FakeToken.jwt()), .valueShape)
        XCTAssertEqual(evidence("a", "Bearer " + FakeToken.jwt()), .valueShape)
        XCTAssertEqual(evidence("a", jsonString(FakeToken.jwt())), .valueShape, "a JSON string literal holding a JWT (Portainer)")
        XCTAssertEqual(evidence("a", FakeToken.jwe()), .valueShape)
        XCTAssertEqual(evidence("a", FakeToken.base64Session()), .valueShape)
        for token in [FakeToken.googleAccess(), FakeToken.github(), FakeToken.awsKeyID(), FakeToken.stripe()] {
            XCTAssertEqual(evidence("a", token), .valueShape, String(token.prefix(4)))
        }
        XCTAssertEqual(evidence("a", #"[{"t":"\#(FakeToken.jwt())","n":"admin"}]"#), .valueShape, "a JWT inside a JSON array")
        XCTAssertEqual(strongValueShape(#"[{"t":"\#(FakeToken.jwt())"}]"#), "JWT inside the JSON value (at /0/t)")
        // Look-alikes are not tokens.
        XCTAssertNil(evidence("a", "eyJhbGciOi"))
        XCTAssertNil(evidence("a", "version.1.2"))
        XCTAssertNil(evidence("a", "AKIA"))
        XCTAssertNil(evidence("a", "eyJub3QiOiJqc29uIn0.eyJ4IjoxfQ"), "two parts are not a JWT")
        XCTAssertNil(evidence("a", "base64-abc"))
    }

    func testJSONFields() {
        XCTAssertEqual(evidence("state", #"{"access_token":"opaque-value","expires_in":3600}"#), .jsonFields)
        XCTAssertEqual(evidence("state", #"{"user":{"stsTokenManager":{"refreshToken":"opaque"}}}"#), .jsonFields)
        XCTAssertEqual(evidence("state", #"{"idToken":"x1"}"#), .jsonFields)
        XCTAssertEqual(evidence("state", #"{"secret":"s"}"#), .jsonFields)
        XCTAssertEqual(evidence("state", #"{"nested":"{\"apiKey\":\"k\"}"}"#), .jsonFields, "inside JSON held in a string")
        XCTAssertNil(evidence("state", #"{"access_token":"","refresh_token":null}"#), "empty fields hold no credential")
        XCTAssertNil(evidence("state", #"{"showPasswordHints":true,"token_type":"bearer"}"#))
        XCTAssertNil(evidence("prefs", #"{"theme":"dark","dailyGoal":3}"#))
    }

    func testKeyNames() {
        for key in ["auth_token", "AccessToken", "user_session", "client_secret", "password", "jellyfin_credentials", "api_key", "stripeApiKey", "x-api-key", "isAuthenticated"] {
            XCTAssertEqual(evidence(key, "v"), .keyName, key)
        }
        for key in ["theme_mode", "lastUsedProvider", "rizq_user_habits", "sb_wiz.qc"] {
            XCTAssertNil(evidence(key, "v"), key)
        }
    }

    /// Issue 18, failure 3: the shapes inference missed, and their families.
    func testCredentialShapesAndTheirFamiliesAreRecognised() {
        let shapes: [(String, String)] = [
            ("bearer", FakeToken.bearer()), ("bearer jwt", "Bearer " + FakeToken.jwt()), ("lowercase bearer", "bearer " + FakeToken.opaque()),
            ("token scheme", "Token " + FakeToken.opaque()), ("basic", FakeToken.basic()),
            ("stripe live", FakeToken.stripe()), ("stripe test", FakeToken.stripeTest()), ("stripe restricted", FakeToken.stripeRestricted()),
            ("openai", FakeToken.openAIProject()), ("anthropic", FakeToken.anthropic()), ("plain sk-", "sk-" + FakeToken.opaque()),
            ("google api key", FakeToken.googleAPIKey()), ("npm", FakeToken.npm()),
            ("slack xoxa", FakeToken.slack("xoxa")), ("slack xoxb", FakeToken.slack("xoxb")), ("slack xoxp", FakeToken.slack("xoxp")),
            ("slack xoxr", FakeToken.slack("xoxr")), ("github", FakeToken.github()), ("gitlab", FakeToken.gitlab()),
            ("hugging face", FakeToken.huggingFace()), ("sendgrid", FakeToken.sendGrid()), ("aws", FakeToken.awsKeyID()),
            ("express cookie", FakeToken.expressSessionCookie()), ("php cookie", FakeToken.phpSessionCookie()),
            ("pem", FakeToken.pemPrivateKey()),
        ]
        for (name, value) in shapes {
            XCTAssertEqual(evidence("a", value), .valueShape, name)
            XCTAssertEqual(evidence("a", jsonString(value)), .valueShape, "\(name) in a JSON string literal")
            XCTAssertNotNil(strongValueShape(#"{"cfg":{"v":\#(jsonString(value))}}"#), "\(name) inside a JSON value")
        }
        for key in ["jwt", "pwd", "passwd", "user_pwd", "adminPasswd", "JWT_cache", "pin", "sid", "otp", "pass", "passphrase", "aws_access_key", "privateKey"] {
            XCTAssertEqual(evidence(key, "opaque-value"), .keyName, key)
        }
        XCTAssertEqual(evidence("state", #"{"pwd":"opaque"}"#), .jsonFields)
    }

    /// The other side of failure 3: ordinary settings that resemble credentials stay settings.
    func testOrdinarySettingsAreNotTakenForCredentials() {
        let ordinary: [(String, String)] = [
            ("locale", "sk-SK"), ("plan", "Basic"), ("plan_name", "Basic plan"), ("tier", "Basic subscription yearly"),
            ("greeting", "Bearer of good news"), ("scheme", "Bearer"), ("author_name", "Ada Lovelace"), ("authorId", "12"),
            ("spinner_style", "dots"), ("inside_tip", "x"), ("pinned_tabs", "[1,2]"), ("shipping_zone", "EU"),
            ("cookie_consent", "theme=dark; lang=en"), ("prefs_cookie", "theme=dark; sessionTimeout=30"), ("tags", "npm_modules"),
            ("accent", "#aabbcc"), ("device", "123e4567-e89b-12d3-a456-426614174000"), ("link", "https://example.com/?a=1&b=2;c=3"),
            ("avatar", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"),
            ("keymap", "key-binding-ctrl-shift-alt-something-long-enough-here"), ("sort", "AIza"), ("layout", "sk-grid"),
            ("version", "1.2.3"), ("since", "2026-11-22T13:47:00Z"), ("count", "42"), ("flags", #"{"darkMode":true,"sidebar":"left"}"#),
            ("shortcut", "Basic Token Bearer"), ("css", "display=block; width=100%"), ("email", "a@example.com"),
            ("phone", "+1 555 0100"), ("message", "Token Ring networks, 1985"), ("path", "/home/user/.config"), ("mode", "Basic dGVzdA=="),
            ("query", "q=hello world; page=2"), ("unicode", "résumé; naïve=ok"), ("telegram_handle", "12345678:short"),
            ("build", "dapi-release-2026"), ("greeting_key", "key-value"), ("chat", "xoxo, see you"), ("tone", "hf_light"),
        ]
        for (key, value) in ordinary {
            XCTAssertNil(inspect(key: key, value: value), "\(key) = \(value)")
        }
    }

    /// Issue 50, item 12: `scheme://user:password@host` values and `pw`/`dsn` names were not
    /// credentials to the rule (a database URL synced, published to the fleet, kept in a suite).
    func testURLsWithAPasswordAndPwAndDsnNames() {
        for value in [
            "postgres://app:s3cret-pass@db.internal:5432/app", "mysql://root:hunter2@127.0.0.1/db", "redis://:authpass@cache:6379/0",
            "https://user:token-here@git.example.com/repo.git", "connect with amqp://guest:guest@rabbit/ please",
            "Server=db;Url=mongodb+srv://admin:pa%24%24@cluster0.example.net/test",
        ] {
            XCTAssertEqual(evidence("endpoint", value), .valueShape, value)
            XCTAssertEqual(strongValueShape(value), "URL with a password (scheme://user:password@host)", value)
        }
        for value in [
            "https://example.com/path/a@b", "ssh://git@github.com/org/repo", "http://user:@host/", "mailto:someone@example.com",
            "https://example.com/?q=a:b@c", "see http://host:8080/x", "user@example.com",
        ] {
            XCTAssertNil(strongValueShape(value), value)
        }
        for key in ["pw", "db.pw", "db_pw", "smtp-pw", "dsn", "sentry_dsn", "database.dsn", "databaseDsn"] {
            XCTAssertEqual(evidence(key, "x9"), .keyName, key)
        }
        XCTAssertEqual(evidence("data", #"{"user":"a","pw":"x"}"#), .jsonFields)
        XCTAssertEqual(evidence("data", #"{"dsn":"x"}"#), .jsonFields)
        for key in ["pwm.level", "dsnames", "power", "newspaper"] {
            XCTAssertNil(evidence(key, "setting"), key)
        }
    }
}

/// The JSON text of a string, as `JSON.stringify` would write it.
private func jsonString(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
}
