import Foundation
import RizqPrefs
import XCTest

/// Issue 29, item 1 at the command line: `set --json` of a value nested deeper than a suite file
/// may hold exits 2 and leaves the suite readable (it used to exit 0 and make the next open move
/// the whole suite aside), and a file quarantined for its depth is restored by the command
/// `doctor` prints.
final class DepthLimitCommandTests: XCTestCase {
    func testSetOfATooDeepValueExitsTwoAndTheSuiteStaysReadable() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "other", "kept").status, 0)
        let tooDeep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let refused = try cli.run("set", "k", tooDeep, "--json")
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("nest"), refused.stderr)
        let fits = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        XCTAssertEqual(try cli.run("set", "k", fits, "--json").status, 0)
        let read = try cli.run("get", "other")
        XCTAssertEqual(read.stdout, "kept\n", read.stderr)
        XCTAssertEqual(try cli.run("get", "k").stdout, fits + "\n")
    }

    func testAFileQuarantinedForItsDepthIsRestoredByTheCommandDoctorPrints() throws {
        let cli = try CLIHarness()
        let folder = cli.root + "/apps/\(cli.appID)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let quarantined = folder + "/\(cli.appID).corrupt-20260101T000000Z.json"
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        try Data("{\"deep\": \(deep), \"theme\": \"dark\", \"streak\": 7}".utf8).write(to: URL(fileURLWithPath: quarantined))

        let doctor = try cli.run("doctor", "--skip-secrets")
        let suggested = "rizq-prefs import --salvage --app '\(cli.appID)' --suite '\(cli.appID)' '\(quarantined)'"
        XCTAssertTrue(doctor.stdout.contains(suggested), doctor.stdout)
        let restored = try cli.run(["import", "--salvage", "--app", cli.appID, "--suite", cli.appID, quarantined])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stderr.contains("deep"), "the skipped key is named: \(restored.stderr)")
        XCTAssertEqual(try cli.run("get", "theme").stdout, "dark\n")
        XCTAssertEqual(try cli.run("get", "streak").stdout, "7\n")
        XCTAssertNotEqual(try cli.run("get", "deep").status, 0)
    }
}
