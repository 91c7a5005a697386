import Foundation
import RizqTestSupport
import XCTest

/// An administrator's layers seen from a Flatpak sandbox (bubblewrap, scripts/as-flatpak): the
/// host's `/etc/xdg` is visible at `/run/host/etc/xdg` only with `--filesystem=host-etc`; then
/// its policy is read first, and `doctor` says which policy the app sees.
final class SandboxLayersTests: XCTestCase {
    func testTheHostsPolicyIsReadFromRunHostWhenTheAppSeesItAndDoctorSaysWhich() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bwrap is missing: run scripts/install-deps")
        let cli = try CLIHarness()
        let app = "com.rizq.sandboxed"
        let hostEtc = cli.root + "/host-etc"
        let layers = hostEtc + "/xdg/rizq-prefs/managed/apps/\(app)"
        try FileManager.default.createDirectory(atPath: layers, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        for folder in [cli.root, hostEtc, hostEtc + "/xdg", hostEtc + "/xdg/rizq-prefs", hostEtc + "/xdg/rizq-prefs/managed", hostEtc + "/xdg/rizq-prefs/managed/apps"] {
            XCTAssertEqual(chmod(folder, 0o755), 0)
        }
        try Data(#"{"update_channel": "stable"}"#.utf8).write(to: URL(fileURLWithPath: layers + "/\(app).json"))
        XCTAssertEqual(chmod(layers + "/\(app).json", 0o644), 0)

        let asFlatpak = repositoryRoot().appendingPathComponent("scripts/as-flatpak").path
        var environment = cli.environment
        environment["RIZQ_PREFS_APP_ID"] = app
        environment["XDG_CONFIG_DIRS"] = nil
        environment["RIZQ_FLATPAK_RO_BINDS"] = URL(fileURLWithPath: CLIHarness.binary).deletingLastPathComponent().path
        func inSandbox(_ arguments: [String], hostEtc: String?) throws -> (status: Int32, out: String, err: String) {
            var sandbox = environment
            sandbox["RIZQ_FLATPAK_HOST_ETC"] = hostEtc
            let result = try runProcess(asFlatpak, [app, CLIHarness.binary] + arguments, environment: sandbox)
            return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
        }

        // Without --filesystem=host-etc: the host's policy is not there to see.
        XCTAssertEqual(try inSandbox(["get", "update_channel"], hostEtc: nil).status, 1)
        let unseen = try inSandbox(["doctor", "--skip-secrets"], hostEtc: nil)
        XCTAssertTrue(unseen.out.contains("inside a Flatpak sandbox without --filesystem=host-etc: the host's /etc/xdg policy is not visible"), unseen.out)

        // With it: read first, from /run/host/etc/xdg.
        let seen = try inSandbox(["get", "update_channel", "--source"], hostEtc: hostEtc)
        XCTAssertEqual(seen.status, 0, seen.err)
        XCTAssertEqual(seen.out, "stable\nmanaged /run/host/etc/xdg/rizq-prefs/managed/apps/\(app)/\(app).json\n")
        let locked = try inSandbox(["set", "update_channel", "beta"], hostEtc: hostEtc)
        XCTAssertEqual(locked.status, 8, locked.err)
        let doctor = try inSandbox(["doctor", "--skip-secrets"], hostEtc: hostEtc)
        XCTAssertTrue(doctor.out.contains("/run/host/etc/xdg: inside a Flatpak sandbox: the host's policy is read from here"), doctor.out)
        XCTAssertTrue(doctor.out.contains("managed sets update_channel"), doctor.out)
    }
}
