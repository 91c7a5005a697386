import Foundation
import RizqTestSupport
import XCTest

/// Suites inside a Flatpak sandbox: two apps run under bwrap with a `/.flatpak-info` each
/// (scripts/as-flatpak), each with its own `XDG_CONFIG_HOME` as Flatpak gives it
/// (`~/.var/app/APP/config`). Without the permission an app-group suite is each app's own; with
/// the host's `~/.config/rizq-prefs` visible (what `--filesystem=xdg-config/rizq-prefs:create`
/// does) both apps and the host share it; `doctor` says which is in effect.
final class SandboxSuitesTests: XCTestCase {
    func testAppGroupSuitesAreSharedBetweenSandboxedAppsOnlyWithThePermission() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bwrap is missing: run scripts/install-deps")
        let cli = try CLIHarness()
        let home = cli.root + "/home"
        let asFlatpak = repositoryRoot().appendingPathComponent("scripts/as-flatpak").path
        var base = cli.environment
        base["RIZQ_PREFS_HOME"] = nil
        base["HOME"] = home
        base["RIZQ_FLATPAK_RO_BINDS"] = URL(fileURLWithPath: CLIHarness.binary).deletingLastPathComponent().path
        func app(_ id: String, _ arguments: [String]) throws -> (status: Int32, out: String) {
            var environment = base
            environment["XDG_CONFIG_HOME"] = "\(home)/.var/app/\(id)/config"
            environment["RIZQ_PREFS_APP_ID"] = id
            let result = try runProcess(asFlatpak, [id, CLIHarness.binary] + arguments, environment: environment)
            return (result.status, String(decoding: result.stdout + result.stderr, as: UTF8.self))
        }
        let group = "group.com.rizq.shared"
        let privateA = "\(home)/.var/app/com.rizq.A/config/rizq-prefs/groups/\(group).json"
        let shared = "\(home)/.config/rizq-prefs/groups/\(group).json"

        // No permission: A's group suite is A's alone.
        XCTAssertEqual(try app("com.rizq.A", ["set", "--suite", group, "theme", "dark"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: privateA), "in A's own folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared))
        XCTAssertEqual(try app("com.rizq.B", ["get", "--suite", group, "theme"]).status, 1, "B does not see A's group suite")
        let alone = try app("com.rizq.A", ["doctor", "--skip-secrets"])
        XCTAssertTrue(alone.out.contains("inside the Flatpak sandbox of com.rizq.A: the suites are this app's own"), alone.out)
        XCTAssertTrue(alone.out.contains("flatpak override --user --filesystem=xdg-config/rizq-prefs:create com.rizq.A"), alone.out)

        // The permission: the host's folder is there to see. Both apps and the host share it.
        try FileManager.default.createDirectory(atPath: "\(home)/.config/rizq-prefs", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(try app("com.rizq.A", ["set", "--suite", group, "theme", "light"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shared), "in the host's folder")
        let fromB = try app("com.rizq.B", ["get", "--suite", group, "theme"])
        XCTAssertEqual(fromB.status, 0, fromB.out)
        XCTAssertEqual(fromB.out, "light\n")
        var host = base
        host["XDG_CONFIG_HOME"] = nil
        let fromHost = try runProcess(CLIHarness.binary, ["get", "--suite", group, "theme"], environment: host)
        XCTAssertEqual(String(decoding: fromHost.stdout, as: UTF8.self), "light\n")
        let sharing = try app("com.rizq.B", ["doctor", "--skip-secrets"])
        XCTAssertTrue(sharing.out.contains("with --filesystem=xdg-config/rizq-prefs: the suites are the host's"), sharing.out)
        // A's private copy is left as it was.
        XCTAssertTrue(String(decoding: try Data(contentsOf: URL(fileURLWithPath: privateA)), as: UTF8.self).contains("dark"))
    }
}
