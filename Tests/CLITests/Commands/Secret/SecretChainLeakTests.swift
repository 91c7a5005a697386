import Foundation
import XCTest

/// Every `rizq-prefs secret` command over the chain, with no session bus and `--verbose`, run
/// under `strace -f -e execve`: the secret, the passphrase and the vault's identity are in no
/// argument list or environment of any program started (the passphrase command, systemd-creds),
/// in no file (raw, hex, base64), in no log line and in no error.
final class SecretChainLeakTests: XCTestCase {
    func testNoSecretInArgumentListsLogLinesFilesOrErrors() throws {
        try requireRoot()
        for tool in ["/usr/bin/strace", "/usr/bin/systemd-creds", "/usr/bin/age"] {
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is missing: run scripts/install-deps")
        }
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.leak\(UUID().uuidString.prefix(6))"
        let secret = "leak-canary-\(UUID().uuidString)"
        let passphrase = "leak-passphrase-\(UUID().uuidString)"
        let passphraseFile = try cli.writeFile("passphrase", passphrase + "\n")
        // The passphrase through a command (a program the vault runs), and systemd-creds (another),
        // with a host key of the test's own: both slots made by the first store.
        var environment = cli.headless(systemd: true, ["RIZQ_SECRETS_PASSPHRASE_COMMAND": "cat '\(passphraseFile)'"])
        environment["SYSTEMD_CREDENTIAL_SECRET"] = cli.root + "/host.secret"
        var full = cli.environment
        for (name, value) in environment { full[name] = value }
        let traces = cli.root + "-traces"
        try FileManager.default.createDirectory(atPath: traces, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: traces) }

        var outputs: [(arguments: [String], stdout: Data, stderr: String)] = []
        var traceIndex = 0
        /// `rizq-prefs --verbose ARGUMENTS` under strace; its status.
        @discardableResult
        func traced(_ arguments: [String], stdin: Data? = nil, extra: [String: String?] = [:]) throws -> Int32 {
            traceIndex += 1
            var run = full
            for (name, value) in extra { run[name] = value }
            let result = try runProcess(
                "/usr/bin/strace", ["-f", "-qq", "-v", "-s", "100000", "-e", "trace=execve", "-o", "\(traces)/\(traceIndex)", CLIHarness.binary, "--verbose"] + arguments,
                input: stdin, environment: run.compactMapValues { $0 })
            outputs.append((arguments, result.stdout, String(decoding: result.stderr, as: UTF8.self)))
            return result.status
        }

