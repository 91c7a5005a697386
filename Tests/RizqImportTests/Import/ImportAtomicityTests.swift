import Foundation
import XCTest
import RizqPrefs
import RizqSecrets
@testable import RizqImport

/// All or nothing: a failure after the secrets and during the suite writes leaves every suite
/// byte for byte as it was, removes the secrets written, and records nothing.
final class ImportAtomicityTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    /// A plan over three suites: the app's (exists), a new one (created by the import), and a
    /// group suite that exists, in that order; plus three secrets, one of which replaces an
    /// existing item (with overwrite).
    private struct Scenario {
        let root = ImportRoot()
        let service = TestService()
        let tokens = [FakeToken.jwt(), FakeToken.opaque(), FakeToken.jwe()]
        let previousSecret = FakeToken.opaque()
        let plan: ImportPlan
        let dump: ImportDump

        init() throws {
            plan = ImportPlan(id: "atomic", defaultSuite: "com.rizq.tests", secretService: service.name, rules: [
                .key("activity", to: .suite("com.rizq.tests.activity", type: .json)),
                .key("shared_flag", to: .suite("group.com.rizq.tests.shared", type: .bool)),
                .key("widget_theme", to: .suite("group.com.rizq.tests.shared", type: .string)),
                .key("session", to: .secret(account: "session")),
            ])
            dump = ImportDump(pairs: [
                ("theme_mode", "dark"), ("current_streak", "9"), ("activity", #"{"days":[1,2,3]}"#),
                ("shared_flag", "true"), ("widget_theme", "dark"),
                ("access_token", tokens[0]), ("refresh_token", tokens[1]), ("session", tokens[2]),
            ])
            // What is there before the import: hand-formatted files, so that only a byte copy
            // can restore them, and an existing secret the import replaces.
            try FileManager.default.createDirectory(atPath: root.appFolder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: root.suiteFile("com.rizq.tests"), contents: Data("{\"theme_mode\": \"light\",\n  \"keep\": 1}\n".utf8))
            _ = FileManager.default.createFile(atPath: root.suiteFile("group.com.rizq.tests.shared"), contents: Data(#"{"other_app":"é"}"#.utf8))
            try service.store.setSecret(previousSecret, forAccount: "refresh_token")
            // The group suite's lock file exists (another app used the suite): the lock is taken
            // and the write fails later, once the import's changes are already in memory.
            _ = FileManager.default.createFile(atPath: root.path + "/groups/.group.com.rizq.tests.shared.lock", contents: nil)
        }

        var importer: Importer {
            Importer(plan: plan, options: root.options(overwrite: true))
        }

        func assertNothingChanged(_ before: [String: Data], file: StaticString = #filePath, line: UInt = #line) throws {
            XCTAssertEqual(root.snapshot(), before, "every suite file is byte for byte as it was", file: file, line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.suiteFile("com.rizq.tests.activity")), "the new suite's file is gone", file: file, line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.recordFile), "nothing was recorded", file: file, line: line)
            XCTAssertEqual(try service.store.accounts(), ["refresh_token"], "the secrets written were removed", file: file, line: line)
            XCTAssertTrue(try service.secret("refresh_token") == previousSecret, "the replaced secret was put back", file: file, line: line)
            for token in tokens { XCTAssertEqual(root.filesContaining(token), [], file: file, line: line) }
            // Memory agrees with the disk: this process's stores hold what they held before.
            XCTAssertEqual(try root.store("com.rizq.tests").entries, ["theme_mode": "light", "keep": 1], file: file, line: line)
            XCTAssertEqual(try root.store("group.com.rizq.tests.shared").entries, ["other_app": "é"], file: file, line: line)
            XCTAssertEqual(try root.store("com.rizq.tests.activity").entries, [:], file: file, line: line)
        }
    }

    func testReadOnlySuiteFolderDuringTheSuiteWritesRollsEverythingBack() throws {
        let scenario = try Scenario()
        let before = scenario.root.snapshot()
        let undo = try makeReadOnly(scenario.root.path + "/groups")
        defer { undo() }
        XCTAssertThrowsError(try scenario.importer.run(scenario.dump)) { error in
            guard case ImportError.suite(let cause, let rollback?) = error else { return XCTFail("\(error)") }
            guard case .writeFailed(let path, _) = cause else { return XCTFail("\(cause)") }
            XCTAssertEqual(path, scenario.root.suiteFile("group.com.rizq.tests.shared"))
            XCTAssertEqual(rollback.revertedSuites, ["com.rizq.tests.activity", "com.rizq.tests"], "the suites written before the failure, in reverse")
            XCTAssertEqual(rollback.removedSecrets, 2)
            XCTAssertEqual(rollback.restoredSecrets, 1)
            XCTAssertTrue(rollback.isComplete, "\(rollback.problems)")
            XCTAssertTrue("\(error)".contains("nothing was imported: the suites are as they were and the 2 secret(s) written were removed"), "\(error)")
        }
        undo()
        try scenario.assertNothingChanged(before)
        // With the folder writable again the same import succeeds, whole.
        let report = try scenario.importer.run(scenario.dump)
        XCTAssertEqual(report.status, .imported)
        XCTAssertEqual(try scenario.root.store("group.com.rizq.tests.shared").value(forKey: "shared_flag", as: Bool.self), true)
        XCTAssertTrue(try scenario.service.secret("session") == scenario.tokens[2])
    }

    func testAFailureRecordingTheImportRollsEverythingBack() throws {
        let scenario = try Scenario()
        let before = scenario.root.snapshot()
        // The record's lock cannot be taken (a folder where the lock file goes): the last write fails.
        let lock = scenario.root.appFolder + "/.rizq-imports.lock"
        try FileManager.default.createDirectory(atPath: lock + "/x", withIntermediateDirectories: true)
        XCTAssertThrowsError(try scenario.importer.run(scenario.dump)) { error in
            guard case ImportError.suite(_, let rollback?) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(rollback.revertedSuites, ["group.com.rizq.tests.shared", "com.rizq.tests.activity", "com.rizq.tests"])
            XCTAssertEqual(rollback.removedSecrets, 2)
        }
        try FileManager.default.removeItem(atPath: lock)
        try scenario.assertNothingChanged(before)
    }

    func testASecretServiceFailureMidwayRemovesTheSecretsWrittenSoFar() throws {
        let root = ImportRoot()
        let service = TestService()
        let tokens = [FakeToken.jwt(), FakeToken.jwt(), FakeToken.jwt()]
        let dump = ImportDump(pairs: [("a_token", tokens[0]), ("b_token", tokens[1]), ("c_token", tokens[2]), ("theme_mode", "dark")])
        // The real Secret Service, with its third write made to fail as a dropped connection would.
        let failing = FailingThirdWrite(SecretServiceStore(service: service.name))
        XCTAssertThrowsError(try Importer(options: root.options(service: service.name), secretStore: { _ in failing }).run(dump)) { error in
            guard case ImportError.secretService(.failed, let rollback?) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(rollback.removedSecrets, 2)
            XCTAssertEqual(rollback.revertedSuites, [])
        }
        XCTAssertEqual(try service.store.accounts(), [], "the two secrets written were deleted from the Secret Service")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.suiteFile(root.appID)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.recordFile))
    }

    func testAnAccountTheSecretServiceRefusesStopsTheImportBeforeAnyWrite() throws {
        let root = ImportRoot()
        let service = TestService()
        // A NUL byte in a localStorage key cannot name a Secret Service account.
        let dump = ImportDump(pairs: [("a_token", FakeToken.jwt()), ("c_token\u{0}", FakeToken.jwt()), ("theme_mode", "dark")])
        XCTAssertThrowsError(try Importer(options: root.options(service: service.name)).run(dump)) { error in
            guard case ImportError.secretService(.invalidInput, nil) = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try service.store.accounts(), [])
        XCTAssertEqual(root.snapshot(), [:])
    }
}

/// The real Secret Service store, except that its third write fails: failure injection for
/// the rollback of secrets (everything else, deletion included, is the real thing).
private final class FailingThirdWrite: SecretStore, @unchecked Sendable {
    private let real: SecretServiceStore
    private let lock = NSLock()
    private var writes = 0

    init(_ real: SecretServiceStore) { self.real = real }

    var service: String { real.service }

    func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        let count = lock.withLock { () -> Int in
            writes += 1
            return writes
        }
        if count == 3 { throw .failed(detail: "injected: the connection to the Secret Service dropped") }
        try real.storeSecret(bytes, isText: isText, forAccount: account, label: label)
    }

    func secretBytes(forAccount account: String) throws(SecretError) -> Data? { try real.secretBytes(forAccount: account) }
    func deleteSecret(forAccount account: String) throws(SecretError) -> Bool { try real.deleteSecret(forAccount: account) }
    func accounts() throws(SecretError) -> [String] { try real.accounts() }
}
