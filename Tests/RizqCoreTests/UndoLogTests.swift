import Foundation
import RizqCore
import XCTest

/// The one undo log of schema migrations and imports: last step first, past failures, naming
/// what it could not undo without ever holding a value.
final class UndoLogTests: XCTestCase {
    private struct Refusing: Error, CustomStringConvertible {
        var description: String { "refused" }
    }

    func testStepsAreUndoneLastFirstAndAFailureDoesNotStopTheRest() {
        var order: [String] = []
        var log = UndoLog()
        log.record(undo: { order.append("first"); return .suiteReverted("first") }, failure: { _ in .init(message: "first", secret: nil) })
        log.record(undo: { throw Refusing() }, failure: { error in .init(message: "second: \(error)", secret: nil) })
        log.record(undo: { order.append("third"); return nil }, failure: { _ in .init(message: "third", secret: nil) })
        let report = log.undo()
        XCTAssertEqual(order, ["third", "first"])
        XCTAssertEqual(report.undone, [.suiteReverted("first")], "a step with nothing to undo reports nothing")
        XCTAssertEqual(report.problems.map(\.message), ["second: refused"])
        XCTAssertEqual(report.revertedSuites, ["first"])
    }

    func testASecretWrittenOverNothingIsDeletedAndOneWrittenOverAnotherIsPutBack() throws {
        let store = InMemorySecretStore(service: "com.rizq.undo")
        try store.setSecret("old", forAccount: "kept")
        var log = UndoLog()
        try store.setSecret("new", forAccount: "fresh")
        log.recordSecretWrite(to: store, account: "fresh", previous: nil)
        try store.setSecret("newer", forAccount: "kept")
        log.recordSecretWrite(to: store, account: "kept", previous: Data("old".utf8))
        let report = log.undo()
        XCTAssertNil(try store.secret(forAccount: "fresh"))
        XCTAssertEqual(try store.secret(forAccount: "kept"), "old")
        XCTAssertEqual(report.undone, [
            .secretRestored(service: "com.rizq.undo", account: "kept"),
            .secretRemoved(service: "com.rizq.undo", account: "fresh"),
        ])
        XCTAssertTrue(report.problems.isEmpty)
    }

    /// A store that fails every call, as a keyring that stopped answering does.
    private struct Unreachable: SecretStore {
        let service = "com.rizq.unreachable"
        func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) { throw .timedOut(seconds: 1) }
        func secretBytes(forAccount account: String) throws(SecretError) -> Data? { throw .timedOut(seconds: 1) }
        func deleteSecret(forAccount account: String) throws(SecretError) -> Bool { throw .timedOut(seconds: 1) }
        func accounts() throws(SecretError) -> [String] { throw .timedOut(seconds: 1) }
    }

    func testASecretThatCannotBeUndoneIsNamedButItsValueNever() {
        var log = UndoLog()
        log.recordSecretWrite(to: Unreachable(), account: "auth_token", previous: nil, uncertain: true)
        log.recordSecretWrite(to: Unreachable(), account: "refresh_token", previous: Data("s3cr3t-previous".utf8))
        let report = log.undo()
        XCTAssertEqual(report.problems.map(\.secret), [
            SecretAddress(service: "com.rizq.unreachable", account: "refresh_token"),
            SecretAddress(service: "com.rizq.unreachable", account: "auth_token"),
        ])
        XCTAssertEqual(report.problems[0].message, "secret store com.rizq.unreachable, account refresh_token: it could not be put back (no answer within 1.0 s)")
        XCTAssertEqual(report.problems[1].message, "secret store com.rizq.unreachable, account auth_token: its write timed out, so it may have been stored, and it could not be removed (no answer within 1.0 s)")
        XCTAssertFalse(report.problems.contains { $0.message.contains("s3cr3t") })
    }
}
