import Foundation
import XCTest

/// libsecret is the `secret` commands' alone: loaded at their first secret call, never linked.
/// The other commands never map it (nor GLib), and they work where it is not installed.
final class SecretWithoutLibsecretTests: XCTestCase {
    /// The shared libraries a run of `rizq-prefs` loaded, linked or opened later, as the dynamic
    /// loader reports them (`LD_DEBUG=files`, into a file of its own).
    private func librariesLoaded(_ cli: CLIHarness, _ arguments: [String]) throws -> (result: CLIResult, libraries: Set<String>) {
        let folder = NSTemporaryDirectory() + "rizq-ld-debug-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try cli.run(arguments, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder + "/ld"])
        var libraries = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            // "  1234:	file=libsecret-1.so.0 [0];  dynamically loaded by …"
            for line in text.split(separator: "\n") {
                guard let start = line.range(of: "file=")?.upperBound else { continue }
                libraries.insert(String(line[start...].prefix { $0 != " " && $0 != "[" }))
            }
        }
        return (result, libraries)
    }

    private let secretLibraries = ["libsecret-1", "libglib-2.0", "libgio-2.0", "libgobject-2.0"]

    func testCommandsWithoutSecretsNeverLoadLibsecretOrGLib() throws {
        let cli = try CLIHarness()
        for arguments in [["set", "streak", "12", "--int"], ["get", "streak"], ["list"], ["export"], ["suites"], ["doctor", "--skip-secrets"]] {
            let (result, libraries) = try librariesLoaded(cli, arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertTrue(libraries.contains("libc.so.6"), "the loader's report was read: \(libraries.sorted())")
            let loaded = libraries.filter { library in secretLibraries.contains { library.hasPrefix($0 + ".so") } }
            XCTAssertEqual(loaded, [], "\(arguments) loaded \(loaded.sorted())")
        }
        XCTAssertEqual(try cli.run("get", "streak").stdout, "12\n")
    }

    /// The check above can see libsecret loaded: a secret command loads it, at its first call.
    func testASecretCommandLoadsLibsecretWhenItIsRun() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let (result, libraries) = try librariesLoaded(cli, ["secret", "list", "--service", "org.rizq.clitests.load\(UUID().uuidString.prefix(6))"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(libraries.contains("libsecret-1.so.0"), libraries.sorted().joined(separator: " "))
    }

    /// Where libsecret is not installed (hidden in a mount namespace), the commands without
    /// secrets work, and a secret command fails with exit 4 and the package to install.
    func testWithoutLibsecretPreferencesWorkAndSecretCommandsSayWhatToInstall() throws {
        let cli = try CLIHarness()
        cli.environment["DBUS_SESSION_BUS_ADDRESS"] = cli.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "unix:path=/nonexistent/bus"
        let run = { (arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) in
            try runWithoutLibsecret(CLIHarness.binary, arguments, environment: cli.environment)
        }
        XCTAssertEqual(try run(["set", "theme_mode", "dark"]).status, 0)
        XCTAssertEqual(try run(["get", "theme_mode"]).stdout, "dark\n")
        let listed = try run(["list"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("theme_mode"), listed.stdout)

        // The Secret Service alone says what to install.
        let service = "org.rizq.clitests.nolibsecret\(UUID().uuidString.prefix(6))"
        let secret = try run(["secret", "get", "auth_token", "--service", service, "--backend", "secret-service"])
        XCTAssertEqual(secret.status, 4, secret.stderr)
        XCTAssertEqual(secret.stdout, "")
        XCTAssertTrue(secret.stderr.contains("libsecret is not installed: libsecret-1.so.0 cannot be loaded"), secret.stderr)
        XCTAssertTrue(secret.stderr.contains("install it with `apt-get install libsecret-1-0`"), secret.stderr)
        XCTAssertFalse(secret.stderr.contains("session bus"), "the bus is not what is wrong: \(secret.stderr)")
        var pinned = cli.environment
        pinned["RIZQ_SECRETS_BACKEND"] = "secret-service"
        let doctor = try runWithoutLibsecret(CLIHarness.binary, ["doctor"], environment: pinned)
        XCTAssertEqual(doctor.status, 4, doctor.stdout + doctor.stderr)
        XCTAssertTrue(doctor.stdout.contains("apt-get install libsecret-1-0"), doctor.stdout)

        // The chain counts the Secret Service as not there and goes on: as root, the vault with
        // the systemd-creds slot takes the secret, and a later process reads it back.
        guard geteuid() == 0 else { return }
        var headless = cli.environment
        headless["RIZQ_SECRETS_DIR"] = cli.root + "/secrets"
        headless["RIZQ_SECRETS_CONFIG"] = cli.root + "/secrets.json"
        let stored = try runWithoutLibsecret(CLIHarness.binary, ["secret", "set", "auth_token", "--service", service], input: "stored-anyway", environment: headless)
        XCTAssertEqual(stored.status, 0, stored.stderr)
        let read = try runWithoutLibsecret(CLIHarness.binary, ["secret", "get", "auth_token", "--service", service], environment: headless)
        XCTAssertEqual(read.stdout, "stored-anyway", read.stderr)
        let backends = try runWithoutLibsecret(CLIHarness.binary, ["secret", "backends", "--service", service], environment: headless)
        XCTAssertTrue(backends.stdout.contains("secret-service: not available") && backends.stdout.contains("apt-get install libsecret-1-0"), backends.stdout)
        XCTAssertTrue(backends.stdout.contains("* vault: available"), backends.stdout)
    }
}
