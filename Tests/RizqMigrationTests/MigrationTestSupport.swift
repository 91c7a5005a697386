import Foundation
import XCTest
@_exported import RizqTestSupport
import RizqPrefs
import RizqSecrets
@testable import RizqMigration

/// A fresh root for one test's suite files (removed afterwards, read-only flags included).
final class MigrationRoot {
    let path: String
    let appID = "com.rizq.tests"

    init() {
        path = NSTemporaryDirectory() + "rizq-migration-test-" + UUID().uuidString.prefix(8)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    var appFolder: String { path + "/apps/" + appID }
    var recordFile: String { appFolder + "/rizq-migrations.json" }

    func suiteFile(_ suite: String) -> String {
        suite.hasPrefix("group.") ? path + "/groups/\(suite).json" : appFolder + "/\(suite).json"
    }

    func store(_ suite: String) throws -> SuiteStore {
        try SuiteStore(suite: suite, appID: appID, root: path)
    }

    /// Every file under the root with its bytes: to show that nothing changed, byte for byte.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: path) else { return files }
        for case let relative as String in walker {
            var isFolder: ObjCBool = false
            let full = path + "/" + relative
            // Lock files are empty and hidden; they are the store's, not the user's data.
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue,
                !relative.hasSuffix(".lock")
            else { continue }
            files[relative] = FileManager.default.contents(atPath: full) ?? Data()
        }
        return files
    }

    /// The suite file parsed with Foundation's reader, as an independent check.
    func fileObject(_ suite: String) throws -> [String: Any] {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: suiteFile(suite)), "no file for suite \(suite)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The names of files under the root whose bytes contain `needle` (never the needle itself,
    /// so that a failure message cannot print a credential).
    func filesContaining(_ needle: String) -> [String] {
        RizqTestSupport.filesContaining(needle, under: path)
    }

    func options(dryRun: Bool = false, force: Bool = false, overwrite: Bool = false, suite: String? = nil, service: String? = nil) -> LocalStorageImporter.Options {
        LocalStorageImporter.Options(dryRun: dryRun, force: force, overwrite: overwrite, defaultSuite: suite, secretService: service, appID: appID, root: path)
    }
}

/// A service name no other test uses, and a cleaner that deletes its items afterwards.
final class TestService {
    let name: String
    let store: SecretServiceStore

    init(_ function: String = #function) {
        name = "org.rizq.tests.migration.\(function.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString.prefix(8))"
        store = SecretServiceStore(service: name)
    }

    deinit {
        for account in (try? store.accounts()) ?? [] { _ = try? store.deleteSecret(forAccount: account) }
    }

    func secret(_ account: String) throws -> String? {
        try store.secret(forAccount: account)
    }
}

/// The shared corpus of real dumps (../shared/corpus/localstorage), or `nil` when absent.
var corpusFolder: String? {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let folder = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/localstorage").path
    return FileManager.default.fileExists(atPath: folder) ? folder : nil
}

func requireCorpus() throws -> String {
    guard let folder = corpusFolder else { throw XCTSkip("../shared/corpus/localstorage is not present") }
    return folder
}

/// Fake credentials, made at run time so that nothing token-shaped is committed (and secret
/// scanners have nothing to flag). Each call gives a new random value.
enum FakeToken {
    static func randomText(_ count: Int, alphabet: String = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") -> String {
        let characters = Array(alphabet)
        return String((0..<count).map { _ in characters[Int.random(in: 0..<characters.count)] })
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A JWT with a JSON header and payload and a random (invalid) signature.
    static func jwt(subject: String = "user-1") -> String {
        let header = base64URL(#"{"alg":"HS256","typ":"JWT"}"#)
        let payload = base64URL(#"{"sub":"\#(subject)","exp":1700000000,"n":"\#(randomText(8))"}"#)
        return header + "." + payload + "." + randomText(43, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    }

    /// A five-part JWE (RSA-OAEP / A256GCM header, random parts).
    static func jwe() -> String {
        let header = base64URL(#"{"alg":"RSA-OAEP","enc":"A256GCM"}"#)
        return [header, randomText(342), randomText(16), randomText(600), randomText(22)].joined(separator: ".")
    }

    static func googleAccess() -> String { "ya" + "29." + randomText(60) }
    static func github() -> String { "gh" + "p_" + randomText(36) }
    static func awsKeyID() -> String { "AK" + "IA" + randomText(16, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") }
    static func stripe() -> String { "sk_" + "live_" + randomText(24) }
    static func opaque() -> String { randomText(40) }

    /// A Supabase SSR cookie-style value: `base64-` and base64 of a session JSON.
    static func base64Session() -> String {
        "base64-" + Data(#"{"access_token":"\#(jwt())","refresh_token":"\#(opaque())"}"#.utf8).base64EncodedString()
    }
}

/// The JSON text of a string, as `JSON.stringify` would write it.
func jsonString(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
}

/// A flat dump file (`JSON.stringify(localStorage)` shape) from pairs, in order.
func flatDumpJSON(_ pairs: [(String, String)]) -> String {
    "{" + pairs.map { jsonString($0.0) + ":" + jsonString($0.1) }.joined(separator: ",") + "}"
}

func writeFile(_ text: String, in root: MigrationRoot, name: String = "dump.json") -> String {
    let path = root.path + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}
