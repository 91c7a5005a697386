import Foundation
import Synchronization
import XCTest
@testable import RizqSecrets

/// Against the real Secret Service (gnome-keyring in the private session scripts/test starts).
final class SecretServiceStoreTests: XCTestCase {
    override func setUpWithError() throws {
        _ = RecordingLogHandler.installed
        try requireSecretService()
    }

    func testStoreReadOverwriteDeleteAndListText() throws {
        let store = SecretServiceStore(service: uniqueService())
        XCTAssertNil(try store.secret(forAccount: "auth_token"), "missing is nil, not an error")
        try store.setSecret("first-token", forAccount: "auth_token", label: "RIZQ sign-in ✓")
        XCTAssertEqual(try store.secret(forAccount: "auth_token"), "first-token")
        try store.setSecret("second-token 🔑 مفتاح", forAccount: "auth_token")
        XCTAssertEqual(try store.secret(forAccount: "auth_token"), "second-token 🔑 مفتاح")
        try store.setSecret("r", forAccount: "refresh_token")
        XCTAssertEqual(try store.accounts(), ["auth_token", "refresh_token"], "overwrite keeps one item per account")
        XCTAssertTrue(try store.deleteSecret(forAccount: "auth_token"))
        XCTAssertFalse(try store.deleteSecret(forAccount: "auth_token"))
        XCTAssertNil(try store.secret(forAccount: "auth_token"))
        XCTAssertEqual(try store.accounts(), ["refresh_token"])
    }

    func testBinarySecretsKeepEveryByteIncludingNUL() throws {
        let store = SecretServiceStore(service: uniqueService())
        let bytes = Data([0, 1, 2, 0, 255, 0x80, 0]) + Data((0...255).map(UInt8.init))
        try store.setSecret(bytes, forAccount: "device_key")
        XCTAssertEqual(try store.secretData(forAccount: "device_key"), bytes)
        XCTAssertThrowsError(try store.secret(forAccount: "device_key")) { error in
            XCTAssertEqual(error as? SecretError, .notText)
        }
    }

    func testAsyncFormsAndTheSessionCollection() async throws {
        let store = SecretServiceStore(service: uniqueService(), collection: .session)
        try await store.setSecret("throw-away", forAccount: "scratch")
        let value = try await store.secret(forAccount: "scratch")
        XCTAssertEqual(value, "throw-away")
        let deleted = try await store.deleteSecret(forAccount: "scratch")
        XCTAssertTrue(deleted)
        let accounts = try await store.accounts()
        XCTAssertEqual(accounts, [])
    }

