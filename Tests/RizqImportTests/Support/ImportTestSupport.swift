import Foundation
import XCTest
@_exported import RizqTestSupport
import RizqPrefs
import RizqSecrets
@testable import RizqImport

/// A fresh root for one test's suite files (removed afterwards, read-only flags included).
final class ImportRoot {
    let path: String
    let appID = "com.rizq.tests"

    init() {
        path = NSTemporaryDirectory() + "rizq-import-test-" + UUID().uuidString.prefix(8)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    var appFolder: String { path + "/apps/" + appID }
    var recordFile: String { appFolder + "/rizq-imports.json" }
    /// The record's earlier name, read and never written.
    var earlierRecordFile: String { appFolder + "/rizq-migrations.json" }

    func suiteFile(_ suite: String) -> String {
        suite.hasPrefix("group.") ? path + "/groups/\(suite).json" : appFolder + "/\(suite).json"
    }

    func store(_ suite: String) throws -> SuiteStore {
        try SuiteStore(suite: suite, appID: appID, root: path)
    }

    /// Every file under the root with its bytes: to show that nothing changed, byte for byte.
    func snapshot() -> [String: Data] {
        fileSnapshot(under: path)
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

    func options(dryRun: Bool = false, force: Bool = false, overwrite: Bool = false, suite: String? = nil, service: String? = nil) -> Importer.Options {
        Importer.Options(dryRun: dryRun, force: force, overwrite: overwrite, defaultSuite: suite, secretService: service, appID: appID, root: path)
    }
}

/// A service name no other test uses, and a cleaner that deletes its items afterwards.
final class TestService {
    let name: String
    let store: SecretServiceStore

    init(_ function: String = #function) {
        name = "org.rizq.tests.import.\(function.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString.prefix(8))"
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
    let repository = repositoryRoot()
    let folder = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/localstorage").path
    return FileManager.default.fileExists(atPath: folder) ? folder : nil
}

func requireCorpus() throws -> String {
    guard let folder = corpusFolder else { throw XCTSkip("../shared/corpus/localstorage is not present") }
    return folder
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

func writeFile(_ text: String, in root: ImportRoot, name: String = "dump.json") -> String {
    let path = root.path + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}
