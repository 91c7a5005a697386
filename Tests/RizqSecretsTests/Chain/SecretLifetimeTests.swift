import Foundation
import Glibc
import RizqCore
import XCTest
@testable import RizqSecrets

/// Issue 49, item 3: a secret's expiry and refresh token, kept by every writable backend,
/// never served once expired, told apart from a missing one by `readSecret`, carried by a move.
/// Each backend is checked where another program would look: libsecret's `secret-tool` for the
/// Secret Service and the file keyring, a second store on the same files for the vault and the
/// plain-text file (the CLI's tests decrypt the vault with `age`).
final class SecretLifetimeTests: XCTestCase {
    private var scratch = ""

    override func setUpWithError() throws {
        scratch = NSTemporaryDirectory() + "rizq-lifetime-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    private let later = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01T00:00:00Z
    private let past = Date(timeIntervalSince1970: 1_000_000_000)

    /// The same steps against one backend: `reopen` makes a second store on the same storage,
    /// so that what is read back comes from what was kept, not from memory.
    private func checkKeepsLifetimes(_ store: any SecretStore, reopen: () -> any SecretStore, file: StaticString = #filePath, line: UInt = #line) throws {
        let lifetime = SecretLifetime(expires: later, refreshToken: "refresh-\(UUID().uuidString)")
        try store.setSecret("access-1", forAccount: "token", lifetime: lifetime)
        XCTAssertEqual(try reopen().readSecret(forAccount: "token"), .found(Data("access-1".utf8), lifetime: lifetime), file: file, line: line)
        XCTAssertEqual(try reopen().secret(forAccount: "token"), "access-1", file: file, line: line)

        // Expired: never served, told apart from missing, the refresh token handed back.
        let expired = SecretLifetime(expires: past, refreshToken: "refresh-2")
        try store.setSecret("access-2", forAccount: "token", lifetime: expired)
        XCTAssertNil(try reopen().secret(forAccount: "token"), "an expired secret is not served", file: file, line: line)
        XCTAssertNil(try reopen().secretData(forAccount: "token"), file: file, line: line)
        XCTAssertEqual(try reopen().readSecret(forAccount: "token"), .expired(expired), file: file, line: line)
        XCTAssertEqual(try reopen().accounts(), ["token"], "an expired secret is still listed", file: file, line: line)

        // Stored again without one: the lifetime goes with the old secret.
        try store.setSecret("access-3", forAccount: "token")
        XCTAssertEqual(try reopen().readSecret(forAccount: "token"), .found(Data("access-3".utf8), lifetime: nil), file: file, line: line)

        // An expiry alone, then a refresh token alone.
        try store.setSecret("access-4", forAccount: "token", lifetime: SecretLifetime(expires: later))
        XCTAssertEqual(try reopen().readSecret(forAccount: "token"), .found(Data("access-4".utf8), lifetime: SecretLifetime(expires: later)), file: file, line: line)
        try store.setSecret("access-5", forAccount: "token", lifetime: SecretLifetime(refreshToken: "only-refresh"))
        XCTAssertEqual(
            try reopen().readSecret(forAccount: "token"), .found(Data("access-5".utf8), lifetime: SecretLifetime(refreshToken: "only-refresh")),
            file: file, line: line)
        XCTAssertNil(try reopen().readSecret(forAccount: "missing"), file: file, line: line)

        // Refused before anything is written.
        let refused = SecretLifetime(expires: later, refreshToken: "bad\u{0}token")
        XCTAssertThrowsError(try store.setSecret("access-6", forAccount: "token", lifetime: refused), file: file, line: line) { error in
            guard case .invalidInput(let reason)? = error as? SecretError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertTrue(reason.contains("refresh token contains a NUL byte"), reason, file: file, line: line)
        }
        XCTAssertEqual(try reopen().secret(forAccount: "token"), "access-5", file: file, line: line)

        // Deleting the account deletes its refresh token too.
        XCTAssertTrue(try store.deleteSecret(forAccount: "token"), file: file, line: line)
        XCTAssertNil(try reopen().readSecret(forAccount: "token"), file: file, line: line)
    }

    func testTheVaultKeepsLifetimesInsideItsEncryptedItems() throws {
        let service = uniqueService()
        func vault() -> VaultSecretStore {
            let configuration = VaultConfiguration(
                root: scratch + "/secrets", passphraseSources: [.file(passphrase)], usesSystemdCredentials: false, usesKeyringCache: false,
                scryptWorkFactor: 15, stateFolder: scratch + "/state")
            return VaultSecretStore(service: service, configuration: configuration)
        }
        let passphrase = scratch + "/passphrase"
        try Data("a passphrase for the lifetime test\n".utf8).write(to: URL(fileURLWithPath: passphrase))
        chmod(passphrase, 0o600)
        try checkKeepsLifetimes(vault(), reopen: vault)
    }

    func testThePlainTextFileKeepsLifetimes() throws {
        let service = uniqueService()
        let root = scratch + "/secrets"
        try checkKeepsLifetimes(PlaintextSecretStore(service: service, root: root), reopen: { PlaintextSecretStore(service: service, root: root) })
        // The file says it in words a person can check.
        try PlaintextSecretStore(service: service, root: root).setSecret("x", forAccount: "t", lifetime: SecretLifetime(expires: later, refreshToken: "r"))
        let text = try String(contentsOfFile: PlaintextSecretStore(service: service, root: root).path, encoding: .utf8)
        XCTAssertTrue(text.contains("\"expires\":\"2100-01-01T00:00:00.000Z\""), text)
        XCTAssertTrue(text.contains("\"refreshToken\":\"r\""), text)
    }

    func testTheFileKeyringKeepsThemAsLibsecretSeesThem() throws {
        let path = scratch + "/keyrings/default.keyring"
        try checkKeepsLifetimes(fileKeyringStore(path, password: "pw"), reopen: { fileKeyringStore(path, password: "pw") })
        try fileKeyringStore(path, password: "pw").setSecret("libsecret-reads-this", forAccount: "t", lifetime: SecretLifetime(expires: later, refreshToken: "r-token"))
        let found = try secretTool(["search", "--all", "service", "S", "account", "t"], path: path, password: "pw")
        XCTAssertEqual(found.status, 0, found.stderr)
        let output = String(decoding: found.stdout, as: UTF8.self) + found.stderr
        XCTAssertTrue(output.contains("attribute.password_expiry_utc = 4102444800"), output)
        XCTAssertTrue(output.contains("attribute.oauth_refresh_token = r-token"), output)
        XCTAssertTrue(output.contains("secret = libsecret-reads-this"), output)
        // Listings of the item never show the refresh token.
        let info = try XCTUnwrap(fileKeyringStore(path, password: "pw").itemInfo(forAccount: "t"))
        XCTAssertEqual(info.expires, later)
        XCTAssertNil(info.attributes["oauth_refresh_token"])
    }

    func testTheSecretServiceKeepsTheExpiryAsAnAttributeAndTheRefreshTokenAsAnItem() throws {
        try requireSecretService()
        let service = uniqueService()
        try checkKeepsLifetimes(SecretServiceStore(service: service), reopen: { SecretServiceStore(service: service) })
        try SecretServiceStore(service: service).setSecret("ss-access", forAccount: "t", lifetime: SecretLifetime(expires: later, refreshToken: "ss-refresh"))
        let found = try runProcess("/usr/bin/secret-tool", ["search", "--all", "service", service, "account", "t"])
        let output = String(decoding: found.stdout, as: UTF8.self) + String(decoding: found.stderr, as: UTF8.self)
        XCTAssertEqual(found.status, 0, output)
        XCTAssertTrue(output.contains("attribute.password_expiry_utc = 4102444800"), output)
        XCTAssertTrue(output.contains("secret = ss-access"), output)
        XCTAssertFalse(output.contains("ss-refresh"), "the refresh token is not one of the account's attributes: \(output)")
        let token = try runProcess("/usr/bin/secret-tool", ["lookup", "refresh_token_service", service, "refresh_token_account", "t"])
        XCTAssertEqual(String(decoding: token.stdout, as: UTF8.self), "ss-refresh")
        // The refresh token's item is not an account of the service.
        XCTAssertEqual(try SecretServiceStore(service: service).accounts(), ["t"])
        XCTAssertTrue(try SecretServiceStore(service: service).deleteSecret(forAccount: "t"))
        XCTAssertNotEqual(try runProcess("/usr/bin/secret-tool", ["lookup", "refresh_token_service", service, "refresh_token_account", "t"]).status, 0)
    }

    func testInMemoryStoresKeepThemAndOtherStoresRefuseThem() throws {
        let memory = InMemorySecretStore(service: "S")
        try checkKeepsLifetimes(memory, reopen: { memory })
        // Credential folders keep none, and are read-only anyway.
        let folder = CredentialDirectoryStore(service: "S", directories: [.init(path: scratch, origin: "the test")])
        XCTAssertThrowsError(try folder.setSecret("x", forAccount: "t", lifetime: SecretLifetime(expires: later)))
    }

    /// The chain serves the first copy that is served: an expired one earlier in the order does
    /// not hide a live one later, and is what `readSecret` reports when it is the only one.
    func testTheChainSkipsAnExpiredCopyAndMovesLifetimes() throws {
        let service = uniqueService()
        let first = fileKeyringStore(scratch + "/keyrings/default.keyring", password: "pw", service: service)
        let second = PlaintextSecretStore(service: service, root: scratch + "/second")
        let chain = ChainedSecretStore(
            service: service, backends: [first, second], configuration: SecretStoreConfiguration(environment: ["RIZQ_SECRETS_DIR": scratch + "/state"]))
        try first.setSecret("stale", forAccount: "token", lifetime: SecretLifetime(expires: past, refreshToken: "r1"))
        XCTAssertNil(try chain.secret(forAccount: "token"))
        XCTAssertEqual(try chain.readSecret(forAccount: "token"), .expired(SecretLifetime(expires: past, refreshToken: "r1")))
        try second.setSecret("live", forAccount: "token", lifetime: SecretLifetime(expires: later))
        XCTAssertEqual(try chain.secret(forAccount: "token"), "live")
        XCTAssertEqual(try chain.readSecret(forAccount: "token"), .found(Data("live".utf8), lifetime: SecretLifetime(expires: later)))

        // The chain writes with a lifetime to its write target (the first writable backend).
        try chain.setSecret("written", forAccount: "other", lifetime: SecretLifetime(expires: later, refreshToken: "r2"))
        XCTAssertEqual(try first.readSecret(forAccount: "other"), .found(Data("written".utf8), lifetime: SecretLifetime(expires: later, refreshToken: "r2")))

        // A move carries the lifetime; an expired secret is not served, so not moved.
        let report = try chain.move(from: .fileKeyring, to: .plaintext, deleteSource: false, overwrite: true)
        XCTAssertEqual(
            try second.readSecret(forAccount: "other"), .found(Data("written".utf8), lifetime: SecretLifetime(expires: later, refreshToken: "r2")),
            "\(report)")
        XCTAssertEqual(try second.secret(forAccount: "token"), "live", "the expired copy did not replace the live one")
    }
}
