import Foundation
import RizqTestSupport
import XCTest

/// What the vault tests share: a private temporary root per test, the test child, the scripts.
class VaultTestCase: XCTestCase {
    /// A folder of this test's own, removed afterwards.
    var scratch = ""
    /// The vaults' root (`RIZQ_SECRETS_DIR`) inside it.
    var root: String { scratch + "/secrets" }
    /// A service name no other test uses (the kernel keyring is shared by the uid's processes).
    var service = ""

    static let child = productsFolder + "/rizq-vault-test-child"
    static let scripts = repositoryRoot().appendingPathComponent("Tests/RizqVaultTests/Scripts").path
    static let python = "/usr/bin/python3"

    override func setUpWithError() throws {
        // /tmp is searchable by every uid, so that `runuser -u nobody` tests reach the folder
        // and are refused by its own mode, not by the scratch folder's.
        scratch = "/tmp/rizq-vault-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        service = "org.rizq.tests.vault.\(UUID().uuidString.prefix(8).lowercased())"
    }

    override func tearDownWithError() throws {
        // Cached keys of this test's vault go too (they would expire anyway).
        _ = try? runChild(["lock", service])
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// The environment the child gets: PATH and HOME, the root, and `extra` (no passphrase
    /// source unless given).
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": scratch, "RIZQ_SECRETS_DIR": root]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs the test child; `input` on its stdin (the secret), output as text.
    @discardableResult
    func runChild(_ arguments: [String], input: Data? = nil, environment extra: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(Self.child, arguments, input: input, environment: environment(extra))
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    /// Runs a shell script with the child's environment; `$CHILD` is the child, `$SCRIPTS` the scripts.
    @discardableResult
    func runShell(_ script: String, input: Data? = nil, environment extra: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        var extra = extra
        extra["CHILD"] = Self.child
        extra["SCRIPTS"] = Self.scripts
        let result = try runProcess("/bin/sh", ["-c", script], input: input, environment: environment(extra))
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    /// Writes `text` to a new file of the scratch folder, 0600; returns its path.
    func writeFile(_ name: String, _ text: String) throws -> String {
        let path = scratch + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    /// The vault folder of this test's service.
    var folder: String { root + "/" + service }

    func requireRoot() throws {
        try XCTSkipUnless(geteuid() == 0, "needs root (systemd-creds' host key, runuser); the test machines run as root")
    }

    func requireTool(_ path: String) throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run scripts/install-deps")
    }

    /// Every file and folder under `path`, with its mode.
    func modes(under path: String) throws -> [String: Int] {
        var result: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + relative)
            result[relative] = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        return result
    }
}

extension Data {
    /// Whether `needle` occurs in these bytes.
    func contains(_ needle: Data) -> Bool { !needle.isEmpty && range(of: needle) != nil }
}
