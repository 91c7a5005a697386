import Foundation
import XCTest
@testable import RizqSecrets

/// The Secret Service of a real KeePassXC (Debian 12's 2.7.4, headless), started by
/// `scripts/with-keepassxc`: what works through `SecretServiceStore` and the chain, and the
/// interop with `secret-tool`. Skipped outside that script (scripts/test-secret-providers runs it there).
final class KeePassXCTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["RIZQ_KEEPASSXC_PID"] == nil, "runs under scripts/with-keepassxc (scripts/test-secret-providers does)")
    }

    func testOurOwnItemsStoreReadListReplaceAndDeleteTextAndBinary() throws {
        let store = SecretServiceStore(service: uniqueService(), timeout: 10)
        let token = "kpxc-\(UUID().uuidString)"
        let binary = Data([0x61, 0, 0x62, 0x01, 0xFF, 0xFE, 0x80, 0])
        try store.setSecret(token, forAccount: "auth_token")
        try store.setSecret(binary, forAccount: "device_key")
        XCTAssertEqual(try store.secret(forAccount: "auth_token"), token)
        XCTAssertEqual(try store.secretData(forAccount: "device_key"), binary, "NUL and 0xFF bytes kept")
        XCTAssertEqual(try store.accounts(), ["auth_token", "device_key"])
        // A process replaces the items it made itself (KeePassXC 2.7.4 asks nothing for those).
        try store.setSecret("replaced", forAccount: "auth_token")
        XCTAssertEqual(try store.secret(forAccount: "auth_token"), "replaced")
        XCTAssertTrue(try store.deleteSecret(forAccount: "auth_token"))
        XCTAssertFalse(try store.deleteSecret(forAccount: "auth_token"))
        XCTAssertNil(try store.secret(forAccount: "auth_token"))
        XCTAssertEqual(try store.accounts(), ["device_key"])
        XCTAssertTrue(try store.deleteSecret(forAccount: "device_key"))
    }

    func testSecretToolFindsWhatWeStoreAndWeReadAndDeleteWhatItStores() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service, timeout: 10)
        try store.setSecret("from-swift", forAccount: "ours")
        XCTAssertEqual(try checked("/usr/bin/secret-tool", ["lookup", "service", service, "account", "ours"]), "from-swift")
        try checked("/usr/bin/secret-tool", ["store", "--label=theirs", "service", service, "account", "theirs"], input: "from-secret-tool")
        XCTAssertEqual(try store.secret(forAccount: "theirs"), "from-secret-tool")
        XCTAssertEqual(try store.accounts(), ["ours", "theirs"])
        XCTAssertTrue(try store.deleteSecret(forAccount: "theirs"), "an item another process made can be deleted")
        XCTAssertNotEqual(try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", "theirs"]).status, 0)
        XCTAssertTrue(try store.deleteSecret(forAccount: "ours"))
    }

    /// KeePassXC 2.7.4 opens an access dialog, which nobody answers headless, when a client
    /// *re-creates* an item another client made (`CreateItem` with replace, what `secret-tool
    /// store` does: keepassxreboot/keepassxc#9255, fixed in 2.7.6). This store replaces an
    /// existing item's secret in place (`Item.SetSecret`), which KeePassXC allows: it works.
    func testReplacingAnItemAnotherProcessMadeWorksInPlace() throws {
        let service = uniqueService()
        try checked("/usr/bin/secret-tool", ["store", "--label=theirs", "service", service, "account", "shared"], input: "first")
        let store = SecretServiceStore(service: service, timeout: 5)
        try store.setSecret("second", forAccount: "shared")
        XCTAssertEqual(try checked("/usr/bin/secret-tool", ["lookup", "service", service, "account", "shared"]), "second")
        XCTAssertEqual(try runCommand("/usr/bin/secret-tool", ["search", "--all", "service", service]).stdout.components(separatedBy: "\n").filter { $0.hasPrefix("[/") }.count, 1, "replaced, not duplicated")
        XCTAssertTrue(try store.deleteSecret(forAccount: "shared"))
    }

    /// The chain on a session whose Secret Service is KeePassXC: the automatic write target.
    func testTheChainChoosesKeePassXCAndRemembersIt() throws {
        let service = uniqueService()
        let root = NSTemporaryDirectory() + "rizq-kpxc-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_SECRETS_DIR"] = root
        environment["RIZQ_SECRETS_CONFIG"] = root + "/secrets.json"
        let chain = ChainedSecretStore(service: service, configuration: SecretStoreConfiguration(environment: environment))
        XCTAssertEqual(try chain.writeTarget().backend, .secretService)
        try chain.setSecret("via-the-chain", forAccount: "token")
        XCTAssertEqual(try checked("/usr/bin/secret-tool", ["lookup", "service", service, "account", "token"]), "via-the-chain")
        XCTAssertEqual(try chain.secret(forAccount: "token"), "via-the-chain")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + service + "/backend.json"), "remembered")
        XCTAssertTrue(try chain.deleteSecret(forAccount: "token"))
    }
}

