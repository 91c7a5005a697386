import Foundation
import RizqTestSupport
import XCTest

/// The systemd-creds slot, the kernel-keyring cache, another uid, and keyctl refused by seccomp.
final class VaultKeySourceTests: VaultTestCase {
    /// systemd-creds only: no passphrase, no key file, no cache.
    var systemdOnly: [String: String] { ["RIZQ_TEST_NO_CACHE": "1"] }

    /// As root with no passphrase configured, the first store makes a vault with the
    /// systemd-creds slot alone, and a new process reads it back.
    func testSystemdCredsSlotAloneAsRootWithNoPassphrase() throws {
        try requireRoot()
        try requireTool("/usr/bin/systemd-creds")
        XCTAssertEqual(try runChild(["set", service, "token"], input: Data("from-systemd-creds".utf8), environment: systemdOnly).stdout, "ok stored\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/slots"), ["systemd.cred"])
        XCTAssertEqual(try runChild(["get", service, "token"], environment: systemdOnly).stdout, "from-systemd-creds")
        let status = try runChild(["status", service], environment: systemdOnly).stdout
        let hasTPM = try runProcess("/usr/bin/systemd-creds", ["has-tpm2"]).status == 0
        XCTAssertTrue(status.contains("systemd-creds present=true usable=true protection=\(hasTPM ? "tpm2+host-key" : "host-key")"), status)
        XCTAssertTrue(status.contains("passphrase present=false usable=false"), status)
        // The credential carries its name: renamed, it does not decrypt.
        let renamed = try runProcess("/usr/bin/systemd-creds", ["decrypt", "--name=rizq-prefs.other.identity", folder + "/slots/systemd.cred", "-"])
        XCTAssertNotEqual(renamed.status, 0)
    }

    /// Recovery with stock tools: systemd-creds decrypt piped into age -d -i -.
    func testSystemdCredsSlotRecoversWithStockTools() throws {
        try requireRoot()
        try requireTool("/usr/bin/systemd-creds")
        try requireTool("/usr/bin/age")
        XCTAssertEqual(try runChild(["set", service, "token"], input: Data("stock-tools".utf8), environment: systemdOnly).status, 0)
        let pipeline = try runShell(#"cd "$FOLDER" && systemd-creds decrypt --name="rizq-prefs.$SERVICE.identity" slots/systemd.cred - | age -d -i - vault.age"#,
                                    environment: ["FOLDER": folder, "SERVICE": service])
        XCTAssertEqual(pipeline.status, 0, pipeline.stderr)
        let sealed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pipeline.stdout.utf8)) as? [String: Any])
        let json = try XCTUnwrap(sealed["items"] as? [String: [String: Any]])
        XCTAssertEqual(json["token"]?["data"] as? String, Data("stock-tools".utf8).base64EncodedString())
    }

    /// unlock caches the key in the kernel keyring (possessor/user view-read-search only, with a
    /// time-out); a process with no key source then reads through it; lock invalidates it.
    func testUnlockCachesTheKeyForOtherProcessesAndLockForgetsIt() throws {
        try requireTool("/usr/bin/keyctl")
        let passphraseFile = try writeFile("passphrase", "unlock-me-\(UUID().uuidString)\n")
        let withPassphrase = ["RIZQ_SECRETS_PASSPHRASE_FILE": passphraseFile, "RIZQ_TEST_NO_SYSTEMD": "1"]
        let nothing = ["RIZQ_TEST_NO_SYSTEMD": "1"]
        XCTAssertEqual(try runChild(["set", service, "a"], input: Data("cached-read".utf8), environment: withPassphrase).status, 0)
        XCTAssertTrue(try runChild(["get", service, "a"], environment: nothing).stdout.hasPrefix("error noKeySource "), "locked before unlock")
        let unlocked = try runChild(["unlock", service, "600"], environment: withPassphrase).stdout
        XCTAssertTrue(unlocked.hasPrefix("ok unlocked source=passphrase cached=true keyring="), unlocked)
        let serial = try XCTUnwrap(unlocked.split(separator: " ").first { $0.hasPrefix("serial=") }.map { String($0.dropFirst(7)) })
        XCTAssertEqual(try runChild(["get", service, "a"], environment: nothing).stdout, "cached-read")
        // /proc/keys: the key's permissions and its time-out (a duration, not "perm").
        let line = try XCTUnwrap(try String(contentsOfFile: "/proc/keys", encoding: .utf8).split(separator: "\n").first {
            $0.hasPrefix(String(format: "%08x ", try XCTUnwrap(Int32(serial))))
        })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        XCTAssertEqual(fields[4], "0b0b0000", "possessor and user: view, read, search; nothing else")
        XCTAssertNotEqual(fields[3], "perm", "a time-out is set")
        XCTAssertEqual(fields[7], "user")
        XCTAssertTrue(fields[8].hasPrefix("rizq-prefs:vault:"))
        XCTAssertEqual(try runChild(["lock", service]).stdout, "ok locked 1\n")
        XCTAssertTrue(try runChild(["get", service, "a"], environment: nothing).stdout.hasPrefix("error noKeySource "), "locked again")
        XCTAssertNotEqual(try runProcess("/usr/bin/keyctl", ["print", serial]).status, 0, "the key is gone")
    }

    /// Another uid reads neither the vault's files nor the cached key, while root (the owner)
    /// can: the refusals come from the modes and the key's permissions, not from a wrong path.
    func testAnotherUidReadsNeitherTheFilesNorTheCachedKey() throws {
        try requireRoot()
        try requireTool("/usr/sbin/runuser")
        try requireTool("/usr/bin/keyctl")
        let passphraseFile = try writeFile("passphrase", "other-uid-\(UUID().uuidString)\n")
        let withPassphrase = ["RIZQ_SECRETS_PASSPHRASE_FILE": passphraseFile, "RIZQ_TEST_NO_SYSTEMD": "1"]
        XCTAssertEqual(try runChild(["set", service, "a"], input: Data("not-for-nobody".utf8), environment: withPassphrase).status, 0)
        let unlocked = try runChild(["unlock", service, "600"], environment: withPassphrase).stdout
        let serial = try XCTUnwrap(unlocked.split(separator: " ").first { $0.hasPrefix("serial=") }.map { String($0.dropFirst(7)) })
        XCTAssertEqual(try runProcess("/usr/bin/keyctl", ["pipe", serial]).stdout.count, 32, "the owner reads the 32-byte key")
        XCTAssertEqual(try runProcess("/bin/cat", [folder + "/vault.age"]).status, 0, "the owner reads the file")
        for (what, arguments) in [
            ("the vault", ["/bin/cat", folder + "/vault.age"]),
            ("the folder", ["/bin/ls", folder]),
            ("the slots", ["/bin/cat", folder + "/slots/passphrase.age"]),
            ("the cached key", ["/usr/bin/keyctl", "pipe", serial]),
            ("the cached key's description", ["/usr/bin/keyctl", "describe", serial]),
        ] {
            let result = try runProcess("/usr/sbin/runuser", ["-u", "nobody", "--"] + arguments)
            XCTAssertNotEqual(result.status, 0, "nobody read \(what)")
            XCTAssertTrue(String(decoding: result.stderr, as: UTF8.self).contains("Permission denied"), "\(what): \(String(decoding: result.stderr, as: UTF8.self))")
            XCTAssertTrue(result.stdout.isEmpty)
        }
        // The vault itself, run as nobody: refused by the folder's mode.
        let asNobody = try runProcess("/usr/sbin/runuser", ["-u", "nobody", "--", try reachableByEveryUser(Self.child), "get", service, "a"], environment: environment(["RIZQ_TEST_NO_SYSTEMD": "1"]))
        let output = String(decoding: asNobody.stdout, as: UTF8.self)
        XCTAssertNotEqual(asNobody.status, 0)
        XCTAssertTrue(output.hasPrefix("error fileSystem ") && output.contains("Permission denied"), output)
        XCTAssertFalse(output.contains("not-for-nobody"))
    }

    /// Under a seccomp filter that refuses add_key and keyctl (Docker's default does), unlock
    /// says the key is not cached and why, and the vault works through its slots.
    func testWithKeyctlRefusedBySeccompTheVaultStillWorks() throws {
        try requireTool("/usr/bin/keyctl")
        let check = try runProcess(Self.python, ["-c", "import seccomp"])
        try XCTSkipUnless(check.status == 0, "python3-seccomp is missing: run scripts/install-deps")
        // The filter really refuses keyctl.
        let probe = try runProcess(Self.python, [Self.scripts + "/no-keyctl.py", "/usr/bin/keyctl", "show", "@u"])
        XCTAssertNotEqual(probe.status, 0)
        XCTAssertTrue(String(decoding: probe.stderr, as: UTF8.self).contains("Operation not permitted"))
        let passphraseFile = try writeFile("passphrase", "seccomp-\(UUID().uuidString)\n")
        let withPassphrase = ["RIZQ_SECRETS_PASSPHRASE_FILE": passphraseFile, "RIZQ_TEST_NO_SYSTEMD": "1"]
        let filtered = [Self.scripts + "/no-keyctl.py", Self.child]
        func underFilter(_ arguments: [String], input: Data? = nil, _ extra: [String: String]) throws -> String {
            String(decoding: try runProcess(Self.python, filtered + arguments, input: input, environment: environment(extra)).stdout, as: UTF8.self)
        }
        XCTAssertEqual(try underFilter(["set", service, "a"], input: Data("works-without-keyctl".utf8), withPassphrase), "ok stored\n")
        let unlocked = try underFilter(["unlock", service, "600"], withPassphrase)
        XCTAssertTrue(unlocked.hasPrefix("ok unlocked source=passphrase cached=false keyring=- serial=0 failure=errno=1\n"), unlocked)
        XCTAssertTrue(unlocked.contains("not cached (") && unlocked.contains("refused here"), unlocked)
        XCTAssertEqual(try underFilter(["get", service, "a"], withPassphrase), "works-without-keyctl")
        let status = try underFilter(["status", service], withPassphrase)
        XCTAssertTrue(status.hasPrefix("kernel-keyring present=false usable=false"), status)
        // Without a passphrase there is nothing to unlock with; the message says the cache was refused.
        let locked = try underFilter(["get", service, "a"], ["RIZQ_TEST_NO_SYSTEMD": "1"])
        XCTAssertTrue(locked.hasPrefix("error noKeySource ") && locked.contains("Operation not permitted"), locked)
    }
}
