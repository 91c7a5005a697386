import Foundation
import RizqTestSupport
import XCTest

/// No secret — a stored value, the passphrase, the vault's identity — in any argument list or
/// environment of any program the vault runs (strace of every execve), in any file on disk
/// (raw, base64, hex), or in an error message.
final class VaultLeakTests: VaultTestCase {
    func testNoSecretInArgumentListsFilesOrErrors() throws {
        try requireRoot()
        try requireTool("/usr/bin/strace")
        try requireTool("/usr/bin/systemd-creds")
        let secret = "s3cr3t-value-\(UUID().uuidString)"
        let passphrase = "pass-phrase-\(UUID().uuidString)"
        let passphraseFile = try writeFile("pp", passphrase + "\n")
        // The secret goes in from a file, not from the test's environment (strace -v prints
        // every environment, and the child would inherit it).
        let secretFile = try writeFile("input", secret)
        // The passphrase through a command (a program the vault runs) and the systemd-creds slot
        // (another), both slots made by the first store, then every operation that runs them.
        let sources = ["RIZQ_SECRETS_PASSPHRASE_COMMAND": "cat '\(passphraseFile)'", "SERVICE": service, "TRACE": scratch + "/trace", "INPUT": secretFile]
        let script = #"""
            set -e
            strace -f -qq -v -s 100000 -e trace=execve -o "$TRACE.1" "$CHILD" set "$SERVICE" account-one < "$INPUT"
            strace -f -qq -v -s 100000 -e trace=execve -o "$TRACE.2" "$CHILD" get "$SERVICE" account-one > "$TRACE.out"
            RIZQ_TEST_NO_SYSTEMD=1 RIZQ_TEST_NO_CACHE=1 strace -f -qq -v -s 100000 -e trace=execve -o "$TRACE.3" "$CHILD" get "$SERVICE" account-one >> "$TRACE.out"
            strace -f -qq -v -s 100000 -e trace=execve -o "$TRACE.4" "$CHILD" unlock "$SERVICE" 60
            strace -f -qq -v -s 100000 -e trace=execve -o "$TRACE.5" "$CHILD" lock "$SERVICE"
            """#
        let run = try runShell(script, environment: sources)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(try String(contentsOfFile: scratch + "/trace.out", encoding: .utf8), secret + secret)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/slots").sorted(), ["passphrase.age", "systemd.cred"])
        // The identity, to look for it too (recovered as root would).
        let identityFile = try runProcess("/usr/bin/systemd-creds", ["decrypt", "--name=rizq-prefs.\(service).identity", folder + "/slots/systemd.cred", "-"])
        let identity = try XCTUnwrap(String(decoding: identityFile.stdout, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("AGE-SECRET-KEY-1") }.map(String.init))
        let secrets = [secret, passphrase, identity, identity.lowercased()]

        var traced = Data()
        for index in 1...5 {
            let trace = try Data(contentsOf: URL(fileURLWithPath: scratch + "/trace.\(index)"))
            XCTAssertTrue(String(decoding: trace, as: UTF8.self).contains("execve("), "trace \(index) recorded")
            traced += trace
        }
        let text = String(decoding: traced, as: UTF8.self)
        XCTAssertTrue(text.contains(#"systemd-creds", "encrypt", "--name=rizq-prefs."#), "the trace saw systemd-creds encrypt")
        XCTAssertTrue(text.contains(#"systemd-creds", "decrypt""#), "the trace saw systemd-creds decrypt")
        XCTAssertTrue(text.contains(#"["/bin/sh", "-c", "cat '"#), "the trace saw the passphrase command")
        for value in secrets {
            for form in leakForms(of: value) { XCTAssertFalse(traced.contains(form), "an argument list or environment holds a secret") }
        }
        // Files: everything under the scratch folder but the passphrase file itself and the traces.
        let files = try FileManager.default.subpathsOfDirectory(atPath: scratch).filter { !$0.hasPrefix("trace") && $0 != "pp" && $0 != "input" }
        XCTAssertTrue(files.contains("secrets/\(service)/vault.age"))
        for name in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: scratch + "/" + name, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch + "/" + name))
            for value in secrets + ["account-one"] {
                for form in leakForms(of: value) { XCTAssertFalse(bytes.contains(form), "\(name) holds a secret") }
            }
        }
        // Errors: a wrong passphrase, a failing command, a damaged vault.
        let wrongPassphrase = "wr0ng-\(UUID().uuidString)"
        let wrong = try runChild(["get", service, "account-one"], environment: ["RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_SECRETS_PASSPHRASE_COMMAND": "echo '\(wrongPassphrase)'"])
        XCTAssertTrue(wrong.stdout.hasPrefix("error wrongPassphrase "), wrong.stdout)
        let failing = try runChild(["get", service, "account-one"], environment: ["RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_SECRETS_PASSPHRASE_COMMAND": "echo '\(wrongPassphrase)'; exit 3"])
        XCTAssertTrue(failing.stdout.hasPrefix("error keySourceFailed "), failing.stdout)
        var vault = try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age"))
        vault[vault.count - 3] ^= 1
        try vault.write(to: URL(fileURLWithPath: folder + "/vault.age"))
        let damaged = try runChild(["get", service, "account-one"], environment: ["RIZQ_TEST_NO_CACHE": "1"])
        XCTAssertTrue(damaged.stdout.hasPrefix("error damaged "), damaged.stdout)
        for output in [wrong, failing, damaged] {
            for value in secrets + [wrongPassphrase, "account-one"] {
                XCTAssertFalse((output.stdout + output.stderr).contains(value), "an error message holds a secret: \(output.stdout)")
            }
        }
    }
}
