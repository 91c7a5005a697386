import Foundation
import RizqAge
import RizqTestSupport
import XCTest

/// Issue 37, item 7: a re-key that retires the old identity; key-source programs that get only
/// stdin, stdout and stderr and a minimal environment, and are killed with everything they
/// started; a terminal prompt interrupted with Ctrl-C that leaves echo on.
final class VaultKeyHygieneTests: VaultTestCase {
    var passphraseFile = ""
    let passphrase = "hygiene \(UUID().uuidString.prefix(12))"
    var passphraseEnvironment: [String: String] {
        ["RIZQ_SECRETS_PASSPHRASE_FILE": passphraseFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_TEST_WORK_FACTOR": "15"]
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        passphraseFile = try writeFile("passphrase", passphrase + "\n")
    }

    private func createWithSecret(_ value: String = "before the re-key") throws {
        XCTAssertTrue(try runChild(["create", service, "passphrase"], environment: passphraseEnvironment).stdout.hasPrefix("ok created "))
        XCTAssertEqual(try runChild(["set", service, "token"], input: Data(value.utf8), environment: passphraseEnvironment).stdout, "ok stored\n")
    }

    /// The identities in a passphrase slot, opened with `passphrase` (as `age -d` would).
    private func identities(inSlot slot: Data, passphrase: String) throws -> [AgeX25519Identity] {
        try AgeIdentityFile.parse(try Age.decrypt(slot, with: [AgeScryptIdentity(passphrase: Array(passphrase.utf8))]))
    }

    func testARekeyLeavesAnOldPassphraseSlotWithItsOldPassphraseOpeningNothing() throws {
        try requireTool("/usr/bin/age")
        try createWithSecret()
        let slotPath = folder + "/slots/passphrase.age"
        let oldSlot = try Data(contentsOf: URL(fileURLWithPath: slotPath))
        let oldRecipient = try String(contentsOfFile: folder + "/recipient.txt", encoding: .utf8)
        let oldVault = try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age"))
        let oldIdentity = try XCTUnwrap(try identities(inSlot: oldSlot, passphrase: passphrase).first)
        XCTAssertNoThrow(try Age.decrypt(oldVault, with: [oldIdentity]), "sanity: the old slot opened the old vault")

        let rekeyed = try runChild(["rekey", service], environment: passphraseEnvironment)
        XCTAssertTrue(rekeyed.stdout.hasPrefix("ok rekeyed age1"), rekeyed.stdout)
        let newRecipient = try String(contentsOfFile: folder + "/recipient.txt", encoding: .utf8)
        XCTAssertEqual(rekeyed.stdout, "ok rekeyed " + newRecipient)
        XCTAssertNotEqual(newRecipient, oldRecipient)
        XCTAssertEqual(try runChild(["get", service, "token"], environment: passphraseEnvironment).stdout, "before the re-key")

        // The new slot holds the new identity alone; the vault opens with it and not with the old.
        let newIdentities = try identities(inSlot: try Data(contentsOf: URL(fileURLWithPath: slotPath)), passphrase: passphrase)
        XCTAssertEqual(newIdentities.map(\.recipient.string), [newRecipient.trimmingCharacters(in: .newlines)])
        let vault = try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age"))
        XCTAssertThrowsError(try Age.decrypt(vault, with: [oldIdentity])) { error in
            XCTAssertEqual(error as? AgeError, .noMatchingIdentity)
        }
        // Debian's age with the identity the old slot gives: refused too.
        let oldKeyFile = try writeFile("old-identity.txt", AgeIdentityFile.render(oldIdentity))
        let stockAge = try runProcess("/usr/bin/age", ["-d", "-i", oldKeyFile, folder + "/vault.age"])
        XCTAssertNotEqual(stockAge.status, 0)
        XCTAssertTrue(stockAge.stdout.isEmpty)

        // The old slot put back, with its old passphrase: it gives a key that is not the vault's.
        try oldSlot.write(to: URL(fileURLWithPath: slotPath))
        let withOldSlot = try runChild(["get", service, "token"], environment: passphraseEnvironment)
        XCTAssertTrue(withOldSlot.stdout.hasPrefix("error wrongKey "), withOldSlot.stdout)
        // The whole folder as it was before (old key, old slot, old vault): an old copy, refused.
        try Data(oldRecipient.utf8).write(to: URL(fileURLWithPath: folder + "/recipient.txt"))
        try oldVault.write(to: URL(fileURLWithPath: folder + "/vault.age"))
        let putBack = try runChild(["get", service, "token"], environment: passphraseEnvironment)
        XCTAssertTrue(putBack.stdout.hasPrefix("error rolledBack ") && putBack.stdout.contains("re-keyed"), putBack.stdout)
    }

    /// A vault with a key file and a systemd-creds slot (root): both hold the new key afterwards,
    /// and each opens the vault alone.
    func testARekeyWrapsTheNewKeyInTheKeyFileAndTheSystemdCredsSlot() throws {
        try requireRoot()
        try requireTool("/usr/bin/systemd-creds")
        try requireTool("/usr/bin/age-keygen")
        let keyFile = scratch + "/key.txt"
        let both = ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_CACHE": "1"]
        XCTAssertTrue(try runChild(["create", service, "systemd-creds,key-file"], environment: both).stdout.hasPrefix("ok created "))
        XCTAssertEqual(try runChild(["set", service, "token"], input: Data("two slots".utf8), environment: both).stdout, "ok stored\n")
        let rekeyed = try runChild(["rekey", service], environment: both)
        XCTAssertTrue(rekeyed.stdout.hasPrefix("ok rekeyed "), rekeyed.stdout)
        let recipient = try String(contentsOfFile: folder + "/recipient.txt", encoding: .utf8)
        XCTAssertEqual(String(decoding: try runProcess("/usr/bin/age-keygen", ["-y", keyFile]).stdout, as: UTF8.self), recipient, "the key file holds the new key alone")
        XCTAssertEqual(try runChild(["get", service, "token"], environment: ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"]).stdout, "two slots")
        XCTAssertEqual(try runChild(["get", service, "token"], environment: ["RIZQ_TEST_NO_CACHE": "1"]).stdout, "two slots", "systemd-creds alone")
    }

    /// The passphrase command gets fds 0, 1 and 2 only (not the descriptor the shell left open
    /// for the vault's process, not a passphrase descriptor), and no variable but the minimal
    /// set (no RIZQ_SECRETS_*, no token another variable holds).
    func testAPassphraseCommandInheritsOnlyTheStandardDescriptorsAndAMinimalEnvironment() throws {
        try createWithSecret("inherited")
        // `ls -l` of the shell's own descriptors: "N -> target" (dash keeps a copy of stdin at 10).
        let command = "ls -l /proc/$$/fd > '\(scratch)/fds'; env > '\(scratch)/env'; cat '\(passphraseFile)'"
        let run = try runShell(#"exec 7<"$PASSFILE" 9<"$PASSFILE"; exec "$CHILD" get "$SERVICE" token"#, environment: [
            "PASSFILE": passphraseFile, "SERVICE": service, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1",
            "RIZQ_SECRETS_PASSPHRASE_COMMAND": command, "AWS_SECRET_ACCESS_KEY": "leaked-\(UUID().uuidString)", "LANG": "C.UTF-8",
        ])
        XCTAssertEqual(run.stdout, "inherited", run.stderr)
        // "lr-x------ 1 root root 64 Nov 29 07:33 0 -> /dev/null" → "0 /dev/null".
        let descriptors = try String(contentsOfFile: scratch + "/fds", encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            guard let arrow = line.range(of: " -> ") else { return nil }
            return (line[..<arrow.lowerBound].split(separator: " ").last.map(String.init) ?? "?") + " " + line[arrow.upperBound...]
        }
        let numbers = Set(descriptors.compactMap { $0.split(separator: " ").first.map(String.init) })
        XCTAssertTrue(numbers.isSuperset(of: ["0", "1", "2"]) && numbers.isSubset(of: ["0", "1", "2", "10"]), "descriptors the command inherited: \(descriptors)")
        XCTAssertFalse(descriptors.contains { $0.hasSuffix(" " + passphraseFile) }, "the passphrase file's descriptors reached the command: \(descriptors)")
        let variables = Set(try String(contentsOfFile: scratch + "/env", encoding: .utf8).split(separator: "\n").compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        XCTAssertTrue(variables.isSuperset(of: ["PATH", "HOME", "LANG"]), "\(variables)")
        for name in ["AWS_SECRET_ACCESS_KEY", "RIZQ_SECRETS_PASSPHRASE_COMMAND", "RIZQ_SECRETS_DIR", "RIZQ_TEST_NO_CACHE", "PASSFILE", "CHILD"] {
            XCTAssertFalse(variables.contains(name), "\(name) reached the command: \(variables.sorted())")
        }
    }

    /// A passphrase command that never ends and started a child of its own: at the time-out the
    /// whole process group is killed, not only `/bin/sh`.
    func testATimedOutPassphraseCommandIsKilledWithWhatItStarted() throws {
        try createWithSecret()
        let pidFile = scratch + "/grandchild"
        // The child holds no descriptor of ours: only being killed ends it before its time.
        let command = "sleep 600 </dev/null >/dev/null 2>&1 & echo $! > '\(pidFile)'; wait"
        // The vault's process starts with no descriptor but 0, 1 and 2 (Foundation's Process
        // hands its children a socket it waits on), so that nothing the command leaves running
        // can hold this test up, whatever the code under test passes on.
        let closing = "import os, sys; os.closerange(3, 1 << 16); os.execv(sys.argv[1], sys.argv[1:])"
        let run = try runProcess(Self.python, ["-c", closing, Self.child, "get", service, "token"], environment: environment([
            "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_SECRETS_PASSPHRASE_COMMAND": command, "RIZQ_TEST_COMMAND_TIMEOUT": "1",
        ]))
        let read = (stdout: String(decoding: run.stdout, as: UTF8.self), stderr: String(decoding: run.stderr, as: UTF8.self))
        XCTAssertTrue(read.stdout.hasPrefix("error timedOut the passphrase command did not finish"), read.stdout)
        let pid = try XCTUnwrap(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(pid, SIGKILL) }
        // Gone, or a zombie waiting for whoever adopted it: not running.
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?.split(separator: " ").first
        XCTAssertTrue(state == nil || state == "Z", "the command's child \(pid) still runs (state \(state.map(String.init) ?? "?"))")
    }

    /// Ctrl-C at the terminal's passphrase prompt: the process ends by SIGINT as before, and the
    /// terminal echoes again.
    func testCtrlCAtThePassphrasePromptLeavesTheTerminalEchoing() throws {
        try createWithSecret()
        let result = try runProcess(Self.python, [Self.scripts + "/pty-interrupt.py", "Passphrase for the secrets of", Self.child, "get", service, "token"],
                                    environment: environment(["RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_TEST_TERMINAL": "1"]))
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        XCTAssertEqual(lines, ["echo on", "signal 2"])
    }
}
