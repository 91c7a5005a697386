import Foundation
import XCTest
@testable import RizqImport
@testable import RizqProfiles

/// The page the real-browser tests load (RealChromiumTests, RealFirefoxTests): it stores what
/// issue 14 names — ASCII, Latin-1 `café` (and U+0080/U+009F, which Windows-1252 would read as
/// € and Ÿ), Arabic, emoji, a lone surrogate, the empty string, 1 MB, a non-ASCII key, a
/// Supabase session JWT under an auth library's key — then sets and removes `deleted`.
struct BrowserTestPage {
    /// One `localStorage.setItem`: the key, the JavaScript string literal's content, and what it
    /// must read back as (`nil`: not valid Unicode).
    struct Item {
        var key: String
        var script: String
        var expected: String?
    }

    /// The auth library's key the session is stored under.
    static let sessionKey = "sb-rizqtest-auth-token"

    let accessToken = FakeToken.jwt(subject: "browser-test")
    let refreshToken = FakeToken.randomText(40)
    var session: String { #"{"access_token":"\#(accessToken)","token_type":"bearer","refresh_token":"\#(refreshToken)"}"# }
    private(set) var items: [Item] = []

    /// The page's items, then `extra` (each browser's own cases).
    init(extra: [Item] = []) {
        items = [
            Item(key: "ascii", script: "plain ascii", expected: "plain ascii"),
            Item(key: "latin1", script: "café", expected: "café"),
            Item(key: "c1", script: "\\u0080\\u009f", expected: "\u{80}\u{9F}"),
            Item(key: "arabic", script: "مرحبا بالعالم", expected: "مرحبا بالعالم"),
            Item(key: "emoji", script: "😀👍🏽🇸🇦", expected: "😀👍🏽🇸🇦"),
            Item(key: "lone", script: "a\\uD83Db", expected: nil),
            Item(key: "empty", script: "", expected: ""),
            Item(key: "big", script: "\" + \"0123456789abcdef\".repeat(65536) + \"", expected: String(repeating: "0123456789abcdef", count: 65_536)),
            Item(key: "مفتاح", script: "utf16 key", expected: "utf16 key"),
            Item(key: Self.sessionKey, script: session.replacingOccurrences(of: "\"", with: "\\\""), expected: session),
        ] + extra
    }

    /// The HTML: an inline script that stores every item, removes `deleted` again, then runs `after`.
    func html(after: String = "") -> String {
        var script = items.map { "localStorage.setItem(\"\($0.key)\", \"\($0.script)\");" }
        script.append("localStorage.setItem(\"deleted\", \"soon gone\"); localStorage.removeItem(\"deleted\");")
        if !after.isEmpty { script.append(after) }
        return "<!doctype html><meta charset=\"utf-8\"><title>rizq</title><script>\n" + script.joined(separator: "\n") + "\n</script>\n"
    }

    /// What the importer does with each key: the lone surrogates are skipped, the session goes to
    /// the Secret Service, the rest into the suite.
    var expectedActions: [String: String] {
        Dictionary(uniqueKeysWithValues: items.map { item in
            (item.key, item.key == Self.sessionKey ? "secret" : item.expected == nil ? "skipped" : "inferred")
        })
    }
}

extension XCTestCase {
    /// `origin` holds exactly the page's items, each value as the page stored it; the deleted
    /// key is gone; the lone surrogate is kept and named, never replaced.
    func assertStoredExactly(_ origin: StoredOrigin, page: BrowserTestPage, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(origin.keyCount, page.items.count, "every key once; the deleted one is gone", file: file, line: line)
        XCTAssertNil(origin["deleted"], file: file, line: line)
        for item in page.items {
            let stored = try XCTUnwrap(origin.items.first { $0.key.text == item.key }, item.key, file: file, line: line)
            if let expected = item.expected {
                XCTAssertTrue(stored.value.text == expected, "\(item.key): the value read back differs", file: file, line: line)
            } else {
                XCTAssertNil(stored.value.text, item.key, file: file, line: line)
            }
        }
        let lone = try XCTUnwrap(origin.items.first { $0.key.text == "lone" }?.value, file: file, line: line)
        XCTAssertEqual(lone.problem, "a lone UTF-16 surrogate (0xD83D) at code unit 1", file: file, line: line)
        XCTAssertEqual(lone.displayText, "a\\uD83Db", file: file, line: line)
    }

    /// A dry run, then a real import, of `origin` of the browser storage `source` through the
    /// built `rizq-prefs`: the dry run writes nothing; the real one puts every item where
    /// ``BrowserTestPage/expectedActions`` says, the session into the real Secret Service only
    /// (never in a suite file, the report or an error). Returns the real run's JSON report.
    @discardableResult
    func assertImportsThroughCLI(from source: String, origin: String, page: BrowserTestPage, appID: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let root = TemporaryFolder("rizq-browser-root")
        let service = "org.rizq.tests.browser.\(UUID().uuidString.prefix(8))"
        let secrets = SecretServiceStore(service: service)
        defer { _ = try? secrets.deleteSecret(forAccount: BrowserTestPage.sessionKey) }
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root.path
        let arguments = ["import-app", "--from", source, "--origin", origin, "--app", appID, "--service", service, "--json"]
        let dry = try runCommand(builtProduct("rizq-prefs"), arguments + ["--dry-run"], environment: environment)
        XCTAssertEqual(dry.status, 0, dry.stderr, file: file, line: line)
        XCTAssertEqual(fileSnapshot(under: root.path), [:], "a dry run writes nothing", file: file, line: line)
        let real = try runCommand(builtProduct("rizq-prefs"), arguments, environment: environment)
        XCTAssertEqual(real.status, 0, real.stderr, file: file, line: line)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(real.stdout.utf8)) as? [String: Any], file: file, line: line)
        let reported = try XCTUnwrap(report["items"] as? [[String: Any]], file: file, line: line)
        let actions = Dictionary(uniqueKeysWithValues: reported.map { ($0["key"] as? String ?? "", $0["action"] as? String ?? "") })
        XCTAssertEqual(actions, page.expectedActions, file: file, line: line)
        XCTAssertTrue((reported.first { $0["key"] as? String == "lone" }?["note"] as? String)?.contains("lone UTF-16 surrogate") == true, file: file, line: line)
        XCTAssertEqual(report["origin"] as? String, origin, file: file, line: line)

        let suite = try SuiteStore(suite: appID, appID: appID, root: root.path)
        for item in page.items where item.expected != nil && item.key != BrowserTestPage.sessionKey {
            XCTAssertTrue(suite.string(forKey: item.key) == item.expected, "\(item.key): the suite value differs", file: file, line: line)
        }
        XCTAssertNil(suite.object(forKey: "lone"), file: file, line: line)
        XCTAssertTrue(try secrets.secret(forAccount: BrowserTestPage.sessionKey) == page.session, "the session is in the Secret Service", file: file, line: line)
        for secret in [page.accessToken, page.refreshToken] {
            XCTAssertEqual(filesContaining(secret, under: root.path), [], "a token reached a suite file", file: file, line: line)
            XCTAssertFalse(dry.stdout.contains(secret) || real.stdout.contains(secret) || dry.stderr.contains(secret) || real.stderr.contains(secret), "a token is in the report", file: file, line: line)
        }
        return report
    }
}
