import Foundation
import RizqTestSupport
import XCTest

/// Issue 37, item 1: `vault.age` is age to the public key in `recipient.txt`, so anyone who can
/// replace it can encrypt contents of their own to it. The contents are sealed with a key only
/// the identity's holder has; this machine records the generation it has seen. A forgery made
/// with Debian's real `age -r`, an older genuine copy, and the last release's format put back
/// over a sealed vault are refused; the last release's vault itself still reads, and is sealed.
final class VaultIntegrityTests: VaultTestCase {
    var passphraseFile = ""
    var passphraseEnvironment: [String: String] { ["RIZQ_SECRETS_PASSPHRASE_FILE": passphraseFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_TEST_WORK_FACTOR": "15"] }
    var vaultPath: String { folder + "/vault.age" }
    /// This machine's records (HOME is the scratch folder).
    var stateFolder: String { scratch + "/.local/state/rizq-prefs/vaults" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireTool("/usr/bin/age")
        passphraseFile = try writeFile("passphrase", "integrity \(UUID().uuidString)\n")
    }

    private func store(_ account: String, _ value: String) throws {
        let stored = try runChild(["set", service, account], input: Data(value.utf8), environment: passphraseEnvironment)
        XCTAssertEqual(stored.stdout, "ok stored\n", stored.stderr)
    }

    /// `json` encrypted with Debian's `age -r` to the recipient in `recipient.txt`, put in place
    /// of `vault.age`: what anyone who can read the folder and replace the file can do.
    private func forge(_ json: String) throws {
        let recipient = try String(contentsOfFile: folder + "/recipient.txt", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let forged = scratch + "/forged.age"
        let made = try runProcess("/usr/bin/age", ["-r", recipient, "-o", forged], input: Data(json.utf8))
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        try FileManager.default.removeItem(atPath: vaultPath)
        try FileManager.default.moveItem(atPath: forged, toPath: vaultPath)
        XCTAssertEqual(chmod(vaultPath, 0o600), 0)
    }

    private func item(_ value: String) -> String {
        #"{"created":"2026-01-01T00:00:00.000Z","data":"\#(Data(value.utf8).base64EncodedString())","isText":true,"label":"x","modified":"2026-01-01T00:00:00.000Z"}"#
    }

    func testAVaultForgedWithAgeToItsRecipientIsRefused() throws {
        XCTAssertTrue(try runChild(["create", service, "passphrase"], environment: passphraseEnvironment).stdout.hasPrefix("ok created "))
        try store("token", "genuine")
        let forgeries = [
            ("the last release's format", #"{"token":\#(item("forged-old-format"))}"#),
            ("the sealed format with a made-up seal", #"{"format":"rizq-prefs.vault.v2","generation":99,"items":{"token":\#(item("forged-new-format"))},"mac":["\#(Data(count: 32).base64EncodedString())"],"service":"\#(service)"}"#),
            ("the sealed format with no seal", #"{"format":"rizq-prefs.vault.v2","generation":99,"items":{"token":\#(item("forged-unsealed"))},"mac":[],"service":"\#(service)"}"#),
        ]
        for (name, json) in forgeries {
            try forge(json)
            let forged = try Data(contentsOf: URL(fileURLWithPath: vaultPath))
            let read = try runChild(["get", service, "token"], environment: passphraseEnvironment)
            XCTAssertTrue(read.stdout.hasPrefix("error unauthenticated refusing the vault \(vaultPath): "), "\(name): \(read.stdout)")
            XCTAssertFalse(read.stdout.contains("forged"), name)
            let listed = try runChild(["list", service], environment: passphraseEnvironment)
            XCTAssertTrue(listed.stdout.hasPrefix("error unauthenticated "), "\(name): \(listed.stdout)")
            let write = try runChild(["set", service, "other"], input: Data("v".utf8), environment: passphraseEnvironment)
            XCTAssertTrue(write.stdout.hasPrefix("error unauthenticated "), "\(name): \(write.stdout)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: vaultPath)), forged, "\(name): left as it is")
            print("forged vault (\(name)): \(read.stdout.prefix(160))")
        }
        // A machine with no record of the vault (a new one): a made-up seal is refused all the same.
        try FileManager.default.removeItem(atPath: stateFolder)
        try forge(forgeries[1].1)
        XCTAssertTrue(try runChild(["get", service, "token"], environment: passphraseEnvironment).stdout.hasPrefix("error unauthenticated "))
    }

    /// One key file for two services (RIZQ_SECRETS_KEY_FILE is per user, not per service): one
    /// service's sealed vault copied into the other's folder is refused.
    func testAVaultCopiedFromAnotherServiceWithTheSameKeyIsRefused() throws {
        let keyEnvironment = ["RIZQ_SECRETS_KEY_FILE": scratch + "/key.txt", "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"]
        let other = service + ".other"
        XCTAssertEqual(try runChild(["set", service, "token"], input: Data("mine".utf8), environment: keyEnvironment).stdout, "ok stored\n")
        XCTAssertEqual(try runChild(["set", other, "token"], input: Data("theirs".utf8), environment: keyEnvironment).stdout, "ok stored\n")
        try FileManager.default.removeItem(atPath: vaultPath)
        try FileManager.default.copyItem(atPath: root + "/" + other + "/vault.age", toPath: vaultPath)
        try FileManager.default.removeItem(atPath: stateFolder)
        let read = try runChild(["get", service, "token"], environment: keyEnvironment)
        XCTAssertTrue(read.stdout.hasPrefix("error unauthenticated ") && read.stdout.contains("another service's vault ('\(other)')"), read.stdout)
    }

    func testAnOlderGenuineCopyPutBackIsRefusedUntilAccepted() throws {
        try store("token", "first")
        let older = scratch + "/older.age"
        try FileManager.default.copyItem(atPath: vaultPath, toPath: older)
        try store("token", "second")
        try store("added", "later")
        let newer = try Data(contentsOf: URL(fileURLWithPath: vaultPath))
        try FileManager.default.removeItem(atPath: vaultPath)
        try FileManager.default.copyItem(atPath: older, toPath: vaultPath)
        let rolledBack = try Data(contentsOf: URL(fileURLWithPath: vaultPath))

        let read = try runChild(["get", service, "token"], environment: passphraseEnvironment)
        XCTAssertTrue(read.stdout.hasPrefix("error rolledBack refusing the vault \(vaultPath): it is generation 2, older than generation 4"), read.stdout)
        XCTAssertTrue(read.stdout.contains("accept-restored"), read.stdout)
        XCTAssertFalse(read.stdout.contains("first"))
        let write = try runChild(["set", service, "token"], input: Data("third".utf8), environment: passphraseEnvironment)
        XCTAssertTrue(write.stdout.hasPrefix("error rolledBack "), write.stdout)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: vaultPath)), rolledBack, "left as it is")
        // Unlocking checks the vault as it is too.
        XCTAssertTrue(try runChild(["unlock", service, "60"], environment: passphraseEnvironment).stdout.hasPrefix("error rolledBack "))

        // Put back on purpose: accepted, and the next writes go on from there.
        XCTAssertEqual(try runChild(["accept-restored", service]).stdout, "ok accepted\n")
        XCTAssertEqual(try runChild(["get", service, "token"], environment: passphraseEnvironment).stdout, "first")
        try store("token", "third")
        // The newer copy is newer than what was accepted: it reads.
        try newer.write(to: URL(fileURLWithPath: vaultPath))
        XCTAssertEqual(try runChild(["get", service, "added"], environment: passphraseEnvironment).stdout, "later")
    }

    /// The vault the last release wrote (Tests/RizqVaultTests/Fixtures/vault-last-release, made
    /// by the release before this one: a key file and a passphrase slot, no seal) is refused by
    /// a read (issue 50, item 2: anyone with its public key could have written one), then taken
    /// by the named step `upgrade` and sealed; it reads with either slot, still a plain age file
    /// that Debian's `age -d` opens; put back over the sealed vault, it is then refused.
    func testTheLastReleasesVaultIsTakenByTheUpgradeStepAloneAndSealed() throws {
        service = "org.rizq.fixtures.vault"
        let fixture = repositoryRoot().appendingPathComponent("Tests/RizqVaultTests/Fixtures/vault-last-release").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: fixture, toPath: folder)
        try FileManager.default.removeItem(atPath: folder + "/key.txt")
        let keyFile = scratch + "/fixture-key.txt"
        try FileManager.default.copyItem(atPath: fixture + "/key.txt", toPath: keyFile)
        for (path, mode) in [(folder, 0o700), (folder + "/slots", 0o700), (vaultPath, 0o600), (folder + "/recipient.txt", 0o600), (folder + "/slots/passphrase.age", 0o600), (keyFile, 0o600)] {
            XCTAssertEqual(chmod(path, mode_t(mode)), 0, path)
        }
        let lastRelease = try Data(contentsOf: URL(fileURLWithPath: vaultPath))
        XCTAssertTrue(try runProcess("/usr/bin/age", ["-d", "-i", keyFile, vaultPath]).stdout.starts(with: Data(#"{"auth_token":"#.utf8)), "the fixture is the old format")

        let keyEnvironment = ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"]
        // No record on this machine: a read refuses it all the same, and names the step.
        for arguments in [["get", service, "auth_token"], ["list", service]] {
            let refused = try runChild(arguments, environment: keyEnvironment)
            XCTAssertTrue(refused.stdout.hasPrefix("error unauthenticated ") && refused.stdout.contains("rizq-prefs secret upgrade"), refused.stdout)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: vaultPath)), lastRelease, "a read seals nothing")
        XCTAssertEqual(try runChild(["upgrade", service], environment: keyEnvironment).stdout, "ok sealed\n")
        XCTAssertEqual(try runChild(["upgrade", service], environment: keyEnvironment).stdout, "ok sealed already\n")
        XCTAssertEqual(try runChild(["get", service, "auth_token"], environment: keyEnvironment).stdout, "tok-last-release-1")
        XCTAssertEqual(try runProcess(Self.child, ["get", service, "device key"], environment: environment(keyEnvironment)).stdout, Data([0, 1, 0xFF]) + Data("binary\n".utf8))
        let passphrase = try writeFile("fixture-passphrase", "last release passphrase\n")
        let passphraseOnly = ["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"]
        XCTAssertEqual(try runChild(["get", service, "ключ"], environment: passphraseOnly).stdout, "Grüße 👋")

        // Sealed by the step, and still plain age.
        let decrypted = try runProcess("/usr/bin/age", ["-d", "-i", keyFile, vaultPath])
        XCTAssertEqual(decrypted.status, 0)
        let sealed = try XCTUnwrap(JSONSerialization.jsonObject(with: decrypted.stdout) as? [String: Any])
        XCTAssertEqual(sealed["format"] as? String, "rizq-prefs.vault.v2")
        XCTAssertEqual(sealed["service"] as? String, service)
        XCTAssertEqual((sealed["mac"] as? [String])?.count, 1)
        XCTAssertEqual(Set((sealed["items"] as? [String: Any])?.keys ?? [:].keys), ["auth_token", "device key", "ключ"])
        XCTAssertEqual(try runChild(["list", service], environment: keyEnvironment).stdout, "ok auth_token,device key,ключ\n")

        // The old file put back over it: refused, as a forgery in the old format would be.
        try lastRelease.write(to: URL(fileURLWithPath: vaultPath))
        let downgraded = try runChild(["get", service, "auth_token"], environment: keyEnvironment)
        XCTAssertTrue(downgraded.stdout.hasPrefix("error unauthenticated ") && downgraded.stdout.contains("unsealed format"), downgraded.stdout)
    }

    /// Issue 50, item 2: a vault forged in the old unsealed format was read as genuine, and
    /// then sealed, wherever the reader had no generation record (a new machine, another
    /// XDG_STATE_HOME, a container). Now no read accepts it, record or not, and no write seals it.
    func testAnUnsealedForgeryIsRefusedWhereThereIsNoRecordAndNeverSealed() throws {
        XCTAssertTrue(try runChild(["create", service, "passphrase"], environment: passphraseEnvironment).stdout.hasPrefix("ok created "))
        try store("token", "genuine")
        try forge(#"{"token":\#(item("forged-old-format"))}"#)
        let forged = try Data(contentsOf: URL(fileURLWithPath: vaultPath))
        try FileManager.default.removeItem(atPath: stateFolder)
        for stateHome in [nil, scratch + "/another-state"] {
            var environment = passphraseEnvironment
            if let stateHome { environment["XDG_STATE_HOME"] = stateHome }
            for arguments in [["get", service, "token"], ["list", service], ["set", service, "other"]] {
                let result = try runChild(arguments, input: Data("v".utf8), environment: environment)
                XCTAssertTrue(result.stdout.hasPrefix("error unauthenticated ") && result.stdout.contains("unsealed format"), "\(arguments): \(result.stdout)")
                XCTAssertFalse(result.stdout.contains("forged"))
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: vaultPath)), forged, "never sealed by a read or a write")
    }

    /// Reads judge the vault's folder as writes do: one that another user owns is refused.
    func testAVaultFolderAnotherUserOwnsIsRefusedOnRead() throws {
        try requireRoot()
        try store("token", "kept")
        XCTAssertEqual(chown(folder, 65_534, 65_534), 0)
        let read = try runChild(["get", service, "token"], environment: passphraseEnvironment)
        XCTAssertTrue(read.stdout.hasPrefix("error untrusted refusing to use \(folder): "), read.stdout)
        XCTAssertTrue(read.stdout.contains("65534"), read.stdout)
        XCTAssertFalse(read.stdout.contains("kept"))
        XCTAssertTrue(try runChild(["list", service], environment: passphraseEnvironment).stdout.hasPrefix("error untrusted "))
    }
}