        XCTAssertEqual(try traced(["secret", "set", "--service", service, "auth_token"], stdin: Data(secret.utf8)), 0, outputs.last?.stderr ?? "")
        XCTAssertEqual(try traced(["secret", "get", "--service", service, "auth_token"]), 0)
        XCTAssertEqual(outputs.last?.stdout, Data(secret.utf8), "read back")
        // Opened by the passphrase command alone (systemd-creds off), then cached and read from the cache.
        XCTAssertEqual(try traced(["secret", "get", "--service", service, "auth_token"], extra: ["RIZQ_SECRETS_SYSTEMD_CREDS": "0", "RIZQ_SECRETS_KEYRING_CACHE": "0"]), 0)
        XCTAssertEqual(try traced(["secret", "unlock", "--service", service, "--timeout", "60"]), 0, outputs.last?.stderr ?? "")
        XCTAssertEqual(try traced(["secret", "list", "--service", service]), 0)
        XCTAssertEqual(try traced(["secret", "backends", "--service", service, "--json"]), 0)
        XCTAssertEqual(try traced(["secret", "export-credential", "--service", service, "auth_token", "--name", "\(service).auth_token", "--with-key", "host"]), 0)
        XCTAssertEqual(try traced(["secret", "lock", "--service", service]), 0)
        XCTAssertEqual(try traced(["doctor", "--service", service]), 0, outputs.last.map { String(decoding: $0.stdout, as: UTF8.self) } ?? "")
        // Errors: a wrong passphrase, a failing passphrase command, a damaged vault.
        let wrong = "wr0ng-\(UUID().uuidString)"
        let noSystemd: [String: String?] = ["RIZQ_SECRETS_SYSTEMD_CREDS": "0", "RIZQ_SECRETS_KEYRING_CACHE": "0"]
        XCTAssertEqual(try traced(["secret", "get", "--service", service, "auth_token"], extra: noSystemd.merging(["RIZQ_SECRETS_PASSPHRASE_COMMAND": "echo '\(wrong)'"]) { $1 }), 4)
        XCTAssertTrue(outputs.last?.stderr.contains("passphrase does not open") == true, outputs.last?.stderr ?? "")
        XCTAssertEqual(try traced(["secret", "get", "--service", service, "auth_token"], extra: noSystemd.merging(["RIZQ_SECRETS_PASSPHRASE_COMMAND": "echo '\(wrong)'; exit 3"]) { $1 }), 4)
        let vault = cli.secretsRoot + "/" + service + "/vault.age"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: vault))
        bytes[bytes.count - 3] ^= 1
        try bytes.write(to: URL(fileURLWithPath: vault))
        XCTAssertEqual(try traced(["secret", "get", "--service", service, "auth_token"], extra: ["RIZQ_SECRETS_KEYRING_CACHE": "0"]), 4)
        XCTAssertTrue(outputs.last?.stderr.contains("is damaged") == true, outputs.last?.stderr ?? "")

        // The identity, to look for it too (recovered with the stock tool, as root would).
        let folder = cli.secretsRoot + "/" + service
        let recovered = try runProcess(
            "/usr/bin/systemd-creds", ["decrypt", "--name=rizq-prefs.\(service).identity", folder + "/slots/systemd.cred", "-"],
            environment: full.compactMapValues { $0 })
        let identity = try XCTUnwrap(String(decoding: recovered.stdout, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("AGE-SECRET-KEY-1") }.map(String.init))
        let secrets = [secret, passphrase, identity, identity.lowercased()]

        // Argument lists and environments of every program started, the CLI's own included.
        var traced = Data()
        for index in 1...traceIndex { traced += try Data(contentsOf: URL(fileURLWithPath: "\(traces)/\(index)")) }
        let text = String(decoding: traced, as: UTF8.self)
        XCTAssertTrue(text.contains(#"systemd-creds", "encrypt""#) && text.contains(#"systemd-creds", "decrypt""#), "the trace saw systemd-creds")
        XCTAssertTrue(text.contains(#"["/bin/sh", "-c", "cat '"#), "the trace saw the passphrase command")
        for value in secrets {
            for form in leakForms(of: value) { XCTAssertNil(traced.range(of: form), "an argument list or environment holds a secret") }
        }
        // Log lines (--verbose) and errors: stderr of every run; stdout of all but the reads and
        // the export (which print the secret, or its sealed credential, by design).
        let stderr = outputs.map(\.stderr).joined(separator: "\n")
        XCTAssertTrue(stderr.contains("chain stored a secret") && stderr.contains("backend=vault"), "the debug log was on: \(stderr.prefix(600))")
        XCTAssertTrue(stderr.contains("vault opened") && stderr.contains("keySource=passphrase"), stderr.prefix(600).description)
        for output in outputs {
            let printsTheSecret = output.arguments.contains("get") || output.arguments.contains("export-credential")
            let shown = output.stderr + (printsTheSecret ? "" : String(decoding: output.stdout, as: UTF8.self))
            // (The wrong passphrase is in the command the test gave, so in a trace; never in an output.)
            for value in secrets + [wrong] { XCTAssertFalse(shown.contains(value), "\(output.arguments) printed a secret") }
        }
        // Files: everything under the test's root but the passphrase file itself.
        for value in secrets {
            XCTAssertEqual(filesLeaking(value, under: cli.root).filter { $0 != "passphrase" }, [], "a file holds a secret")
        }
    }
}
