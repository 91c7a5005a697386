import Foundation
import XCTest
@testable import RizqSecrets

/// libsecret is loaded at the first secret call, not linked: a program built with RizqSecrets
/// starts and runs where Debian's libsecret-1-0 is not installed, and there the Secret Service
/// is unavailable, with the fix in the error.
final class LibsecretAbsentTests: XCTestCase {
    func testWithoutLibsecretAProgramStartsItsSecretCallsAreUnavailableAndItsPreferencesWork() throws {
        let home = NSTemporaryDirectory() + "rizq-no-libsecret-home-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = home
        // A session bus address, so that the calls get as far as loading libsecret.
        environment["DBUS_SESSION_BUS_ADDRESS"] = environment["DBUS_SESSION_BUS_ADDRESS"] ?? "unix:path=/nonexistent/bus"
        let service = uniqueService()
        let output = try runWithoutLibsecret(productsFolder + "/rizq-secrets-test-child", ["unavailable", service, "token"], environment: environment)

        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.stdout.split(separator: "\n").first, "started", output.stdout + output.stderr)
        let unavailable = "libsecretMissing libsecret is not installed: libsecret-1.so.0 cannot be loaded "
            + "(libsecret-1.so.0: cannot open shared object file: No such file or directory); "
            + "install it with `apt-get install libsecret-1-0`"
        for step in ["read", "store", "accounts"] {
            XCTAssertEqual(stepLine(step, in: output), "\(step) \(unavailable)")
        }
        XCTAssertEqual(stepLine("prefs", in: output), "prefs 42")
        let suite = try String(contentsOfFile: home + "/apps/com.rizq.tests.unavailable/com.rizq.tests.unavailable.json", encoding: .utf8)
        XCTAssertTrue(suite.contains("\"answer\""), suite)

        // The same child where libsecret is: it loads, and the test session's service answers.
        try requireSecretService()
        let present = try runCommand(productsFolder + "/rizq-secrets-test-child", ["unavailable", service, "token"], environment: environment)
        XCTAssertEqual(stepLine("read", in: present), "read no error")
        XCTAssertEqual(stepLine("store", in: present), "store no error")
        try checked("/usr/bin/secret-tool", ["clear", "service", service])
    }
}
