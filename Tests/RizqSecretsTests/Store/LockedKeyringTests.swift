import Foundation
import XCTest
@testable import RizqSecrets

/// A locked keyring: the "locked" error, no prompt, nothing written anywhere else.
///
/// Runs in a throw-away keyring session: gnome-keyring unlocks only through a prompt or at
/// start-up, so locking the shared test keyring could not be undone.
final class LockedKeyringTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    func testLockedKeyringGivesTheLockedErrorAndWritesNothingElsewhere() throws {
        let secret = "while-locked-\(UUID().uuidString)"
        var leaks: [String] = ["(not inspected)"]
        let output = try runInPrivateKeyring(#"exec "$RIZQ_CHILD" locked org.rizq.tests.locked"#, input: secret) { scratch in
            leaks = filesContaining(secret, under: scratch)
        }

        XCTAssertEqual(stepLine("store-existing", in: output), "store-existing ok ()")
        XCTAssertEqual(stepLine("locked", in: output), "locked ok true")
        XCTAssertTrue(stepLine("store-new", in: output).hasPrefix("store-new error the keyring is locked"), stepLine("store-new", in: output))
        XCTAssertTrue(stepLine("store-new", in: output).contains("unlock"), "the message says what to do")
        XCTAssertTrue(stepLine("read-existing", in: output).hasPrefix("read-existing error the keyring is locked"), stepLine("read-existing", in: output))
        // The existing item is found (locked) and neither replaced, nor deleted, nor duplicated.
        for step in ["store-over-existing", "delete-existing"] {
            XCTAssertTrue(stepLine(step, in: output).hasPrefix("\(step) error the keyring is locked"), stepLine(step, in: output))
        }
        // Names stay listable while locked; values do not.
        XCTAssertEqual(stepLine("accounts", in: output), "accounts ok existing")
        // Allowed to prompt but with no display: "dismissed", not a hang.
        XCTAssertEqual(stepLine("read-prompting", in: output), "read-prompting error \(SecretError.promptDismissed)")
        // No fallback wrote the secret anywhere: not under the child's HOME, its prefs root, its
        // temporary folder, nor in its output.
        XCTAssertEqual(leaks, [])
        XCTAssertFalse(output.stdout.contains(secret) || output.stderr.contains(secret))
    }
}
