import Foundation
import XCTest
@testable import RizqSecrets

/// Issue 18, item 2 (secrets): a real gnome-keyring frozen (SIGSTOP), locked, and killed in the
/// middle of a call, each in a throw-away keyring session: each a typed error, no hang, and the
/// secret in no error, log line (at trace level), argument list, environment or file. Large
/// and binary secrets round-trip.
final class SecretFaultTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    func testFrozenLockedAndKilledDaemonsGiveTypedErrorsAndTheSecretLeaksNowhere() throws {
        let secret = "fault-canary-\(UUID().uuidString)"
        var leaks: [String] = ["(not inspected)"]
        let output = try runInPrivateKeyring(#"exec timeout 120 "$RIZQ_CHILD" faults org.rizq.tests.faults "$RIZQ_KEYRING_PID""#, input: secret) { scratch in
            leaks = filesContaining(secret, under: scratch)
        }
        let timedOut = "error " + SecretError.timedOut(seconds: 1).description
        XCTAssertEqual(stepLine("store-existing", in: output), "store-existing ok ()")
        XCTAssertEqual(stepLine("frozen-store", in: output), "frozen-store " + timedOut)
        XCTAssertEqual(stepLine("argv-leaks", in: output), "argv-leaks 0", "no process holds the secret in its arguments or environment")
        XCTAssertEqual(stepLine("frozen-read", in: output), "frozen-read " + timedOut)
        // Once the daemon answers, calls work again; the write that timed out may or may not have landed.
        XCTAssertTrue(["resumed-read ok the secret", "resumed-read ok nothing"].contains(stepLine("resumed-read", in: output)), stepLine("resumed-read", in: output))
        XCTAssertTrue(stepLine("locked-store", in: output).hasPrefix("locked-store error the keyring is locked"), stepLine("locked-store", in: output))
        XCTAssertTrue(stepLine("locked-read", in: output).hasPrefix("locked-read error the keyring is locked"), stepLine("locked-read", in: output))
        XCTAssertEqual(stepLine("killed-timeout", in: output), "killed-timeout " + timedOut)
        // After the kill D-Bus starts a new daemon, whose keyring nobody unlocked: typed errors, no
        // hang. (The first call may still get the dead daemon's "no reply", reported as a time-out.)
        let next = stepLine("killed-next", in: output)
        XCTAssertTrue(["the keyring is locked", "no Secret Service", "the Secret Service did not answer"].contains { next.hasPrefix("killed-next error " + $0) }, next)
        let again = stepLine("killed-again", in: output)
        XCTAssertTrue(["the keyring is locked", "no Secret Service"].contains { again.hasPrefix("killed-again error " + $0) }, again)
        XCTAssertEqual(output.status, 0, output.stderr)

        // Trace-level log lines were written (the test would prove nothing otherwise), none with the secret.
        XCTAssertTrue(output.stderr.contains("log debug RizqSecrets: stored a secret"), output.stderr)
        XCTAssertFalse(output.stderr.contains(secret), "a log line or error holds the secret")
        XCTAssertFalse(output.stdout.contains(secret), "an error holds the secret")
        XCTAssertEqual(leaks, [], "a file holds the secret")
    }

    func testAOneMebibyteSecretAndSecretsWithNULBytesRoundTrip() throws {
        let store = SecretServiceStore(service: uniqueService())
        var generator = SystemRandomNumberGenerator()
        var bytes = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        bytes[0] = 0
        bytes[bytes.count - 1] = 0
        try store.setSecret(bytes, forAccount: "one_mebibyte")
        XCTAssertEqual(try store.secretData(forAccount: "one_mebibyte"), bytes)
        let text = "nul\u{0}inside\u{0}and at the end\u{0}"
        try store.setSecret(text, forAccount: "text_with_nul")
        XCTAssertEqual(try store.secret(forAccount: "text_with_nul"), text)
        XCTAssertEqual(try store.secretData(forAccount: "text_with_nul"), Data(text.utf8))
        XCTAssertEqual(try store.accounts(), ["one_mebibyte", "text_with_nul"])
        for account in try store.accounts() { XCTAssertTrue(try store.deleteSecret(forAccount: account)) }
    }

    func testAHundredMebibyteSecretIsRefusedClearlyAndTheLargestAllowedOneRoundTrips() throws {
        // The session collection: kept in the daemon's memory, not rewritten to disk.
        let store = SecretServiceStore(service: uniqueService(), collection: .session, timeout: 120)
        for size in [100 << 20, SecretServiceStore.maximumSecretSize + 1] {
            XCTAssertThrowsError(try store.setSecret(Data(repeating: 0x41, count: size), forAccount: "huge")) { error in
                guard case .invalidInput(let reason)? = error as? SecretError else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("more than the 32 MiB a secret may hold"), reason)
            }
            XCTAssertThrowsError(try InMemorySecretStore(service: "s").setSecret(Data(count: size), forAccount: "huge"), "the same rule in memory")
        }
        XCTAssertEqual(try store.accounts(), [])
        // The largest allowed secret is stored and read back, and the store keeps working.
        let random = try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/urandom"))
        let largest = random.readData(ofLength: SecretServiceStore.maximumSecretSize)
        XCTAssertEqual(largest.count, SecretServiceStore.maximumSecretSize)
        try store.setSecret(largest, forAccount: "largest")
        XCTAssertEqual(try store.secretData(forAccount: "largest"), largest)
        XCTAssertTrue(try store.deleteSecret(forAccount: "largest"))
        try store.setSecret("small", forAccount: "after")
        XCTAssertEqual(try store.secret(forAccount: "after"), "small")
        XCTAssertTrue(try store.deleteSecret(forAccount: "after"))
    }
}
