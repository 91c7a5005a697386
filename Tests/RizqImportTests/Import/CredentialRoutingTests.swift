import Foundation
import XCTest
import RizqPrefs
import RizqSecrets
@testable import RizqImport

/// Every credential pattern of the issue goes to the real Secret Service, and afterwards no
/// file under the root holds any of the token values.
final class CredentialRoutingTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    func testEveryCredentialPatternGoesToTheSecretServiceAndNoSuiteFileHoldsIt() throws {
        let root = ImportRoot()
        let service = TestService()
        let jwt = FakeToken.jwt()
        let refresh = FakeToken.opaque()
        let entries: [(key: String, value: String, token: String)] = [
            // Values shaped like tokens, under harmless key names.
            ("cached_value", jwt, jwt),
            ("portainer.JWT", jsonString(FakeToken.jwt(subject: "portainer")), ""),
            ("enc_blob", FakeToken.jwe(), ""),
            ("sb-session-cookie", FakeToken.base64Session(), ""),
            ("google_access", FakeToken.googleAccess(), ""),
            ("gh", FakeToken.github(), ""),
            ("aws_id", FakeToken.awsKeyID(), ""),
            ("stripe", FakeToken.stripe(), ""),
            // Key names.
            ("my_token", "opaque-" + FakeToken.opaque(), ""),
            ("authState", "opaque-" + FakeToken.opaque(), ""),
            ("user_session", "opaque-" + FakeToken.opaque(), ""),
            ("client_secret", "opaque-" + FakeToken.opaque(), ""),
            ("savedPassword", "opaque-" + FakeToken.opaque(), ""),
            ("jellyfin_credentials", #"{"Servers":[{"Id":"\#(FakeToken.opaque())"}]}"#, ""),
            ("api_key", "opaque-" + FakeToken.opaque(), ""),
            ("mapsApiKey", "opaque-" + FakeToken.opaque(), ""),
            // Auth libraries' keys.
            ("firebase:authUser:AIzaFake:[DEFAULT]", #"{"uid":"u1","stsTokenManager":{"accessToken":"\#(FakeToken.jwt())","refreshToken":"\#(refresh)"}}"#, refresh),
            ("@@auth0spajs@@::clientid::default::openid profile", #"{"body":{"access_token":"\#(FakeToken.opaque())"}}"#, ""),
            ("msal.token.keys.clientid", #"{"idToken":["k1"],"accessToken":["k2"]}"#, ""),
            ("00000000-0000-0000-0000-000000000000.tenant-login.windows.net-accesstoken-clientid-tenant-user.read", #"{"secret":"\#(FakeToken.opaque())"}"#, ""),
            ("sb-abcdefghij-auth-token", #"{"access_token":"\#(FakeToken.jwt())","refresh_token":"\#(FakeToken.opaque())","user":{"email":"a@example.com"}}"#, ""),
            ("CognitoIdentityServiceProvider.client.user.refreshToken", FakeToken.jwe(), ""),
            ("CognitoIdentityServiceProvider.client.user.clockDrift", "-503", "-503"),
            ("okta-token-storage", #"{"accessToken":{"accessToken":"\#(FakeToken.jwt())"}}"#, ""),
            ("Meteor.loginToken", FakeToken.opaque(), ""),
            // JSON values with credential fields, under harmless key names.
            ("state", #"{"access_token":"\#(FakeToken.opaque())","expires_in":3600}"#, ""),
            ("persist:root", #"{"auth":"{\"refresh_token\":\"\#(FakeToken.opaque())\"}","_persist":"{\"version\":-1}"}"#, ""),
            ("cfg", #"{"idToken":"\#(FakeToken.opaque())"}"#, ""),
            ("vault", #"{"secret":"\#(FakeToken.opaque())"}"#, ""),
            ("proxy-tokens", #"[{"t":"\#(FakeToken.jwt())","n":"admin"}]"#, ""),
        ]
        let plain: [(String, String)] = [("theme_mode", "dark"), ("welcome_shown", "true")]
        let dump = ImportDump(pairs: entries.map { ($0.key, $0.value) } + plain)
        let report = try Importer(options: root.options(service: service.name)).run(dump)

        XCTAssertEqual(report.count(.secret), entries.count)
        for entry in entries {
            let item = report.items.first { $0.sourceKey == entry.key }
            XCTAssertEqual(item?.action, .secret, "\(entry.key) was not sent to the Secret Service (\(item?.rule ?? "no item"))")
            XCTAssertEqual(item?.destination, .secret(service: service.name, account: entry.key))
            XCTAssertTrue(try service.secret(entry.key) == entry.value, "the Secret Service does not hold \(entry.key)'s value")
            // The whole value, and the token inside it, appear in no file under the root.
            XCTAssertEqual(root.filesContaining(entry.value), [], "a file holds \(entry.key)'s value")
            if !entry.token.isEmpty, entry.token.count > 8 {
                XCTAssertEqual(root.filesContaining(entry.token), [], "a file holds the token inside \(entry.key)")
            }
            XCTAssertFalse(report.text.contains(entry.value), "the text report holds \(entry.key)'s value")
            XCTAssertFalse(report.json.contains(entry.value), "the JSON report holds \(entry.key)'s value")
        }
        XCTAssertEqual(Set(try service.store.accounts()), Set(entries.map(\.key)))
        let suite = try root.store(root.appID)
        XCTAssertEqual(Set(suite.keys), ["theme_mode", "welcome_shown"])
        XCTAssertEqual(root.filesContaining(jwt), [])
    }

    /// Issue 18, failure 3: the ten shapes that went to suite files and dry runs in plain text,
    /// under harmless key names, go to the real Secret Service and appear in no dry run or file.
    func testTheShapesInferenceMissedGoToTheSecretServiceAndNeverToAFileOrADryRun() throws {
        let root = ImportRoot()
        let service = TestService()
        let entries: [(key: String, value: String)] = [
            ("header", FakeToken.bearer()), ("proxy_header", FakeToken.basic()), ("payments", FakeToken.stripeTest()),
            ("llm", FakeToken.openAIProject()), ("maps", FakeToken.googleAPIKey()), ("registry", FakeToken.npm()),
            ("chat_bot", FakeToken.slack("xoxa")), ("cookies", FakeToken.expressSessionCookie()),
            ("jwt", "opaque-" + FakeToken.opaque()), ("pwd", "opaque-" + FakeToken.opaque()), ("passwd", "opaque-" + FakeToken.opaque()),
        ]
        let plain: [(String, String)] = [("locale", "sk-SK"), ("plan", "Basic plan"), ("author", "Ada")]
        let dump = ImportDump(pairs: entries.map { ($0.key, $0.value) } + plain)

        let dryRun = try Importer(options: root.options(dryRun: true, service: service.name)).run(dump)
        for entry in entries {
            XCTAssertEqual(dryRun.items.first { $0.sourceKey == entry.key }?.action, .secret, entry.key)
            XCTAssertFalse(dryRun.text.contains(entry.value) || dryRun.json.contains(entry.value), "the dry run shows \(entry.key)'s value")
        }
        XCTAssertEqual(root.snapshot(), [:])

        let report = try Importer(options: root.options(service: service.name)).run(dump)
        for entry in entries {
            XCTAssertEqual(report.items.first { $0.sourceKey == entry.key }?.action, .secret, entry.key)
            XCTAssertTrue(try service.secret(entry.key) == entry.value, "the Secret Service does not hold \(entry.key)'s value")
            XCTAssertEqual(root.filesContaining(entry.value), [], "a file holds \(entry.key)'s value")
            XCTAssertFalse(report.text.contains(entry.value) || report.json.contains(entry.value), "the report holds \(entry.key)'s value")
        }
        XCTAssertEqual(Set(try root.store(root.appID).keys), ["locale", "plan", "author"], "ordinary settings stay in the suite")
    }

    func testEmptyCredentialsAreSkippedNotStored() throws {
        let root = ImportRoot()
        let service = TestService()
        let dump = ImportDump(pairs: [("ngx-webstorage|token", "null"), ("user password", ""), ("auth", "undefined")])
        let report = try Importer(options: root.options(service: service.name)).run(dump)
        XCTAssertEqual(report.items.map(\.action), [.skipped, .skipped, .skipped])
        XCTAssertTrue(report.items[0].note?.contains("holds no value") == true)
        XCTAssertEqual(try service.store.accounts(), [])
        XCTAssertNil(try root.store(root.appID).prefValue(forKey: "user password"))
    }
}
