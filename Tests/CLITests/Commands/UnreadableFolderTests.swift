import Foundation
import RizqTestSupport
import XCTest

/// Issue 29, item 6 (the command line's part): one app folder that cannot be listed (`chmod
/// 000`, read by a user who is not root: `runuser -u nobody`) is reported by `suites` and
/// `doctor`, which go on with every other folder: `suites` lists the rest and exits 3, `doctor`
/// checks the rest and names the folder with its fix.
final class UnreadableFolderTests: XCTestCase {
    private struct Setup {
        var root: String
        var locked: String
        var cleanup: () -> Void
    }

    /// Three apps (a, b, c) and a group suite, all owned by `nobody`; b's folder mode 000.
    private func makeRoot() throws -> Setup {
        guard geteuid() == 0 else { throw XCTSkip("needs root, to run the command as 'nobody' (permission bits do not stop root)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { throw XCTSkip("runuser is not installed") }
        let cli = try CLIHarness()
        let root = "/tmp/rizq-unreadable-\(UUID().uuidString.prefix(8))"
        for app in ["com.rizq.a", "com.rizq.b", "com.rizq.c"] {
            XCTAssertEqual(try cli.run(["set", "--app", app, "k", "v"], environment: ["RIZQ_PREFS_HOME": root]).status, 0)
        }
        XCTAssertEqual(try cli.run(["set", "--suite", "group.com.rizq.shared", "k", "v"], environment: ["RIZQ_PREFS_HOME": root]).status, 0)
        XCTAssertEqual(try runCommand("/bin/chown", ["-R", "nobody:nogroup", root]).status, 0)
        let locked = root + "/apps/com.rizq.b"
        chmod(locked, 0)
        return Setup(root: root, locked: locked) {
            chmod(locked, 0o700)
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    private func runAsNobody(_ root: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runCommand("/usr/sbin/runuser", ["-u", "nobody", "--", try reachableByEveryUser(CLIHarness.binary)] + arguments, environment: [
            "RIZQ_PREFS_HOME": root, "HOME": "/tmp", "TMPDIR": "/tmp", "PATH": "/usr/bin:/bin",
        ])
    }

    func testSuitesNamesTheUnreadableFolderAndListsTheOthers() throws {
        let setup = try makeRoot()
        defer { setup.cleanup() }
        // As nobody, b's folder really cannot be listed.
        XCTAssertNotEqual(try runCommand("/usr/sbin/runuser", ["-u", "nobody", "--", "/bin/ls", setup.locked]).status, 0)

        let text = try runAsNobody(setup.root, ["suites"])
        XCTAssertEqual(text.status, 3, text.stderr)
        for suite in ["group.com.rizq.shared", "com.rizq.a", "com.rizq.c"] {
            XCTAssertTrue(text.stdout.contains(suite), "\(suite) is listed:\n\(text.stdout)")
        }
        XCTAssertFalse(text.stdout.contains("com.rizq.b.json"), text.stdout)
        XCTAssertTrue(text.stderr.contains("cannot list folder \(setup.locked): Permission denied"), text.stderr)
        XCTAssertTrue(text.stderr.contains("chmod 700"), "the fix: \(text.stderr)")

        let json = try runAsNobody(setup.root, ["suites", "--json"])
        XCTAssertEqual(json.status, 3, json.stderr)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["suite"] as? String }, ["group.com.rizq.shared", "com.rizq.a", "com.rizq.c"])
        XCTAssertTrue(json.stderr.contains(setup.locked), json.stderr)

        // One app's suites only: the unreadable folder of another app does not matter.
        let one = try runAsNobody(setup.root, ["suites", "--app", "com.rizq.c"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.contains("com.rizq.c.json"), one.stdout)
    }

    func testDoctorReportsTheUnreadableFolderAndChecksTheOthers() throws {
        let setup = try makeRoot()
        defer { setup.cleanup() }
        let text = try runAsNobody(setup.root, ["doctor", "--skip-secrets"])
        XCTAssertEqual(text.status, 3, text.stdout + text.stderr)
        XCTAssertTrue(text.stdout.contains("\(setup.locked): the folder cannot be listed (Permission denied)"), text.stdout)
        // It went on: the app after b, and the group suite, are checked.
        for file in ["/apps/com.rizq.a/com.rizq.a.json", "/apps/com.rizq.c/com.rizq.c.json", "/groups/group.com.rizq.shared.json"] {
            XCTAssertTrue(text.stdout.contains(setup.root + file + ": 1 key"), "\(file) is checked:\n\(text.stdout)")
        }

        let json = try runAsNobody(setup.root, ["doctor", "--skip-secrets", "--json"])
        XCTAssertEqual(json.status, 3)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let checks = try XCTUnwrap(report["checks"] as? [[String: Any]])
        let locked = checks.filter { $0["path"] as? String == setup.locked }
        XCTAssertEqual(locked.count, 1, "\(checks)")
        XCTAssertEqual(locked.first?["severity"] as? String, "problem")
        XCTAssertTrue(checks.contains { $0["path"] as? String == setup.root + "/apps/com.rizq.c/com.rizq.c.json" }, "\(checks)")
    }
}
