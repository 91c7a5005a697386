import Foundation
import XCTest
import RizqPrefs
import RizqSecrets
@testable import RizqImport
@testable import RizqCredentials

/// The rule asked about a string, as the importer asks about a `localStorage` value.
private func inspect(key: String, value: String) -> CredentialRule.Verdict? { CredentialRule.judge(key: key, value: CredentialCandidate.string(value)) }
/// The value evidence alone of a string.
private func strongValueShape(_ text: String) -> String? { CredentialRule.valueShape(CredentialCandidate.string(text)) }


/// The readers and the importer on real-world dumps (../shared/corpus/localstorage). Those files
/// hold real, expired credentials: they are read here at test time, never copied, and no
/// assertion message ever includes a value from them (only file names and item numbers).
final class CorpusTests: XCTestCase {
    /// What each JSON file of the corpus reads as.
    private let expectedDumps: [(file: String, format: ImportDump.Format, count: Int, warning: String?)] = [
        ("flat-betterdiscord-latin1-keys.json", .object, 7, nil),
        ("flat-cognito-amplify5-federated.json", .object, 5, nil),
        ("flat-node-bot-nonstring-values.json", .object, 5, "value(s) are not strings"),
        ("flat-puppeteer-google-sbwiz-datauri.json", .object, 12, nil),
        ("flat-selenium-namespaced-jwt.json", .object, 27, nil),
        ("flat-stealthwriter-zustand-intercom.json", .object, 5, nil),
        ("pw-betterauth-cookies-plus-ls.json", .playwright, 3, "cookie(s) were not imported"),
        ("pw-cognito-amplify.json", .playwright, 6, nil),
        ("pw-supabase-es256.json", .playwright, 1, nil),
        ("pw-supabase-mikaza.json", .playwright, 2, nil),
        ("pw-supabase-mock-zustand-todo.json", .playwright, 3, nil),
        ("pw-supabase-ssr-cookie-base64.json", .playwright, 0, "nothing to import"),
    ]

    func testEveryJSONDumpReadsWithTheExpectedFormat() throws {
        let folder = try requireCorpus()
        for expected in expectedDumps {
            let dump: ImportDump
            do {
                dump = try ImportDump(contentsOfFile: folder + "/" + expected.file)
            } catch {
                XCTFail("\(expected.file) did not read: \(error)")
                continue
            }
            XCTAssertEqual(dump.format, expected.format, expected.file)
            XCTAssertEqual(dump.entries.count, expected.count, expected.file)
            XCTAssertEqual(Set(dump.keys).count, dump.entries.count, "\(expected.file): each key once")
            if let warning = expected.warning {
                XCTAssertTrue(dump.warnings.contains { $0.contains(warning) }, "\(expected.file) should warn: \(warning)")
            }
            // The same file read with its format named explicitly gives the same dump.
            let explicit = try ImportDump(contentsOfFile: folder + "/" + expected.file, format: expected.format)
            XCTAssertEqual(explicit.entries, dump.entries, expected.file)
        }
    }

