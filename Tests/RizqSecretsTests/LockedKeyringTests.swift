import Foundation
import XCTest
@testable import RizqSecrets

/// A locked keyring: the "locked" error, no prompt, nothing written anywhere else.
///
/// Runs in a throw-away D-Bus session with its own gnome-keyring (locking the shared test
/// keyring could not be undone: gnome-keyring only unlocks through a prompt or at start-up).
final class LockedKeyringTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    func testLockedKeyringGivesTheLockedErrorAndWritesNothingElsewhere() throws {
        let scratch = NSTemporaryDirectory() + "rizq-locked-\(UUID().uuidString.prefix(8))"
        for folder in ["home", "runtime", "prefs"] {
            try FileManager.default.createDirectory(atPath: scratch + "/" + folder, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        chmod(scratch + "/runtime", 0o700)

        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = scratch + "/home"
        environment["XDG_RUNTIME_DIR"] = scratch + "/runtime"
        environment["XDG_CONFIG_HOME"] = scratch + "/home/.config"
        environment["XDG_DATA_HOME"] = scratch + "/home/.local/share"
        environment["RIZQ_PREFS_HOME"] = scratch + "/prefs"
        environment["TMPDIR"] = scratch
        environment["RIZQ_CHILD"] = productsFolder + "/rizq-secrets-test-child"
        let script = """
            printf 'locked-test' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
            for _ in $(seq 1 100); do
                dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true && break
                sleep 0.05
            done
            exec "$RIZQ_CHILD" locked org.rizq.tests.locked
            """
        let secret = "while-locked-\(UUID().uuidString)"
        let output = try runCommand("/usr/bin/dbus-run-session", ["--", "/bin/bash", "-c", script], input: secret, environment: environment)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        func line(_ step: String) -> String { lines.first { $0.hasPrefix(step + " ") } ?? "(no \(step) line)\n\(output.stdout)\n\(output.stderr)" }

        XCTAssertEqual(line("store-existing"), "store-existing ok ()")
        XCTAssertEqual(line("locked"), "locked ok true")
        XCTAssertTrue(line("store-new").hasPrefix("store-new error the keyring is locked"), line("store-new"))
        XCTAssertTrue(line("store-new").contains("unlock"), "the message says what to do")
        XCTAssertTrue(line("read-existing").hasPrefix("read-existing error the keyring is locked"), line("read-existing"))
        // Names stay listable while locked; values do not.
        XCTAssertEqual(line("accounts"), "accounts ok existing")
        // No fallback wrote the secret anywhere: not under the child's HOME, its prefs root, its
        // temporary folder, nor in its output.
        XCTAssertEqual(filesContaining(secret, under: scratch), [])
        XCTAssertFalse(output.stdout.contains(secret) || output.stderr.contains(secret))
    }

    private func filesContaining(_ needle: String, under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var hits: [String] = []
        for case let relative as String in walker {
            let path = folder + "/" + relative
            if let data = FileManager.default.contents(atPath: path), data.range(of: Data(needle.utf8)) != nil {
                hits.append(path)
            }
        }
        return hits
    }
}
