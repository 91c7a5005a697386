import Foundation
import XCTest

/// Issue 29, item 8: names print with control, direction-changing and invisible characters
/// escaped in `suites`, `doctor` and errors (U+202E RIGHT-TO-LEFT OVERRIDE made `moc.ppa`
/// show as another name); names that can pass for others are flagged; the hint for an invalid
/// suite name lists the rules that are enforced.
final class NameDisplayTests: XCTestCase {
    private let override = "\u{202E}"

    func testSuiteNamesAreEscapedInSuitesDoctorAndErrors() throws {
        let cli = try CLIHarness()
        let spoof = "group.com.rizq." + override + "ppa.lanruoj"
        XCTAssertEqual(try cli.run("set", "--suite", spoof, "k", "v").status, 0, "such a name is valid: it is shown escaped, not refused")

        let suites = try cli.run("suites")
        XCTAssertEqual(suites.status, 0, suites.stderr)
        XCTAssertFalse(suites.stdout.contains(override), suites.stdout)
        XCTAssertTrue(suites.stdout.contains(#"group.com.rizq.\u{202E}ppa.lanruoj"#), suites.stdout)
        XCTAssertTrue(suites.stderr.contains("direction-changing"), "flagged: \(suites.stderr)")

        let json = try cli.run("suites", "--json")
        XCTAssertFalse(json.stdout.contains(override), json.stdout)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(items.first?["suite"] as? String, spoof, "the JSON escape reads back as the real name")

        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertFalse(doctor.stdout.contains(override), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains(#"\u{202E}"#), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("warning"), doctor.stdout)
        let doctorJSON = try cli.run("doctor", "--skip-secrets", "--json")
        XCTAssertFalse(doctorJSON.stdout.contains(override), doctorJSON.stdout)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(doctorJSON.stdout.utf8)))

        let missing = try cli.run("get", "--suite", spoof, "absent" + override + "key")
        XCTAssertEqual(missing.status, 1)
        XCTAssertFalse(missing.stderr.contains(override), missing.stderr)
        XCTAssertTrue(missing.stderr.contains(#"\u{202E}"#), missing.stderr)
        // A key with a newline cannot add a line to an error.
        let newline = try cli.run("get", "first\nrizq-prefs: all is well")
        XCTAssertEqual(newline.stderr.split(separator: "\n").count, 1, newline.stderr)
    }

    func testLookAlikeNamesAreFlagged() throws {
        let cli = try CLIHarness()
        let real = "group.com.rizq.app"
        let fake = "group.com.r\u{0456}zq.app"  // CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
        XCTAssertEqual(try cli.run("set", "--suite", real, "k", "v").status, 0)
        XCTAssertEqual(try cli.run("set", "--suite", fake, "k", "v").status, 0)
        let suites = try cli.run("suites")
        XCTAssertEqual(suites.status, 0)
        XCTAssertTrue(suites.stderr.contains("U+0456 looks like 'i'"), suites.stderr)
        XCTAssertTrue(suites.stderr.contains("imitates the suite '\(real)', which exists"), suites.stderr)
        XCTAssertFalse(suites.stderr.contains("suite name '\(real)'"), "the real one is not flagged: \(suites.stderr)")
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(doctor.status, 0, "a warning does not fail doctor: \(doctor.stdout)")
        XCTAssertTrue(doctor.stdout.contains("warning") && doctor.stdout.contains("imitates the suite '\(real)'"), doctor.stdout)

        // A name in another Unicode form looks the same and is another file.
        let decomposed = "group.cafe\u{0301}"
        XCTAssertEqual(try cli.run("set", "--suite", decomposed, "k", "v").status, 0)
        XCTAssertTrue(try cli.run("suites").stderr.contains("not in Unicode normal form C"))
    }

    func testTheNameHintListsTheRulesThatAreEnforced() throws {
        let cli = try CLIHarness()
        for (name, reason) in [(".hidden", "it starts with '.'"), ("a/b", "it contains '/'"), ("a..b", "it contains '..'"), (String(repeating: "x", count: 201), "longer than 200 bytes")] {
            let result = try cli.run("set", "--suite", name, "k", "v")
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains(reason), result.stderr)
            XCTAssertFalse(result.stderr.contains("use letters, digits"), "the old hint named rules that are not enforced: \(result.stderr)")
            for rule in ["200 bytes", "'/'", "'..'", "control character", "start with '.'"] {
                XCTAssertTrue(result.stderr.contains(rule), "the hint names the rule \(rule): \(result.stderr)")
            }
        }
        // What the hint allows is accepted.
        for name in ["Mein Profil (ü)", "group.a b+c", "x"] {
            XCTAssertEqual(try cli.run("set", "--suite", name, "k", "v").status, 0, name)
        }
    }
}
