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

    /// The time-out is each call's own, passed to the shim with every D-Bus call, connecting
    /// included (the process has not connected when the daemon freezes). A store whose caller
    /// waits 600 s gets its error from its own 0.5 s round trips; one with a 1 s time-out gets
    /// its own; the libsecret thread is then free, its round trip having ended by its own time-out
    /// (with GDBus's default, it would be held 25 s per round trip, past the 10 s looked for).
    func testTwoStoresWithDifferentTimeOutsOnAFrozenDaemonEachKeepTheirOwn() throws {
        let script = #"""
            printf 'before-freeze' | secret-tool store --label=timeouts service org.rizq.tests.timeouts account token
            exec "$RIZQ_CHILD" timeouts org.rizq.tests.timeouts "$RIZQ_KEYRING_PID"
            """#
        let output = try runInPrivateKeyring(script)
        let patient = "error " + SecretError.timedOut(seconds: 600).description
        XCTAssertEqual(stepLine("frozen-patient", in: output), "frozen-patient " + patient)
        XCTAssertEqual(stepLine("frozen-quick", in: output), "frozen-quick error " + SecretError.timedOut(seconds: 1).description)
        XCTAssertEqual(stepLine("worker-free", in: output), "worker-free true")
        XCTAssertEqual(stepLine("frozen-patient-again", in: output), "frozen-patient-again " + patient)
        XCTAssertEqual(stepLine("resumed", in: output), "resumed ok before-freeze")
        XCTAssertEqual(output.status, 0, output.stderr)
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
