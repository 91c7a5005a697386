import Foundation
import XCTest
@testable import RizqSecrets

/// A frozen or restarted Secret Service daemon, each in a throw-away keyring session.
final class DaemonFailureTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    func testAFrozenDaemonGivesTheTimeOutErrorAndCallsWorkAgainWhenItResumes() throws {
        let output = try runInPrivateKeyring(#"exec "$RIZQ_CHILD" frozen org.rizq.tests.frozen "$RIZQ_KEYRING_PID""#)
        XCTAssertEqual(stepLine("store", in: output), "store ok ()")
        let frozen = stepLine("read-frozen", in: output)
        XCTAssertTrue(frozen.hasPrefix("read-frozen error the Secret Service did not answer within 1.0 s"), frozen)
        XCTAssertTrue(frozen.contains("restart"), "the message says what to do: \(frozen)")
        XCTAssertEqual(stepLine("read-resumed", in: output), "read-resumed ok before-freeze")
    }

    /// A D-Bus round trip that times out inside the shim (GDBus's `timed-out`) is a time-out for
    /// the caller too, not an unexplained failure: the caller here would wait 600 s, so only the
    /// shim's 0.5 s round trip can have timed out.
    func testARoundTripThatTimesOutInTheShimIsATimeOut() throws {
        let output = try runInPrivateKeyring(#"exec "$RIZQ_CHILD" frozen org.rizq.tests.roundtrip "$RIZQ_KEYRING_PID""#)
        let line = stepLine("read-round-trip-timed-out", in: output)
        XCTAssertTrue(line.hasPrefix("read-round-trip-timed-out error the Secret Service did not answer within 600.0 s"), line)
        XCTAssertEqual(stepLine("read-resumed", in: output), "read-resumed ok before-freeze")
    }

    func testAfterADaemonRestartTheStoreReconnectsByItself() throws {
        // Kill the daemon, start a new one on the same keyring file (unlocked with the password).
        let script = #"""
            export RIZQ_RESTART_COMMAND="kill $RIZQ_KEYRING_PID; while kill -0 $RIZQ_KEYRING_PID 2>/dev/null; do sleep 0.05; done; $RIZQ_START_KEYRING"
            exec "$RIZQ_CHILD" restart org.rizq.tests.restart
            """#
        let output = try runInPrivateKeyring(script)
        XCTAssertEqual(stepLine("store", in: output), "store ok ()")
        XCTAssertEqual(stepLine("restarted", in: output), "restarted 0")
        XCTAssertEqual(stepLine("read-after-restart", in: output), "read-after-restart ok before-restart")
        XCTAssertEqual(stepLine("store-after-restart", in: output), "store-after-restart ok ()")
        XCTAssertEqual(stepLine("read-again", in: output), "read-again ok after-restart")
    }
}
