import Foundation
import RizqTestSupport
import XCTest

/// The vault through real processes: what one process stores another reads; the files on disk;
/// damage, wrong passphrases, and each passphrase source.
final class VaultStoreTests: VaultTestCase {
    var passphraseFile = ""
    let passphrase = "correct horse battery \(UUID().uuidString.prefix(12))"
    /// A passphrase source and no systemd-creds (that slot has tests of its own).
    var passphraseEnvironment: [String: String] { ["RIZQ_SECRETS_PASSPHRASE_FILE": passphraseFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        passphraseFile = try writeFile("passphrase", passphrase + "\n")
    }

    private func createPassphraseVault() throws {
        let created = try runChild(["create", service, "passphrase"], environment: passphraseEnvironment)
        XCTAssertTrue(created.stdout.hasPrefix("ok created age1"), created.stdout)
    }

    func testTextAndBinarySecretsStoredByOneProcessAreReadByAnother() throws {
        try createPassphraseVault()
        let token = "tok-\(UUID().uuidString)"
        let binary = Data([0, 1, 2, 0, 255, 0, 10, 13]) + Data("tail".utf8)
        XCTAssertEqual(try runChild(["set", service, "auth_token"], input: Data(token.utf8), environment: passphraseEnvironment).stdout, "ok stored\n")
        XCTAssertEqual(try runChild(["set", service, "device key", "--binary"], input: binary, environment: passphraseEnvironment).stdout, "ok stored\n")
        XCTAssertEqual(try runChild(["get", service, "auth_token"], environment: passphraseEnvironment).stdout, token)
        let read = try runProcess(Self.child, ["get", service, "device key"], environment: environment(passphraseEnvironment))
        XCTAssertEqual(read.stdout, binary, "NUL bytes and all")
        XCTAssertEqual(try runChild(["list", service], environment: passphraseEnvironment).stdout, "ok auth_token,device key\n")
        XCTAssertEqual(try runChild(["get", service, "missing"], environment: passphraseEnvironment).status, 3)
        XCTAssertEqual(try runChild(["delete", service, "auth_token"], environment: passphraseEnvironment).stdout, "ok true\n")
        XCTAssertEqual(try runChild(["delete", service, "auth_token"], environment: passphraseEnvironment).stdout, "ok false\n")
        XCTAssertEqual(try runChild(["list", service], environment: passphraseEnvironment).stdout, "ok device key\n")
        // Account names and secrets are inside the ciphertext only.
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) ?? Data()
            for secret in ["auth_token", "device key", token, passphrase] {
                for form in leakForms(of: secret) { XCTAssertFalse(bytes.contains(form), "\(name) holds \(secret) in some form") }
            }
        }
    }

    func testAVaultThatDoesNotExistReadsAsEmpty() throws {
        XCTAssertEqual(try runChild(["get", service, "x"]).status, 3)
        XCTAssertEqual(try runChild(["list", service]).stdout, "ok \n")
        XCTAssertEqual(try runChild(["delete", service, "x"]).stdout, "ok false\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "reads and a delete create nothing")
        // A store with no key source at all makes nothing and says how to fix it.
        let stored = try runChild(["set", service, "x"], input: Data("v".utf8), environment: ["RIZQ_TEST_NO_SYSTEMD": "1"])
        XCTAssertTrue(stored.stdout.hasPrefix("error noKeySource "), stored.stdout)
        XCTAssertTrue(stored.stdout.contains("RIZQ_SECRETS_PASSPHRASE_FILE"), stored.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/recipient.txt"))
    }

    func testFoldersAre0700AndFiles0600EvenUnderUmask000() throws {
        let result = try runShell(#"umask 000; printf 'v' | "$CHILD" set "$SERVICE" a && "$CHILD" unlock "$SERVICE" 60"#, environment: passphraseEnvironment.merging(["SERVICE": service, "RIZQ_TEST_NO_CACHE": "0"]) { $1 })
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try modes(under: scratch + "/secrets").filter { !$0.key.contains("/") && $0.key == service }.values.first, 0o700)
        let modes = try modes(under: folder)
        XCTAssertEqual(Set(modes.keys), ["lock", "recipient.txt", "slots", "slots/passphrase.age", "vault.age"])
        for (name, mode) in modes {
            XCTAssertEqual(mode, name == "slots" ? 0o700 : 0o600, name)
        }
        let rootMode = try FileManager.default.attributesOfItem(atPath: root)[.posixPermissions] as? NSNumber
        XCTAssertEqual(rootMode?.intValue, 0o700, "folders the vault creates are 0700")
    }

    /// A flipped byte anywhere (version line, stanza, MAC, payload) and a truncation each give
    /// the typed `damaged` error; the next store is refused and leaves the file as it was; only
    /// the explicit set-aside lets a new vault start.
    func testADamagedVaultIsReportedAndNeverOverwritten() throws {
        try createPassphraseVault()
        XCTAssertEqual(try runChild(["set", service, "a"], input: Data("first".utf8), environment: passphraseEnvironment).status, 0)
        let vault = folder + "/vault.age"
        let original = try Data(contentsOf: URL(fileURLWithPath: vault))
        let headerEnd = try XCTUnwrap(original.range(of: Data("\n--- ".utf8))).upperBound
        var damages: [(String, Data)] = []
        for (name, index) in [("version line", 3), ("stanza", 30), ("MAC", headerEnd + 5), ("payload nonce", headerEnd + 45), ("payload", original.count - 20), ("tag", original.count - 1)] {
            var changed = original
            changed[index] ^= 0x20
            damages.append((name, changed))
        }
        damages.append(("truncated", original.prefix(original.count - 7)))
        damages.append(("truncated to the header", original.prefix(headerEnd + 44)))
        damages.append(("empty", Data()))
        for (name, damaged) in damages {
            try damaged.write(to: URL(fileURLWithPath: vault))
            let read = try runChild(["timed-get", service, "a"], environment: passphraseEnvironment)
            XCTAssertTrue(read.stdout.hasPrefix("error damaged seconds "), "\(name): \(read.stdout)")
            XCTAssertTrue(read.stdout.contains("left as it is"), read.stdout)
            print("damaged vault (\(name)): \(read.stdout.split(separator: " ").prefix(4).joined(separator: " "))")
            let write = try runChild(["set", service, "b"], input: Data("second".utf8), environment: passphraseEnvironment)
            XCTAssertTrue(write.stdout.hasPrefix("error damaged "), "\(name): \(write.stdout)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: vault)), damaged, "\(name): the damaged vault is untouched")
            XCTAssertFalse(write.stdout.contains(passphrase))
        }
        // The explicit force: the file is moved aside (kept), the next store starts over.
        let aside = try runChild(["set-aside", service])
        XCTAssertTrue(aside.stdout.hasPrefix("ok " + vault + ".damaged-"), aside.stdout)
        let kept = String(aside.stdout.dropFirst(3).dropLast())
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: kept)), Data())
        XCTAssertEqual(try runChild(["set", service, "b"], input: Data("second".utf8), environment: passphraseEnvironment).stdout, "ok stored\n")
        XCTAssertEqual(try runChild(["list", service], environment: passphraseEnvironment).stdout, "ok b\n")
    }

    func testAWrongPassphraseIsItsOwnErrorAndChangesNothing() throws {
        try createPassphraseVault()
        XCTAssertEqual(try runChild(["set", service, "a"], input: Data("v".utf8), environment: passphraseEnvironment).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age"))
        let wrongFile = try writeFile("wrong", "Tr0ub4dor&3-\(UUID().uuidString)\n")
        let wrong = passphraseEnvironment.merging(["RIZQ_SECRETS_PASSPHRASE_FILE": wrongFile]) { $1 }
        let read = try runChild(["timed-get", service, "a"], environment: wrong)
        XCTAssertTrue(read.stdout.hasPrefix("error wrongPassphrase "), read.stdout)
        print("wrong passphrase: \(read.stdout.split(separator: " ").prefix(4).joined(separator: " "))")
        let write = try runChild(["set", service, "b"], input: Data("v".utf8), environment: wrong)
        XCTAssertTrue(write.stdout.hasPrefix("error wrongPassphrase "), write.stdout)
        XCTAssertFalse(write.stdout.contains("Tr0ub4dor"), "the message never quotes the passphrase")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age")), before)
    }

    func testThePassphraseComesFromADescriptorACommandOrTheTerminal() throws {
        try createPassphraseVault()
        XCTAssertEqual(try runChild(["set", service, "a"], input: Data("from-file".utf8), environment: passphraseEnvironment).status, 0)
        let noFile = ["RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "SERVICE": service, "PASSFILE": passphraseFile]
        // A descriptor (here 3, opened by the shell on the passphrase file).
        let fd = try runShell(#"RIZQ_SECRETS_PASSPHRASE_FD=3 exec "$CHILD" get "$SERVICE" a 3<"$PASSFILE""#, environment: noFile)
        XCTAssertEqual(fd.stdout, "from-file", fd.stderr)
        // A command.
        let command = try runChild(["get", service, "a"], environment: noFile.merging(["RIZQ_SECRETS_PASSPHRASE_COMMAND": "cat '\(passphraseFile)'"]) { $1 })
        XCTAssertEqual(command.stdout, "from-file")
        // A failing command is an error of its own, not a fall-through.
        let failing = try runChild(["get", service, "a"], environment: noFile.merging(["RIZQ_SECRETS_PASSPHRASE_COMMAND": "exit 7"]) { $1 })
        XCTAssertTrue(failing.stdout.hasPrefix("error keySourceFailed the passphrase key source failed: the passphrase command exited with status 7"), failing.stdout)
        // The terminal, echo off, answered on a pseudo-terminal.
        let terminal = try runProcess(Self.python, [Self.scripts + "/pty-answer.py", Self.child, "get", service, "a"], input: Data((passphrase + "\n").utf8),
                                      environment: environment(noFile.merging(["RIZQ_TEST_TERMINAL": "1"]) { $1 }))
        let transcript = String(decoding: terminal.stdout, as: UTF8.self)
        XCTAssertEqual(terminal.status, 0, transcript)
        XCTAssertTrue(transcript.contains("Passphrase for the secrets of \(service): "), transcript)
        XCTAssertTrue(transcript.hasSuffix("from-file"), transcript)
        XCTAssertFalse(transcript.contains(passphrase), "echo was off")
    }

    func testTheKeyFileSlotIsDeclaredObfuscationAndOpensWithStockAge() throws {
        try requireTool("/usr/bin/age")
        let keyFile = scratch + "/vault-key.txt"
        let keyEnvironment = ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_SYSTEMD": "1"]
        XCTAssertEqual(try runChild(["create", service, "key-file"], environment: keyEnvironment).status, 0)
        XCTAssertEqual(try runChild(["set", service, "api"], input: Data("key-file-secret".utf8), environment: keyEnvironment).status, 0)
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
        let status = try runChild(["status", service], environment: keyEnvironment).stdout
        XCTAssertTrue(status.contains("key-file present=true usable=true protection=obfuscation"), status)
        let recovered = try runProcess("/usr/bin/age", ["-d", "-i", keyFile, folder + "/vault.age"])
        XCTAssertEqual(recovered.status, 0)
        let sealed = try XCTUnwrap(JSONSerialization.jsonObject(with: recovered.stdout) as? [String: Any])
        XCTAssertEqual(sealed["format"] as? String, "rizq-prefs.vault.v2")
        let json = try XCTUnwrap(sealed["items"] as? [String: [String: Any]])
        XCTAssertEqual(json["api"]?["data"] as? String, Data("key-file-secret".utf8).base64EncodedString())
        XCTAssertEqual(json["api"]?["isText"] as? Bool, true)
        // A key made by age-keygen beforehand becomes the vault's key.
        let ownKey = scratch + "/own-key.txt"
        XCTAssertEqual(try runProcess("/usr/bin/age-keygen", ["-o", ownKey]).status, 0)
        let other = service + ".own"
        let created = try runChild(["create", other, "key-file"], environment: ["RIZQ_SECRETS_KEY_FILE": ownKey, "RIZQ_TEST_NO_SYSTEMD": "1"])
        let recipient = String(decoding: try runProcess("/usr/bin/age-keygen", ["-y", ownKey]).stdout, as: UTF8.self)
        XCTAssertEqual(created.stdout, "ok created " + recipient)
        _ = try? runChild(["lock", other])
    }

    /// The passphrase slot is what `age -p` writes: `age -d` with the passphrase typed at its
    /// prompt gives the identity file, and `age -d -i` with it opens the vault.
    func testThePassphraseSlotRecoversWithStockAge() throws {
        try requireTool("/usr/bin/age")
        try createPassphraseVault()
        XCTAssertEqual(try runChild(["set", service, "db"], input: Data("postgres://secret".utf8), environment: passphraseEnvironment).status, 0)
        let identityPath = scratch + "/recovered-identity"
        let opened = try runProcess(Self.python, [Self.scripts + "/pty-answer.py", "/usr/bin/age", "-d", "-o", identityPath, folder + "/slots/passphrase.age"],
                                    input: Data((passphrase + "\n").utf8))
        XCTAssertEqual(opened.status, 0, String(decoding: opened.stdout, as: UTF8.self))
        let recipient = try String(contentsOfFile: folder + "/recipient.txt", encoding: .utf8)
        XCTAssertTrue(try String(contentsOfFile: identityPath, encoding: .utf8).contains("# public key: " + recipient), "an age-keygen style identity file")
        let vault = try runProcess("/usr/bin/age", ["-d", "-i", identityPath, folder + "/vault.age"])
        XCTAssertEqual(vault.status, 0)
        XCTAssertTrue(String(decoding: vault.stdout, as: UTF8.self).contains(#""db":{"#))
        let slot = try Data(contentsOf: URL(fileURLWithPath: folder + "/slots/passphrase.age"))
        XCTAssertTrue(slot.starts(with: Data("age-encryption.org/v1\n-> scrypt ".utf8)))
    }

    /// A process stuck holding the vault's lock makes a write fail with `timedOut` after the
    /// configured wait, leaving the vault as it was; once the lock is free, writes go through.
    func testAWriterStuckHoldingTheLockGivesATimeOutNotAHang() throws {
        try requireTool("/usr/bin/flock")
        try createPassphraseVault()
        XCTAssertEqual(try runChild(["set", service, "a"], input: Data("before".utf8), environment: passphraseEnvironment).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age"))
        // util-linux flock takes the same flock(2) lock and holds it until its stdin closes.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [folder + "/lock", "/bin/sh", "-c", "echo held; read line"]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        var announced = Data()
        while !announced.contains(Data("held\n".utf8)) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            announced += chunk
        }
        XCTAssertEqual(String(decoding: announced, as: UTF8.self), "held\n")
        let blocked = try runChild(["set", service, "b"], input: Data("during".utf8), environment: passphraseEnvironment.merging(["RIZQ_TEST_LOCK_TIMEOUT": "1"]) { $1 })
        XCTAssertTrue(blocked.stdout.hasPrefix("error timedOut waiting for the lock "), blocked.stdout)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age")), before)
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        XCTAssertEqual(try runChild(["set", service, "b"], input: Data("after".utf8), environment: passphraseEnvironment).stdout, "ok stored\n")
        XCTAssertEqual(try runChild(["list", service], environment: passphraseEnvironment).stdout, "ok a,b\n")
    }
}