    func testNonStringValuesAndLatin1KeysAndHugeValuesReadExactly() throws {
        let folder = try requireCorpus()
        let bot = try ImportDump(contentsOfFile: folder + "/flat-node-bot-nonstring-values.json")
        XCTAssertEqual(bot.entries.filter { $0.originalKind == .number }.count, 2)
        // Keys with non-ASCII characters arrive intact (compared with Foundation's own reader).
        let discordPath = folder + "/flat-betterdiscord-latin1-keys.json"
        let discord = try ImportDump(contentsOfFile: discordPath)
        let foundation = try XCTUnwrap(JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: discordPath))) as? [String: String])
        XCTAssertEqual(Set(discord.keys), Set(foundation.keys))
        XCTAssertTrue(discord.keys.contains { $0.contains("ä") })
        for entry in discord.entries { XCTAssertTrue(foundation[entry.key] == entry.value, "a value of the betterdiscord file differs") }
        // 36 KB of values with embedded data: URIs, byte for byte as Foundation reads them.
        let puppeteerPath = folder + "/flat-puppeteer-google-sbwiz-datauri.json"
        let puppeteer = try ImportDump(contentsOfFile: puppeteerPath)
        let expected = try XCTUnwrap(JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: puppeteerPath))) as? [String: String])
        for entry in puppeteer.entries { XCTAssertTrue(expected[entry.key] == entry.value, "a value of the puppeteer file differs") }
    }

    func testASingleSavedValueIsNotTakenForADump() throws {
        let folder = try requireCorpus()
        XCTAssertThrowsError(try ImportDump(contentsOfFile: folder + "/value-infinitecraft-huge-emoji.json")) { error in
            guard case ImportError.dump(.wrongShape(_, _, let reason)) = error else { return XCTFail("expected wrongShape") }
            XCTAssertTrue(reason.contains("one saved value"))
        }
        // Asked for explicitly, its 330 KB of emoji sequences come through whole.
        let path = folder + "/value-infinitecraft-huge-emoji.json"
        let forced = try ImportDump(contentsOfFile: path, format: .object)
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let value = try XCTUnwrap(forced.entries.first?.value)
        XCTAssertTrue(original.contains(value), "the value is the file's text, grapheme clusters intact")
        XCTAssertGreaterThan(value.unicodeScalars.filter { $0.value == 0x200D }.count, 600, "zero-width joiners kept")
    }

    func testBrowserStorageFilesAreRefusedWithAClearError() throws {
        let folder = try requireCorpus()
        var binaries: [String] = []
        for subfolder in ["chrome-legacy-sqlite", "firefox-webappsstore"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/" + subfolder) {
                binaries.append(folder + "/" + subfolder + "/" + name)
            }
        }
        for database in ["chromium-leveldb/chromium-default-settings-with-ldb/000005.ldb", "chromium-leveldb/metamask-cache-test/000003.log"] {
            binaries.append(folder + "/" + database)
        }
        XCTAssertGreaterThan(binaries.count, 8)
        for path in binaries {
            XCTAssertThrowsError(try ImportDump(contentsOfFile: path), URL(fileURLWithPath: path).lastPathComponent) { error in
                switch error {
                case ImportError.dump(.notUTF8(_, let position, _)), ImportError.dump(.notJSON(_, let position, _, _)):
                    XCTAssertGreaterThanOrEqual(position.line, 1)
                    XCTAssertTrue("\(error)".contains("nothing was imported"))
                default:
                    XCTFail("\(URL(fileURLWithPath: path).lastPathComponent): unexpected \(type(of: error))")
                }
            }
        }
        XCTAssertThrowsError(try ImportDump(contentsOfFile: folder + "/chrome-legacy-sqlite/lighttable__file__0.localstorage")) { error in
            XCTAssertTrue("\(error)".contains("SQLite database"))
        }
    }

    func testImportingEachDumpSendsItsCredentialsToTheSecretServiceAndNoSuiteFileHoldsThem() throws {
        let folder = try requireCorpus()
        try requireSecretService()
        for expected in expectedDumps {
            let root = ImportRoot()
            let service = TestService("corpus" + expected.file.filter { $0.isLetter })
            let path = folder + "/" + expected.file
            let dump = try ImportDump(contentsOfFile: path)
            let report = try Importer(options: root.options(service: service.name)).run(dump)
            XCTAssertEqual(report.status, .imported, expected.file)
            XCTAssertEqual(report.items.count, dump.entries.count, expected.file)

            let secrets = report.items.enumerated().filter { $0.element.action == .secret }
            for (index, item) in secrets {
                guard case .secret(_, let account)? = item.destination else { continue }
                let value = dump.entries[index].value
                XCTAssertTrue(try service.secret(account) == value, "\(expected.file), item \(index): the Secret Service does not hold the value")
                // Cognito's LastAuthUser holds the user name that is also part of the other keys'
                // names (account names are not secret, and appear in the report and the record).
                if dump.keys.contains(where: { $0 != dump.entries[index].key && $0.contains(value) }) { continue }
                XCTAssertEqual(root.filesContaining(value), [], "\(expected.file), item \(index): a file under the root holds the secret")
                XCTAssertFalse(report.text.contains(value) || report.json.contains(value), "\(expected.file), item \(index): the report holds the secret")
            }
            // Every JWT in the raw file, wherever it sits, stays out of the suite files.
            let raw = try String(contentsOfFile: path, encoding: .utf8)
            for (number, token) in Self.jwtLike(in: raw).enumerated() {
                XCTAssertEqual(root.filesContaining(token), [], "\(expected.file): JWT number \(number) reached a file under the root")
            }
            // What was not a secret is in a suite, read back typed.
            let suite = try root.store(root.appID)
            for (index, item) in report.items.enumerated() where item.action == .inferred {
                XCTAssertEqual(suite.prefValue(forKey: dump.entries[index].key), item.value, "\(expected.file), item \(index)")
            }
        }
    }

    func testTheCredentialsOfTheCorpusAreRecognised() throws {
        let folder = try requireCorpus()
        func actions(_ file: String) throws -> [ImportReport.Action] {
            let dump = try ImportDump(contentsOfFile: folder + "/" + file)
            // A dry run with an in-memory keyring: this test is about decisions, not storage.
            let root = ImportRoot()
            let report = try Importer(options: root.options(dryRun: true), secretStore: { InMemorySecretStore(service: $0) }).run(dump)
            return report.items.map(\.action)
        }
        XCTAssertEqual(try actions("pw-cognito-amplify.json"), Array(repeating: .secret, count: 6), "every Amplify key, the JWE refresh token and clockDrift included")
        XCTAssertEqual(try actions("flat-cognito-amplify5-federated.json"), Array(repeating: .secret, count: 5))
        XCTAssertEqual(try actions("pw-supabase-es256.json"), [.secret])
        XCTAssertEqual(try actions("pw-supabase-mikaza.json"), [.inferred, .secret])
        XCTAssertEqual(try actions("pw-supabase-mock-zustand-todo.json"), [.secret, .inferred, .inferred], "mock tokens under a Supabase key are still secrets")
        XCTAssertEqual(try actions("flat-selenium-namespaced-jwt.json").filter { $0 == .secret }.count, 3, "the JWT and two session keys")
        XCTAssertEqual(try actions("flat-stealthwriter-zustand-intercom.json").filter { $0 == .secret }.count, 0)
        // The Supabase SSR session hides its JWT in a base64- cookie; recognised by its shape alone.
        let ssr = try XCTUnwrap(JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: folder + "/pw-supabase-ssr-cookie-base64.json"))) as? [String: Any])
        let cookie = try XCTUnwrap((ssr["cookies"] as? [[String: Any]])?.first?["value"] as? String)
        XCTAssertEqual(inspect(key: "cookie", value: cookie)?.evidence, .valueShape)
    }

    /// JWT-shaped runs of the text (with JSON escapes undone by taking base64url runs only).
    static func jwtLike(in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: #"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"#) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }
}
