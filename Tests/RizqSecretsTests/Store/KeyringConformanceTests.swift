import Foundation
import XCTest
@testable import RizqSecrets

/// What Python keyring's own backend tests (`keyring.testing.backend.BackendBasicTests`) ask of a
/// backend, asked of ours: against the real Secret Service (`SecretServiceStore`), and of
/// `InMemorySecretStore`, which must behave the same for apps' tests. A keyring "service" is
/// our store's service, a keyring "username" our account.
final class KeyringConformanceTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    /// Both stores, each for `service`.
    private func stores(service: String) -> [(name: String, store: any SecretStore)] {
        [("SecretServiceStore", SecretServiceStore(service: service)), ("InMemorySecretStore", InMemorySecretStore(service: service))]
    }

    /// keyring's `check_set_get`: absent, then the password, then the empty password.
    private func checkSetGet(service: String, account: String, password: String, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        for (name, store) in stores(service: service) {
            let context = "\(name), seed \(seed): service \(service.debugDescription), account \(account.debugDescription)"
            XCTAssertNil(try store.secret(forAccount: account), context, file: file, line: line)
            try store.setSecret(password, forAccount: account)
            XCTAssertEqual(try store.secret(forAccount: account), password, context, file: file, line: line)
            try store.setSecret("", forAccount: account)
            XCTAssertEqual(try store.secret(forAccount: account), "", "the empty password: \(context)", file: file, line: line)
            XCTAssertEqual(try store.secretData(forAccount: account), Data(), context, file: file, line: line)
            XCTAssertTrue(try store.deleteSecret(forAccount: account), context, file: file, line: line)
        }
    }

    func testPasswordSetGet() throws {
        var text = KeyringText(seed: 1)
        try checkSetGet(service: "org.rizq.tests." + text.string(), account: text.string(), password: text.string(), seed: 1)
    }

    func testDifficultCharacters() throws {
        for seed: UInt64 in 2...6 {
            var text = KeyringText(seed: seed)
            let (password, account) = (text.string(from: KeyringText.difficult), text.string(from: KeyringText.difficult))
            try checkSetGet(service: text.string(from: KeyringText.difficult), account: account, password: password, seed: seed)
        }
    }

    func testUnicodeCharacters() throws {
        var text = KeyringText(seed: 7)
        let (password, account) = (text.string(from: KeyringText.unicode), text.string(from: KeyringText.unicode))
        try checkSetGet(service: text.string(from: KeyringText.unicode), account: account, password: password, seed: 7)
    }

    func testUnicodeAndASCIICharacters() throws {
        for seed: UInt64 in 8...10 {
            var text = KeyringText(seed: seed)
            let (password, account) = (text.mixed(), text.mixed())
            try checkSetGet(service: text.mixed(), account: account, password: password, seed: seed)
        }
    }

    func testSetAfterSetBlank() throws {
        for (name, store) in stores(service: uniqueService()) {
            try store.setSecret("", forAccount: "user")
            try store.setSecret("non-blank", forAccount: "user")
            XCTAssertEqual(try store.secret(forAccount: "user"), "non-blank", name)
            XCTAssertEqual(try store.accounts(), ["user"], "one item, replaced: \(name)")
        }
    }

    func testDeletePresentAndNotPresent() throws {
        var text = KeyringText(seed: 11)
        let service = text.string(from: KeyringText.difficult)
        let account = text.string(from: KeyringText.difficult)
        for (name, store) in stores(service: service) {
            try store.setSecret(text.string(from: KeyringText.difficult), forAccount: account)
            XCTAssertTrue(try store.deleteSecret(forAccount: account), name)
            XCTAssertNil(try store.secret(forAccount: account), name)
            // keyring raises PasswordDeleteError; ours says false, and a missing item is no error.
            XCTAssertFalse(try store.deleteSecret(forAccount: account), name)
        }
    }

    func testDeleteOneInGroup() throws {
        var text = KeyringText(seed: 12)
        let service = text.string(from: KeyringText.difficult)
        let (first, second) = (text.string(from: KeyringText.difficult), text.string(from: KeyringText.difficult))
        let password = text.string(from: KeyringText.difficult)
        for (name, store) in stores(service: service) {
            try store.setSecret(password, forAccount: first)
            try store.setSecret(password, forAccount: second)
            XCTAssertTrue(try store.deleteSecret(forAccount: first), name)
            XCTAssertEqual(try store.secret(forAccount: second), password, name)
            XCTAssertTrue(try store.deleteSecret(forAccount: second), name)
        }
    }

    func testDifferentUsersAndServices() throws {
        let (serviceOne, serviceTwo) = (uniqueService("one"), uniqueService("two"))
        for ((name, one), (_, two)) in zip(stores(service: serviceOne), stores(service: serviceTwo)) {
            try one.setSecret("password1", forAccount: "user1")
            try one.setSecret("password2", forAccount: "user2")
            XCTAssertEqual(try one.secret(forAccount: "user1"), "password1", name)
            XCTAssertEqual(try one.secret(forAccount: "user2"), "password2", name)
            try two.setSecret("password3", forAccount: "user3")
            try two.setSecret("other service", forAccount: "user1")
            XCTAssertEqual(try one.secret(forAccount: "user1"), "password1", "another service's item of the same account: \(name)")
            XCTAssertNil(try one.secret(forAccount: "user3"), name)
            XCTAssertEqual(try one.accounts(), ["user1", "user2"], name)
            XCTAssertEqual(try two.accounts(), ["user1", "user3"], name)
        }
    }

    func testEmptyAccount() throws {
        for (name, store) in stores(service: uniqueService()) {
            XCTAssertNil(try store.secret(forAccount: ""), name)
            try store.setSecret("password1", forAccount: "")
            XCTAssertEqual(try store.secret(forAccount: ""), "password1", name)
            try store.setSecret("not the empty account", forAccount: "a")
            XCTAssertEqual(try store.accounts(), ["", "a"], name)
            XCTAssertTrue(try store.deleteSecret(forAccount: ""), name)
            XCTAssertEqual(try store.secret(forAccount: "a"), "not the empty account", name)
        }
    }

    func testEmptyAccountIsFoundBySecretTool() throws {
        let service = uniqueService()
        try SecretServiceStore(service: service).setSecret("for the empty account", forAccount: "")
        let lookup = try runCommand("/usr/bin/secret-tool", ["lookup", "service", service, "account", ""])
        XCTAssertEqual(lookup.status, 0, lookup.stderr)
        XCTAssertEqual(lookup.stdout, "for the empty account")
    }

    func testWrongAccountReturnsNil() throws {
        for (name, store) in stores(service: uniqueService()) {
            try store.setSecret("password1", forAccount: "user1")
            try store.setSecret("password2", forAccount: "user2")
            XCTAssertEqual(try store.secret(forAccount: "user1"), "password1", name)
            XCTAssertEqual(try store.secret(forAccount: "user2"), "password2", name)
            XCTAssertNil(try store.secret(forAccount: "nobody!"), name)
        }
    }

    func testANulInANameIsStillRefused() {
        for (name, store) in stores(service: uniqueService()) {
            XCTAssertThrowsError(try store.setSecret("x", forAccount: "nul\u{0}inside"), name) { error in
                guard case SecretError.invalidInput = error else { return XCTFail("\(name): \(error)") }
            }
        }
        XCTAssertThrowsError(try SecretServiceStore(service: "nul\u{0}service").secret(forAccount: "a")) { error in
            guard case SecretError.invalidInput = error else { return XCTFail("\(error)") }
        }
    }
}