    func testSecretToolFindsWhatWeStoredAndWeFindWhatItStored() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service)
        try store.setSecret("ours-Ω", forAccount: "from_swift")
        let lookup = try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", "from_swift"])
        XCTAssertEqual(lookup.status, 0, lookup.stderr)
        XCTAssertEqual(lookup.stdout, "ours-Ω")

        // The secret goes in on stdin, never in the arguments.
        let stored = try runCommand("/usr/bin/secret-tool", ["store", "--label=from secret-tool", "service", service, "account", "from_tool"], input: "theirs-λ")
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertEqual(try store.secret(forAccount: "from_tool"), "theirs-λ")
        XCTAssertEqual(try store.accounts(), ["from_swift", "from_tool"])
        // Overwriting secret-tool's item replaces it rather than adding a second one.
        try store.setSecret("replaced", forAccount: "from_tool")
        XCTAssertEqual(try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", "from_tool"]).stdout, "replaced")
        let search = try runCommand("/usr/bin/secret-tool", ["search", "--all", "service", service, "account", "from_tool"])
        XCTAssertEqual(search.stdout.components(separatedBy: "[/").count - 1, 1, search.stdout)
    }

    func testEightConcurrentTasksOnDistinctAccounts() async throws {
        let store = SecretServiceStore(service: uniqueService(), timeout: 30)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<5 {
                        try await store.setSecret("task-\(task)-round-\(round)", forAccount: "account-\(task)")
                        let read = try await store.secret(forAccount: "account-\(task)")
                        let expected = "task-\(task)-round-\(round)"
                        XCTAssertEqual(read, expected)
                    }
                }
            }
            try await group.waitForAll()
        }
        for task in 0..<8 {
            let final = try await store.secret(forAccount: "account-\(task)")
            XCTAssertEqual(final, "task-\(task)-round-4")
        }
        let accounts = try await store.accounts()
        XCTAssertEqual(accounts.count, 8)
    }

    func testInvalidInputIsRefusedBeforeAnyCall() {
        let store = SecretServiceStore(service: uniqueService())
        XCTAssertThrowsError(try store.setSecret("x", forAccount: "nul\u{0}inside")) { error in
            guard case SecretError.invalidInput = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try SecretServiceStore(service: "").secret(forAccount: "a")) { error in
            guard case SecretError.invalidInput = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("service name is empty"))
        }
        XCTAssertThrowsError(try store.setSecret("x", forAccount: "a", label: "bad\u{0}label"))
    }

    /// The store says so before GLib would try to autolaunch a bus (which can wait on a
    /// process that never answers).
    func testWithNoSessionBusTheErrorSaysSo() throws {
        let child = productsFolder + "/rizq-secrets-test-child"
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        environment["XDG_RUNTIME_DIR"] = "/nonexistent"
        let unset = try runCommand(child, ["org.rizq.tests", "token"], environment: environment)
        XCTAssertTrue(unset.stdout.hasPrefix("error no D-Bus session bus"), unset.stdout + unset.stderr)

        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let nowhere = try runCommand(child, ["org.rizq.tests", "token"], environment: environment)
        XCTAssertTrue(nowhere.stdout.hasPrefix("error no D-Bus session bus"), nowhere.stdout + nowhere.stderr)
    }

    func testABusWithoutASecretServiceSaysSo() throws {
        // A private bus of our own with no provider (and no activation of one).
        let folder = NSTemporaryDirectory() + "rizq-emptybus-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/bus.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:path=\(folder)/bus</listen>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(config)", "--nofork"]
        try daemon.run()
        defer { daemon.terminate() }
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: folder + "/bus") })
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(folder)/bus"
        let output = try runCommand(productsFolder + "/rizq-secrets-test-child", ["org.rizq.tests", "token"], environment: environment)
        XCTAssertTrue(output.stdout.hasPrefix("error no Secret Service on the session bus"), output.stdout + output.stderr)
    }

    func testSecretsNeverAppearInLogsErrorsDescriptionsOrArguments() throws {
        let secret = "leak-canary-\(UUID().uuidString)"
        let store = SecretServiceStore(service: uniqueService())
        try store.setSecret(secret, forAccount: "auth_token")
        XCTAssertEqual(try store.secret(forAccount: "auth_token"), secret)
        var errors: [String] = []
        do { try store.setSecret(secret, forAccount: "") } catch { errors.append("\(error)"); errors.append(String(reflecting: error)) }
        do { try SecretServiceStore(service: "").setSecret(secret, forAccount: "x") } catch { errors.append("\(error)") }
        for text in errors + RecordingLogHandler.lines.withLock({ $0 }) + ["\(store)", String(reflecting: store)] {
            XCTAssertFalse(text.contains(secret), "the secret leaked into: \(text)")
        }
        let arguments = (try? String(contentsOfFile: "/proc/self/cmdline", encoding: .utf8)) ?? ""
        XCTAssertFalse(arguments.contains(secret))
        let memoryStore = InMemorySecretStore(service: "s")
        try memoryStore.setSecret(secret, forAccount: "a")
        XCTAssertFalse("\(memoryStore)".contains(secret))
        XCTAssertTrue(try store.deleteSecret(forAccount: "auth_token"))
    }
}
