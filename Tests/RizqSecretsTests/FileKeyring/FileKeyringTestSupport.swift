import Foundation
import XCTest
@testable import RizqSecrets

/// What the file-keyring tests share: the vectors, libsecret's own tool as the oracle, and
/// temporary keyrings.
enum FileKeyringFixtures {
    /// The folder of the vectors (written by libsecret 0.20.5, and v6 and v7 by the research
    /// codec then read back by libsecret; see each `.expected.json`).
    static var folder: URL {
        repositoryRoot().appendingPathComponent("Tests/RizqSecretsTests/FileKeyring/Fixtures")
    }

    /// The bytes of vector `name` (`v7-python-deterministic`).
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name + ".keyring")))
    }

    /// The decoded `.expected.json` of vector `name`.
    static func expected(_ name: String) throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: folder.appendingPathComponent(name + ".expected.json")))
    }

    /// A vector's `.expected.json`: what the research codec read from it.
    struct Expected: Decodable {
        struct Item: Decodable {
            var hashed_attribute_names: [String]
            var secret_hex: String?
            var attributes: [String: String]?
            var label: String?
            var created: UInt64?
            var modified: UInt64?
        }
        var salt_hex: String
        var iterations: UInt32
        var modified: UInt64
        var usage_count: UInt32
        var key_hex: String
        var items: [Item]
    }

    /// A copy of vector `name` at `path`, 0600 (as libsecret writes them).
    static func install(_ name: String, at path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(try bytes(name)).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }
}

/// Bytes from hex ("00ff…").
func bytes(hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
        result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return result
}

/// Hex of bytes.
func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// A temporary folder for one test's keyring, removed at the end of the test.
func temporaryKeyringFolder(_ test: XCTestCase) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rizq-file-keyring-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
    return folder
}

/// libsecret's `secret-tool` on the file keyring at `path` with `password`: its file backend,
/// as libsecret's own tests drive it (`SECRET_BACKEND=file`, `SECRET_FILE_TEST_PATH`,
/// `SECRET_FILE_TEST_PASSWORD`).
@discardableResult
func secretTool(_ arguments: [String], path: String, password: String, input: Data? = nil) throws -> (status: Int32, stdout: Data, stderr: String) {
    var environment = ProcessInfo.processInfo.environment
    environment["SECRET_BACKEND"] = "file"
    environment["SECRET_FILE_TEST_PATH"] = path
    environment["SECRET_FILE_TEST_PASSWORD"] = password
    let result = try runProcess("/usr/bin/secret-tool", arguments, input: input ?? Data(), environment: environment)
    return (result.status, result.stdout, String(decoding: result.stderr, as: UTF8.self))
}

/// A store over the keyring at `path` with `password`, outside any sandbox.
func fileKeyringStore(_ path: String, password: String, service: String = "S") -> FileKeyringStore {
    FileKeyringStore(
        service: service, location: FileKeyringLocation(path: path), sandbox: nil, password: Array(password.utf8))
}

/// The file's bytes and its stamp (to show that a refused write left it exactly as it was).
func snapshot(_ path: String) throws -> (bytes: Data, modified: Date?, inode: Int?) {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (try Data(contentsOf: URL(fileURLWithPath: path)), attributes[.modificationDate] as? Date, attributes[.systemFileNumber] as? Int)
}

/// Writes `bytes` as the keyring at `path`, 0600 (a file others could read is refused before its
/// contents are looked at).
func writeKeyring(_ bytes: Data, to path: String) throws {
    try bytes.write(to: URL(fileURLWithPath: path))
    chmod(path, 0o600)
}

/// The error `body` threw, `nil` when it threw none.
func thrown(_ body: () throws(SecretError) -> Void) -> SecretError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// What each operation of `store` threw on `account` (a store is of another account, "new"):
/// `read`, `store`, `delete`, `accounts`.
func operationErrors(_ store: FileKeyringStore, account: String) -> [(operation: String, error: SecretError?)] {
    [
        ("read", thrown { () throws(SecretError) in _ = try store.secretData(forAccount: account) }),
        ("store", thrown { () throws(SecretError) in try store.setSecret("new", forAccount: "new") }),
        ("delete", thrown { () throws(SecretError) in _ = try store.deleteSecret(forAccount: account) }),
        ("accounts", thrown { () throws(SecretError) in _ = try store.accounts() }),
    ]
}
