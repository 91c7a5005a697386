import Foundation
import RizqTestSupport
import XCTest

/// Suites inside a Flatpak sandbox: two apps run under bwrap with a `/.flatpak-info` each
/// (scripts/as-flatpak, the home hidden as Flatpak hides it), each with its own `XDG_CONFIG_HOME`
/// as Flatpak gives it (`~/.var/app/APP/config`). Without a permission an app-group suite is each
/// app's own; with `--filesystem=xdg-config/rizq-prefs/groups:create` (issue 50: the one folder a
/// sandbox is given, holding app-group suites and nothing else) both apps and the host share it,
/// while each app's own suites stay its own; an app given the whole folder (the advice before)
/// keeps its suites there, and `doctor` says how to narrow it.
final class SandboxSuitesTests: XCTestCase {
    func testAppGroupSuitesAreSharedBetweenSandboxedAppsOnlyWithThePermission() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bwrap is missing: run scripts/install-deps")
        let cli = try CLIHarness()
        let home = cli.root + "/home"
        let asFlatpak = repositoryRoot().appendingPathComponent("scripts/as-flatpak").path
        var base = cli.environment
        base["RIZQ_PREFS_HOME"] = nil
        base["HOME"] = home
        base["RIZQ_FLATPAK_HOME"] = home
        base["XDG_RUNTIME_DIR"] = nil
        base["RIZQ_FLATPAK_RO_BINDS"] = URL(fileURLWithPath: CLIHarness.binary).deletingLastPathComponent().path
        func app(_ id: String, _ arguments: [String], permission: String = "") throws -> (status: Int32, out: String) {
            var environment = base
            environment["XDG_CONFIG_HOME"] = "\(home)/.var/app/\(id)/config"
            environment["RIZQ_PREFS_APP_ID"] = id
            environment["RIZQ_FLATPAK_FILESYSTEMS"] = permission
            let result = try runProcess(asFlatpak, [id, CLIHarness.binary] + arguments, environment: environment)
            return (result.status, String(decoding: result.stdout + result.stderr, as: UTF8.self))
        }
        let group = "group.com.rizq.shared"
        let privateA = "\(home)/.var/app/com.rizq.A/config/rizq-prefs/groups/\(group).json"
        let shared = "\(home)/.config/rizq-prefs/groups/\(group).json"
        let narrow = "xdg-config/rizq-prefs/groups:create"

        // No permission: A's group suite is A's alone.
        XCTAssertEqual(try app("com.rizq.A", ["set", "--suite", group, "theme", "dark"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: privateA), "in A's own folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared))
        XCTAssertEqual(try app("com.rizq.B", ["get", "--suite", group, "theme"]).status, 1, "B does not see A's group suite")
        let alone = try app("com.rizq.A", ["doctor", "--skip-secrets"])
        XCTAssertTrue(alone.out.contains("inside the Flatpak sandbox of com.rizq.A: the suites are this app's own"), alone.out)
        XCTAssertTrue(alone.out.contains("flatpak override --user --filesystem=xdg-config/rizq-prefs/groups:create com.rizq.A"), alone.out)

        // The permission: the host's groups folder, and nothing else. Both apps and the host share it.
        XCTAssertEqual(try app("com.rizq.A", ["set", "--suite", group, "theme", "light"], permission: narrow).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shared), "in the host's folder")
        let fromB = try app("com.rizq.B", ["get", "--suite", group, "theme"], permission: narrow)
        XCTAssertEqual(fromB.status, 0, fromB.out)
        XCTAssertEqual(fromB.out, "light\n")
        var host = cli.environment
        host["RIZQ_PREFS_HOME"] = nil
        host["HOME"] = home
        host["XDG_CONFIG_HOME"] = nil
        let fromHost = try runProcess(CLIHarness.binary, ["get", "--suite", group, "theme"], environment: host)
        XCTAssertEqual(String(decoding: fromHost.stdout, as: UTF8.self), "light\n")
        // The app's own suite stays its own: nothing of it reaches the host's folder.
        XCTAssertEqual(try app("com.rizq.A", ["set", "volume", "3"], permission: narrow).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(home)/.var/app/com.rizq.A/config/rizq-prefs/apps/com.rizq.A/com.rizq.A.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(home)/.config/rizq-prefs/apps"))
        let sharing = try app("com.rizq.B", ["doctor", "--skip-secrets"], permission: narrow)
        XCTAssertTrue(sharing.out.contains("with --filesystem=xdg-config/rizq-prefs/groups:create: the suites are this app's own, and app-group suites are shared"), sharing.out)
        // A's private copy is left as it was.
        XCTAssertTrue(String(decoding: try Data(contentsOf: URL(fileURLWithPath: privateA)), as: UTF8.self).contains("dark"))

        // The whole folder (the advice before), where the app's suites already are: they stay
        // there, and doctor says how to narrow the permission.
        XCTAssertEqual(try runProcess(CLIHarness.binary, ["set", "--app", "com.rizq.Host", "x", "1"], environment: host).status, 0)
        let wide = "xdg-config/rizq-prefs:create"
        XCTAssertEqual(try app("com.rizq.C", ["set", "volume", "7"], permission: wide).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(home)/.config/rizq-prefs/apps/com.rizq.C/com.rizq.C.json"))
        let widely = try app("com.rizq.C", ["doctor", "--skip-secrets"], permission: wide)
        XCTAssertTrue(widely.out.contains("flatpak override --user --nofilesystem=xdg-config/rizq-prefs com.rizq.C"), widely.out)
    }
}