/// KeePassXC frozen or locked: typed errors, never "not found", never a hang. Each test in a
/// KeePassXC of its own (scripts/test-secret-providers runs the lock in a session of its own: a locked
/// database can only be unlocked through its dialog).
final class KeePassXCFaultTests: XCTestCase {
    private var pid: pid_t = 0

    override func setUpWithError() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["RIZQ_KEEPASSXC_PID"], let pid = pid_t(text) else {
            throw XCTSkip("runs under scripts/with-keepassxc (scripts/test-secret-providers does)")
        }
        self.pid = pid
    }

    func testAFrozenKeePassXCGivesTheTimeOutErrorAndAnswersAgainWhenResumed() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service, timeout: 2)
        try store.setSecret("before", forAccount: "token")
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        XCTAssertThrowsError(try store.secret(forAccount: "token")) { XCTAssertEqual($0 as? SecretError, .timedOut(seconds: 2)) }
        XCTAssertThrowsError(try store.setSecret("during", forAccount: "token")) { XCTAssertEqual($0 as? SecretError, .timedOut(seconds: 2)) }
        kill(pid, SIGCONT)
        XCTAssertEqual(try SecretServiceStore(service: service, timeout: 10).secret(forAccount: "token"), "before")
    }

    /// Locked, KeePassXC's search lists none of its items (neither unlocked nor locked):
    /// `secret-tool lookup` says nothing (exit 1, as for a missing item), where this store, which
    /// reads the keyring's `Locked` property after an empty search, says "locked" — for a read, a
    /// listing and a delete; a store of a new account is refused at once (no unlock dialog
    /// waited for).
    func testALockedDatabaseIsLockedNotMissing() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service, timeout: 5)
        try store.setSecret("kept", forAccount: "token")
        let environment = ProcessInfo.processInfo.environment
        var lockEnvironment = environment
        lockEnvironment["TMPDIR"] = environment["RIZQ_KEEPASSXC_TMPDIR"]
        let lock = try runCommand("/usr/bin/keepassxc", ["--config", environment["RIZQ_KEEPASSXC_CONFIG"] ?? "", "--lock"], environment: lockEnvironment)
        XCTAssertEqual(lock.status, 0, lock.stderr)
        let collection = environment["RIZQ_KEEPASSXC_COLLECTION"] ?? ""
        XCTAssertTrue(eventually {
            (try? runCommand("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.secrets", collection,
                "org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.Secret.Collection", "string:Locked"]).stdout.contains("boolean true")) == true
        }, "KeePassXC locked its collection")
        XCTAssertEqual(try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", "token"]).status, 1, "secret-tool cannot tell")
        XCTAssertThrowsError(try store.secret(forAccount: "token")) { error in
            guard case .locked = error as? SecretError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try store.setSecret("new", forAccount: "other")) { error in
            guard case .locked = error as? SecretError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try store.accounts()) { error in
            guard case .locked = error as? SecretError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try store.deleteSecret(forAccount: "token")) { error in
            guard case .locked = error as? SecretError else { return XCTFail("\(error)") }
        }
    }
}
