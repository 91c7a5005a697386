import Foundation
import Synchronization
import XCTest
@testable import RizqSecrets

/// The chain keeps its own state (the remembered write target, a move's journal) without a
/// vault among its backends, at the paths earlier releases wrote them: what an existing install
/// has on disk is still honoured.
final class ChainStateTests: XCTestCase {
    private var root = ""
    private var environment: [String: String] = [:]

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "rizq-chain-state-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment = [
            "HOME": root, "RIZQ_SECRETS_DIR": root + "/secrets", "XDG_CONFIG_HOME": root + "/config",
            "XDG_DATA_HOME": root + "/data", "XDG_STATE_HOME": root + "/state",
        ]
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Writes `text` at `<root>/secrets/<service>/<name>` as an earlier release did: folders
    /// 0700, the file 0600.
    private func leave(_ text: String, named name: String, service: String) throws -> String {
        let folder = root + "/secrets/" + service
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: root + "/secrets")
        let path = folder + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    func testAChainWithNoVaultHonoursTheWriteTargetAnEarlierReleaseRemembered() throws {
        let service = uniqueService()
        let path = try leave(
            #"{"backend":"secret-service","chosen":"2026-11-26T10:00:00Z","reason":"the Secret Service answered on the session bus"}"#,
            named: "backend.json", service: service)
        var configuration = SecretStoreConfiguration(environment: environment)
        configuration.registry = SecretBackendRegistry(entries: SecretBackendRegistry.standard.entries.filter { $0.name != .vault })
        let chain = ChainedSecretStore(service: service, configuration: configuration)
        XCTAssertNil(chain.vault)
        XCTAssertNil(chain.backend(named: .vault))

        let target = try chain.writeTarget()
        XCTAssertEqual(target.backend, .secretService)
        XCTAssertEqual(target.origin, .remembered)
        XCTAssertTrue(target.reason.contains("remembered in \(path)"), target.reason)

        XCTAssertTrue(try chain.forgetWriteTarget())
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertFalse(try chain.forgetWriteTarget())
    }

    func testAChainWithNoVaultFinishesAMoveAnEarlierReleaseLeftHalfDone() throws {
        let service = uniqueService()
        let source = MemoryBackend(name: "memory-a", service: service)
        let destination = MemoryBackend(name: "memory-b", service: service)
        for account in ["one", "three", "two"] {
            try source.storeSecret(Data("secret-\(account)".utf8), isText: true, forAccount: account, label: nil)
        }
        // Copied, read back and recorded; killed before the delete from the source.
        try destination.storeSecret(Data("secret-one".utf8), isText: true, forAccount: "one", label: nil)
        let journal = try leave(
            #"{"accounts":["one","three","two"],"deleteSource":true,"from":"memory-a","to":"memory-b"}"# + "\n" + #"{"copied":"one"}"# + "\n",
            named: "migration.journal", service: service)

        let chain = ChainedSecretStore(service: service, backends: [source, destination], configuration: SecretStoreConfiguration(environment: environment))
        XCTAssertNil(chain.vault)
        // A move between other backends is refused while that one is unfinished.
        XCTAssertThrowsError(try chain.move(from: "memory-b", to: "memory-a")) { error in
            XCTAssertTrue("\(error)".contains("a move from memory-a to memory-b was interrupted"), "\(error)")
        }
        let report = try chain.move(from: "memory-a", to: "memory-b", deleteSource: true)
        XCTAssertTrue(report.resumed)
        XCTAssertEqual(report.items.map(\.account), ["one", "three", "two"])
        XCTAssertEqual(try destination.accounts(), ["one", "three", "two"])
        for account in ["one", "three", "two"] {
            XCTAssertEqual(try destination.secretBytes(forAccount: account), Data("secret-\(account)".utf8))
        }
        XCTAssertEqual(try source.accounts(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal))
        // The destination is remembered, beside where the journal was.
        let marker = try String(contentsOfFile: root + "/secrets/" + service + "/backend.json", encoding: .utf8)
        XCTAssertTrue(marker.contains(#""backend":"memory-b""#), marker)
    }
}

/// A backend in memory: a chain made of such backends has no vault.
private final class MemoryBackend: SecretBackend {
    let name: SecretBackendName
    private let store: InMemorySecretStore

    init(name: SecretBackendName, service: String) {
        self.name = name
        store = InMemorySecretStore(service: service)
    }

    var service: String { store.service }
    var isWritable: Bool { true }

    func probe() -> SecretBackendStatus {
        SecretBackendStatus(backend: name, isAvailable: true, reason: "in memory", isWritable: true, persistence: .process, protections: [])
    }

    func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try store.storeSecret(bytes, isText: isText, forAccount: account, label: label)
    }

    func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try store.secretBytes(forAccount: account)
    }

    func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        try store.deleteSecret(forAccount: account)
    }

    func accounts() throws(SecretError) -> [String] {
        try store.accounts()
    }
}
