import Foundation
import RizqJSON
import RizqPrefs
import XCTest

/// `rizq-prefs secret` through the chain on a machine with no desktop: the vault made and chosen
/// on its own, what one process stores another reads, systemd's credentials, the settings and
/// their precedence, the errors and their fixes.
final class SecretChainCommandTests: XCTestCase {
    /// Two processes, no session bus, root: the first store makes the vault with the
    /// systemd-creds slot alone (no passphrase configured), text and NUL-filled bytes read back by
    /// later processes, and Debian's own tools recover them.
    func testWithNoSessionBusTwoProcessesStoreAndReadTextAndBinaryInASystemdCredsVault() throws {
        try requireRoot()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.headless\(UUID().uuidString.prefix(6))"
        let environment = cli.headless(systemd: true)
        let token = "headless-token-\(UUID().uuidString)"
        let binary = Data([0, 0x72, 0, 0xFF, 0x0A, 0, 0x80])
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "auth_token"], stdin: Data(token.utf8), environment: environment).status, 0)
        let stored = try cli.run(["secret", "set", "--service", service, "device_key", "--raw"], stdin: binary, environment: environment)
        XCTAssertEqual(stored.status, 0, stored.stderr)

        // Later processes: the same bytes, NULs and all.
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "auth_token"], environment: environment).stdout, token)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "device_key"], environment: environment).stdoutBytes, binary)
        XCTAssertEqual(try cli.run(["secret", "list", "--service", service], environment: environment).stdout, "auth_token\ndevice_key\n")

        // The vault has the systemd-creds slot only, and the choice is remembered.
        let folder = cli.secretsRoot + "/" + service
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        XCTAssertTrue(files.isSuperset(of: ["vault.age", "recipient.txt", "backend.json", "slots"]), "\(files)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/slots"), ["systemd.cred"])
        let report = try backendsReport(cli, service, environment)
        XCTAssertEqual(report["writeTarget"]?.member("backend"), "vault")
        XCTAssertEqual(report["writeTarget"]?.member("origin"), "remembered")

        // Recovery with stock tools: systemd-creds gives the identity, age decrypts the vault.
        let recovery = try runProcess("/bin/sh", ["-c", "cd \"$1\" && systemd-creds decrypt --name=rizq-prefs.$2.identity slots/systemd.cred - 2>/dev/null | age -d -i - vault.age", "sh", folder, service])
        XCTAssertEqual(recovery.status, 0)
        let sealed = try XCTUnwrap(JSONSerialization.jsonObject(with: recovery.stdout) as? [String: Any])
        let items = try XCTUnwrap(sealed["items"] as? [String: [String: Any]])
        XCTAssertEqual((items["auth_token"]?["data"] as? String).flatMap { Data(base64Encoded: $0) }, Data(token.utf8))
        XCTAssertEqual((items["device_key"]?["data"] as? String).flatMap { Data(base64Encoded: $0) }, binary)
        // Nothing of the token in any file, in any form.
        XCTAssertEqual(filesLeaking(token, under: cli.root), [])
    }

    /// Not root, or systemd-creds off: a passphrase file makes the vault; without any key source
    /// the store fails with the three fixes and writes nothing.
    func testAPassphraseFileMakesTheVaultAndWithNoKeySourceTheErrorSaysWhatToDo() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.passphrase\(UUID().uuidString.prefix(6))"
        let refused = try cli.run(["secret", "set", "--service", service, "token"], stdin: Data("v".utf8), environment: cli.headless())
        XCTAssertEqual(refused.status, 4, refused.stderr)
        for fix in ["RIZQ_SECRETS_PASSPHRASE_FILE", "rizq-prefs secret unlock", "desktop session"] {
            XCTAssertTrue(refused.stderr.contains(fix), "the error names the fix \(fix): \(refused.stderr)")
        }
        XCTAssertTrue(refused.stderr.contains("no D-Bus session bus"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.secretsRoot + "/" + service + "/vault.age"))

        let passphrase = try cli.writeFile("passphrase", "correct horse \(UUID().uuidString.prefix(8))\n")
        let environment = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase])
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "token"], stdin: Data("from-a-file".utf8), environment: environment).status, 0)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "token"], environment: environment).stdout, "from-a-file")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cli.secretsRoot + "/" + service + "/slots"), ["passphrase.age"])

        // A vault that exists but that nothing here can open: the read is an error, not "not found".
        let locked = try cli.run(["secret", "get", "--service", service, "other"], environment: cli.headless())
        XCTAssertEqual(locked.status, 4, "could not look is not 'not found': \(locked.stderr)")
        XCTAssertTrue(locked.stderr.contains("no key source"), locked.stderr)
        // A wrong passphrase is its own error, and changes nothing.
        let wrong = try cli.writeFile("wrong", "not it\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.secretsRoot + "/" + service + "/vault.age"))
        let wrongRead = try cli.run(["secret", "set", "--service", service, "token"], stdin: Data("x".utf8), environment: cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": wrong]))
        XCTAssertEqual(wrongRead.status, 4)
        XCTAssertTrue(wrongRead.stderr.contains("passphrase does not open"), wrongRead.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cli.secretsRoot + "/" + service + "/vault.age")), before)
    }

    /// A damaged vault: reads and stores stop with the damage error and leave the file as it is;
    /// `secret set --force` moves it aside (kept) and starts an empty vault with the same key.
    func testADamagedVaultIsNeverWrittenOverWithoutForce() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.damaged\(UUID().uuidString.prefix(6))"
        let environment = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")])
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "a"], stdin: Data("first".utf8), environment: environment).status, 0)
        let vault = cli.secretsRoot + "/" + service + "/vault.age"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: vault))
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: vault))

        let read = try cli.run(["secret", "get", "--service", service, "a"], environment: environment)
        XCTAssertEqual(read.status, 4)
        XCTAssertTrue(read.stderr.contains("is damaged") && read.stderr.contains("--force"), read.stderr)
        let store = try cli.run(["secret", "set", "--service", service, "b"], stdin: Data("second".utf8), environment: environment)
        XCTAssertEqual(store.status, 4, store.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: vault)), bytes, "the damaged vault is left as it is")

        let forced = try cli.run(["secret", "set", "--service", service, "b", "--force"], stdin: Data("second".utf8), environment: environment)
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stderr.contains("moved aside"), forced.stderr)
        let aside = try FileManager.default.contentsOfDirectory(atPath: cli.secretsRoot + "/" + service).filter { $0.hasPrefix("vault.age.damaged-") }
        XCTAssertEqual(aside.count, 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cli.secretsRoot + "/" + service + "/" + aside[0])), bytes, "kept byte for byte")
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "b"], environment: environment).stdout, "second")
    }

    /// A systemd credential (`$CREDENTIALS_DIRECTORY/S.A`) is read first, before any store, is
    /// read-only, and a name with '/' is escaped; `/run/secrets` counts only when enabled.
    func testSystemdCredentialsAreReadFirstAndAreReadOnly() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.creds\(UUID().uuidString.prefix(6))"
        let credentials = cli.root + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        _ = try cli.writeFile("credentials/\(service).database.password", "from-systemd", mode: 0o400)
        _ = try cli.writeFile("credentials/\(service).tokens%2Fgithub", "gh-token", mode: 0o400)
        let passphrase = try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")
        let environment = cli.headless(["CREDENTIALS_DIRECTORY": credentials, "RIZQ_SECRETS_PASSPHRASE_FILE": passphrase])

        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "database.password"], environment: environment).stdout, "from-systemd")
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "tokens/github"], environment: environment).stdout, "gh-token")
        XCTAssertEqual(try cli.run(["secret", "list", "--service", service], environment: environment).stdout, "database.password\ntokens/github\n")
        // A write the host's copy would shadow is refused: reads would never see it (issue 37, item 4).
        let shadowed = try cli.run(["secret", "set", "--service", service, "database.password"], stdin: Data("in-the-vault".utf8), environment: environment)
        XCTAssertEqual(shadowed.status, 4, shadowed.stderr)
        XCTAssertTrue(shadowed.stderr.contains("already delivered by the credentials backend") && shadowed.stderr.contains("nothing was written"), shadowed.stderr)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "database.password", "--backend", "vault"], environment: environment).status, 1, "nothing reached the vault")
        // Written to the vault by name, it is there, and still shadowed by the host's.
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "database.password", "--backend", "vault"], stdin: Data("in-the-vault".utf8), environment: environment).status, 0)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "database.password"], environment: environment).stdout, "from-systemd")
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "database.password", "--backend", "vault"], environment: environment).stdout, "in-the-vault")
        // Deleting removes the vault's copy, and says the host's stays.
        let deleted = try cli.run(["secret", "delete", "--service", service, "database.password"], environment: environment)
        XCTAssertEqual(deleted.status, 4)
        XCTAssertTrue(deleted.stderr.contains("read-only") && deleted.stderr.contains("LoadCredential="), deleted.stderr)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "database.password", "--backend", "vault"], environment: environment).status, 1)
        XCTAssertEqual(try String(contentsOfFile: credentials + "/\(service).database.password", encoding: .utf8), "from-systemd")
        let pinned = try cli.run(["secret", "set", "--service", service, "x", "--backend", "credentials"], stdin: Data("v".utf8), environment: environment)
        XCTAssertEqual(pinned.status, 4)
        XCTAssertTrue(pinned.stderr.contains("read-only"), pinned.stderr)

        // /run/secrets: only read when enabled (a tmpfs over /run in a mount namespace of its own).
        try requireRoot()
        let script = #"""
            set -eu
            mount -t tmpfs rizq-run /run && mkdir /run/secrets && printf 'from-docker' > "/run/secrets/$SERVICE.docker_token"
            printf 'off:'; "$CLI" secret get --service "$SERVICE" docker_token || printf 'exit %s' $?
            printf '\non:'; RIZQ_SECRETS_RUN_SECRETS=1 "$CLI" secret get --service "$SERVICE" docker_token
            """#
        var shell = cli.environment
        for (name, value) in environment { shell[name] = value }
        shell["SERVICE"] = service
        shell["CLI"] = CLIHarness.binary
        let run = try runCommand("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script], environment: shell.compactMapValues { $0 })
        XCTAssertEqual(run.stdout, "off:exit 1\non:from-docker", run.stderr)
    }

    /// The remembered choice: a vault made with no session bus stays the write target when a
    /// session (with an unlocked keyring) appears; nothing goes to the keyring.
    func testAWriteTargetChosenWithoutABusIsKeptWhenABusAppears() throws {
        try requireSecretService()
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.remembered\(UUID().uuidString.prefix(6))"
        let passphrase = try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "first"], stdin: Data("one".utf8), environment: cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase])).status, 0)
        var desktop = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase])
        desktop["DBUS_SESSION_BUS_ADDRESS"] = cli.environment["DBUS_SESSION_BUS_ADDRESS"]
        desktop["XDG_RUNTIME_DIR"] = cli.environment["XDG_RUNTIME_DIR"]
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "second"], stdin: Data("two".utf8), environment: desktop).status, 0)
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "second", "--backend", "vault"], environment: desktop).stdout, "two")
        let keyring = try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", "second"])
        XCTAssertNotEqual(keyring.status, 0, "nothing went to the keyring")
        let report = try backendsReport(cli, service, desktop)
        XCTAssertEqual(report["writeTarget"]?.member("backend"), "vault")
        XCTAssertEqual(report["writeTarget"]?.member("origin"), "remembered")

        // And the other way: chosen with the keyring there, kept when the bus is gone.
        let other = service + ".keyring"
        XCTAssertEqual(try cli.run(["secret", "set", "--service", other, "token"], stdin: Data("kept".utf8), environment: desktop).status, 0)
        XCTAssertEqual(try runCommand("/usr/bin/secret-tool", ["lookup", "service", other, "account", "token"]).stdout, "kept")
        let noBus = try cli.run(["secret", "set", "--service", other, "token2"], stdin: Data("v".utf8), environment: cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase]))
        XCTAssertEqual(noBus.status, 4, "the remembered keyring is not there: an error, not a write to the vault")
        XCTAssertTrue(noBus.stderr.contains("no D-Bus session bus"), noBus.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.secretsRoot + "/" + other + "/vault.age"))
        _ = try runCommand("/usr/bin/secret-tool", ["clear", "service", other])
    }

    /// Precedence: the command's --backend, then RIZQ_SECRETS_BACKEND, then the config file,
    /// then the remembered choice; a name that is not a backend is a usage error that lists them.
    func testSettingsPrecedenceAndInvalidSettings() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.precedence\(UUID().uuidString.prefix(6))"
        let configFile = cli.root + "/secrets.json"
        try Data(#"{"backend": "plaintext"}"#.utf8).write(to: URL(fileURLWithPath: configFile))
        let passphrase = try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")
        var environment = cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase])
        XCTAssertEqual(try backendsReport(cli, service, environment)["writeTarget"]?.member("origin"), "config-file")
        XCTAssertEqual(try backendsReport(cli, service, environment)["writeTarget"]?.member("backend"), "plaintext")
        environment["RIZQ_SECRETS_BACKEND"] = "credentials,vault"
        let fromEnvironment = try backendsReport(cli, service, environment)
        XCTAssertEqual(fromEnvironment["writeTarget"]?.member("backend"), "vault")
        XCTAssertEqual(fromEnvironment["writeTarget"]?.member("origin"), "environment")
        XCTAssertEqual(fromEnvironment["order"], ["credentials", "vault"])
        XCTAssertEqual(try cli.run(["secret", "set", "--service", service, "k", "--backend", "plaintext"], stdin: Data("plain".utf8), environment: environment).status, 0)
        XCTAssertEqual(try String(contentsOfFile: cli.secretsRoot + "/" + service + "/plaintext.json", encoding: .utf8).contains("cGxhaW4="), true, "the plain-text file holds it (base64, no encryption)")
        XCTAssertEqual(try cli.run(["secret", "get", "--service", service, "k"], environment: environment).status, 1, "the chain the environment set does not read plain text")

        environment["RIZQ_SECRETS_BACKEND"] = "vualt"
        let invalid = try cli.run(["secret", "get", "--service", service, "k"], environment: environment)
        XCTAssertEqual(invalid.status, 2)
        XCTAssertTrue(invalid.stderr.contains("RIZQ_SECRETS_BACKEND names 'vualt'") && invalid.stderr.contains("secret-service"), invalid.stderr)
        environment["RIZQ_SECRETS_BACKEND"] = nil
        try Data(#"{"backend": "vault", "passphraseFiel": "/x"}"#.utf8).write(to: URL(fileURLWithPath: configFile))
        let misspelt = try cli.run(["secret", "list", "--service", service], environment: environment)
        XCTAssertEqual(misspelt.status, 2)
        XCTAssertTrue(misspelt.stderr.contains("passphraseFiel"), misspelt.stderr)
    }

    /// `secret backends` in text: every backend with its state, access, persistence and
    /// protection, and the write target marked.
    func testBackendsSaysWhyEachBackendIsOrIsNotUsed() throws {
        let cli = try CLIHarness()
        let service = "org.rizq.clitests.backends\(UUID().uuidString.prefix(6))"
        let passphrase = try cli.writeFile("passphrase", "pass-\(UUID().uuidString)")
        let output = try cli.run(["secret", "backends", "--service", service], environment: cli.headless(["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase]))
        XCTAssertEqual(output.status, 0, output.stderr)
        let text = output.stdout
        XCTAssertTrue(text.contains("reads try credentials, secret-service, vault (the default order)"), text)
        XCTAssertTrue(text.contains("Writes go to vault (automatic: no Secret Service (no D-Bus session bus"), text)
        XCTAssertTrue(text.contains("  credentials: not available; read-only; keeps secrets provided-by-host; protected by host-provided"), text)
        XCTAssertTrue(text.contains("  secret-service: not available; read-write; keeps secrets until-deleted; protected by os-keyring"), text)
        XCTAssertTrue(text.contains("* vault: available; read-write; keeps secrets until-deleted; protected by passphrase"), text)
        XCTAssertTrue(text.contains("  plaintext: not in the chain"), text)
        XCTAssertTrue(text.contains("CREDENTIALS_DIRECTORY is not set"), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.secretsRoot + "/" + service), "backends changes nothing")
    }

    private func backendsReport(_ cli: CLIHarness, _ service: String, _ environment: [String: String?]) throws -> [String: PrefValue] {
        let output = try cli.run(["secret", "backends", "--json", "--service", service], environment: environment)
        XCTAssertEqual(output.status, 0, output.stderr)
        guard case .dictionary(let report) = try JSONReader.parse(output.stdout) else { throw XCTSkip("not an object: \(output.stdout)") }
        return report
    }
}

extension PrefValue {
    /// The member `name` of an object, `nil` for anything else.
    func member(_ name: String) -> PrefValue? {
        guard case .dictionary(let members) = self else { return nil }
        return members[name]
    }
}
