import Foundation
import XCTest

/// Issue 18, failure 2: an import whose secret write times out on a frozen gnome-keyring (a
/// real one, stopped with SIGSTOP, in a throw-away keyring session) treats that write as
/// possibly done: the rollback removes it too, and the error names every account whose state it
/// could not settle. The import itself runs in the secrets test child (Faults.swift), which
/// freezes the daemon just before the second secret's write.
final class FrozenImportRollbackTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    private func runFrozenImport(_ mode: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try runInPrivateKeyring(#"exec timeout 300 "$RIZQ_CHILD" import-frozen org.rizq.tests.frozenimport "$RIZQ_KEYRING_PID" "# + mode)
    }

    /// The daemon answers again while the import rolls back: nothing imported remains, the
    /// secret whose write timed out included.
    func testADaemonThatAnswersAgainDuringTheRollbackKeepsNothingImported() throws {
        let output = try runFrozenImport("resume")
        XCTAssertEqual(stepLine("frozen", in: output), "frozen before writing refresh_token")
        XCTAssertEqual(stepLine("resumed", in: output), "resumed at the rollback")
        let error = stepLine("error", in: output)
        XCTAssertTrue(error.contains("did not answer within 1.0 s"), error)
        XCTAssertTrue(error.contains("nothing was imported: the suites are as they were and the 2 secret(s) written were removed"), error)
        XCTAssertEqual(stepLine("unknown", in: output), "unknown ")
        XCTAssertEqual(stepLine("remaining", in: output), "remaining ok ", "a secret of the import is still in the keyring")
        XCTAssertEqual(stepLine("suite-keys", in: output), "suite-keys ")
    }

    /// The daemon stays frozen through the rollback: the error names both accounts as unknown
    /// (the one written, and the one whose write timed out), promptly, without a hang.
    func testADaemonFrozenThroughTheRollbackGivesAnErrorNamingEveryUnknownAccount() throws {
        let output = try runFrozenImport("stay")
        XCTAssertEqual(stepLine("frozen", in: output), "frozen before writing refresh_token")
        let error = stepLine("error", in: output)
        XCTAssertTrue(error.contains("the rollback is INCOMPLETE"), error)
        XCTAssertTrue(error.contains("account refresh_token: its write timed out, so it may have been stored, and it could not be removed (no answer within 1.0 s)"), error)
        XCTAssertTrue(error.contains("account auth_token: it could not be removed"), error)
        XCTAssertTrue(error.contains("the state of refresh_token (service org.rizq.tests.frozenimport), auth_token (service org.rizq.tests.frozenimport) is unknown"), error)
        XCTAssertTrue(error.contains("rizq-prefs secret list --service org.rizq.tests.frozenimport"), error)
        XCTAssertEqual(stepLine("unknown", in: output), "unknown refresh_token,auth_token")
        // Whatever the daemon did with the calls it got while frozen, the error named it: every
        // account left in the keyring once it answers again is one of those called unknown.
        let remaining = stepLine("remaining", in: output)
        XCTAssertTrue(remaining.hasPrefix("remaining ok "), remaining)
        let left = Set(remaining.dropFirst("remaining ok ".count).split(separator: ",").map(String.init))
        XCTAssertTrue(left.isSubset(of: ["refresh_token", "auth_token"]), remaining)
        XCTAssertEqual(stepLine("suite-keys", in: output), "suite-keys ")
        XCTAssertFalse(output.stdout.contains("eyJ"), "no token in the error")
    }
}
