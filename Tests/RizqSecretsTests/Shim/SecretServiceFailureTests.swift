import CSecretShim
import XCTest
@testable import RizqSecrets

/// How the shim's reports are sorted. The real daemon tests (DaemonFailureTests,
/// LockedKeyringTests) reach these through GLib; these check the rules that decide between
/// them, and the reading of the shim's C struct.
final class SecretServiceFailureTests: XCTestCase {
    /// The shim passes a GError's domain and number; the nickname comes from GIO's numbering.
    func testTheShimsErrorStructIsReadByItsNames() {
        var raw = rizq_secret_error()
        raw.code = 24
        fill(&raw.domain, "g-io-error-quark")
        fill(&raw.message, "Timeout was reached")
        let error = GLibError(raw)
        XCTAssertEqual(error, GLibError(domain: "g-io-error-quark", code: 24, codeName: "timed-out", message: "Timeout was reached"))
        XCTAssertEqual(SecretServiceFailure(status: .failed, error: error), .timedOut)

        var remote = rizq_secret_error()
        remote.code = 36
        fill(&remote.domain, "g-io-error-quark")
        fill(&remote.dbus_name, "org.freedesktop.Secret.Error.IsLocked")
        XCTAssertEqual(GLibError(remote).codeName, "dbus-error")
        XCTAssertEqual(SecretServiceFailure(status: .failed, error: GLibError(remote)), .locked)
    }

    func testEveryKindOfTimeOutIsATimeOut() {
        for error in [
            GLibError(domain: "g-io-error-quark", codeName: "timed-out"),
            GLibError(domain: "g-dbus-error-quark", codeName: "no-reply"),
            GLibError(domain: "g-dbus-error-quark", codeName: "timed-out"),
            GLibError(domain: "g-dbus-error-quark", codeName: "timeout"),
            GLibError(domain: "g-io-error-quark", codeName: "dbus-error", dbusName: "org.freedesktop.DBus.Error.NoReply"),
        ] {
            XCTAssertEqual(SecretServiceFailure(error), .timedOut, "\(error)")
            XCTAssertEqual(SecretServiceFailure(error).secretError(detail: "", alias: "default", timeout: 2), .timedOut(seconds: 2))
        }
    }

    /// The service's reply names the error: its name decides, whatever local code GLib gave it.
    func testAReplysDBusErrorNameDecidesAlone() {
        let locked = GLibError(domain: "g-io-error-quark", codeName: "dbus-error", dbusName: "org.freedesktop.Secret.Error.IsLocked")
        XCTAssertEqual(SecretServiceFailure(locked), .locked)
        let unknown = GLibError(domain: "g-io-error-quark", codeName: "timed-out", dbusName: "org.example.Error.Odd")
        XCTAssertEqual(SecretServiceFailure(unknown), .other)
    }

    /// A failed session opening is an unusable session unless its error names something else (a
    /// time-out, a lost connection): a new connection retries an unusable session twice, a lost
    /// one once, and nothing else.
    func testAFailedSessionOpeningIsAnUnusableSessionUnlessItsErrorSaysOtherwise() {
        XCTAssertEqual(ShimStatus(RIZQ_SECRET_NO_SESSION), .noSession)
        let refused = GLibError(domain: "g-io-error-quark", codeName: "dbus-error", dbusName: "org.freedesktop.DBus.Error.InvalidArgs",
                                message: "Client public key size is invalid")
        XCTAssertEqual(SecretServiceFailure(status: .noSession, error: refused), .sessionRefused)
        XCTAssertEqual(SecretServiceFailure(status: .failed, error: refused), .other, "only the session's opening makes it one")
        XCTAssertEqual(SecretServiceFailure(status: .noSession, error: GLibError(domain: "g-io-error-quark", codeName: "timed-out")), .timedOut)
        XCTAssertEqual(SecretServiceSession.reconnections(after: .sessionRefused), 2)
        XCTAssertEqual(SecretServiceSession.reconnections(after: .disconnected), 1)
        XCTAssertEqual(SecretServiceSession.reconnections(after: .locked), 0)
        guard case .failed(let detail) = SecretServiceFailure.sessionRefused.secretError(detail: "Client public key size is invalid", alias: "default", timeout: 5)
        else { return XCTFail("not .failed") }
        XCTAssertTrue(detail.contains("Client public key size is invalid") && detail.contains("try again"), detail)
    }

    func testAnAutolaunchFailureMeansNoSessionBusAndOtherFailuresDoNot() {
        let autolaunch = GLibError(domain: "g-io-error-quark", codeName: "failed", message: "Cannot autolaunch D-Bus without X11 $DISPLAY")
        XCTAssertEqual(SecretServiceFailure(autolaunch), .noSessionBus)
        XCTAssertEqual(SecretServiceFailure(GLibError(domain: "g-io-error-quark", codeName: "failed", message: "Something else")), .other)
    }

    /// The loader's statuses need no GLib error, and their message says what to install.
    func testTheLoadersStatusesSayWhatToInstall() {
        let none = GLibError(domain: "", codeName: "")
        XCTAssertEqual(ShimStatus(RIZQ_SECRET_NO_LIBRARY), .noLibrary)
        XCTAssertEqual(SecretServiceFailure(status: .noLibrary, error: none), .libsecretMissing)
        XCTAssertEqual(SecretServiceFailure(status: .noSymbol, error: none), .libsecretTooOld)
        let missing = SecretServiceFailure.libsecretMissing.secretError(
            detail: "libsecret-1.so.0: cannot open shared object file: No such file or directory", alias: "default", timeout: 5)
        guard case .libsecretMissing(let detail) = missing else { return XCTFail("\(missing)") }
        XCTAssertTrue(detail.hasPrefix("libsecret is not installed: libsecret-1.so.0 cannot be loaded"), detail)
        XCTAssertTrue(detail.hasSuffix("install it with `apt-get install libsecret-1-0`"), detail)
        // The message is the loader's finding and its fix: nothing about the bus or starting a keyring.
        XCTAssertEqual(missing.description, detail)
        XCTAssertFalse(SecretError.serviceUnavailable(detail: "x").description.contains("libsecret"))
        XCTAssertEqual(SecretServiceFailure.noCollection.secretError(detail: "", alias: "session", timeout: 5), .noCollection(alias: "session"))
    }

    /// Copies `text` and its NUL into a fixed-size C array of the struct.
    private func fill<Storage>(_ storage: inout Storage, _ text: String) {
        withUnsafeMutableBytes(of: &storage) { target in
            let bytes = Array(text.utf8) + [0]
            target.copyBytes(from: bytes.prefix(target.count))
        }
    }
}
