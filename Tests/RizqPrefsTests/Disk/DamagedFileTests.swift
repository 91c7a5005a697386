import Foundation
import XCTest
@testable import RizqPrefs

/// Damaged and unreadable files: never overwritten, never silently dropped.
final class DamagedFileTests: XCTestCase {
    private func quarantined(_ root: TemporaryRoot) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path + "/groups").filter { $0.contains(".corrupt-") }.sorted()
    }

    func testCorruptFileIsQuarantinedByteForByteAndTheSuiteKeepsWorking() throws {
        let root = TemporaryRoot()
        try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
        let garbage = Data("{\"streak\": 5, \"broken\": ".utf8) + Data([0xFF, 0x00, 0x13])
        _ = FileManager.default.createFile(atPath: root.filePath(), contents: garbage)

        let output = try Child.run(root, "group.com.rizq.test", ["set-json", "fresh", "1"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(output.stderr.contains("warning"), output.stderr)
        XCTAssertTrue(output.stderr.contains("moved it aside"), output.stderr)

        let moved = try quarantined(root)
        XCTAssertEqual(moved.count, 1)
        XCTAssertTrue(moved[0].hasPrefix("group.com.rizq.test.corrupt-") && moved[0].hasSuffix(".json"), moved[0])
        XCTAssertEqual(FileManager.default.contents(atPath: root.path + "/groups/" + moved[0]), garbage)
        XCTAssertEqual(try root.fileObject().keys.sorted(), ["fresh"])
    }

    func testAFileWhoseRootIsNotAnObjectIsQuarantinedToo() throws {
        let root = TemporaryRoot()
        try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root.filePath(), contents: Data("[1, 2, 3]\n".utf8))
        let store = try root.store()
        XCTAssertEqual(store.keys, [])
        XCTAssertEqual(try quarantined(root).count, 1)
        store.set(true, forKey: "ok")
        try store.flush()
        XCTAssertEqual(try root.fileObject()["ok"] as? Bool, true)
    }

    /// A suite whose only key looks like a tag (`$date` with a date as its value) is a suite
    /// with that key, not a file whose top level is a date: it was once taken for damage and
    /// moved aside.
    func testASuiteWhoseOnlyKeyLooksLikeATagIsNotDamage() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("2026-11-23T07:00:00.000000Z", forKey: "$date")
        try store.flush()
        let output = try Child.run(root, "group.com.rizq.test", ["dump"])
        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(output.lines, [PrefValue.dictionary(["$date": "2026-11-23T07:00:00.000000Z"]).description])
        XCTAssertEqual(try quarantined(root), [])
        XCTAssertEqual(try root.fileObject()["$date"] as? String, "2026-11-23T07:00:00.000000Z")
    }

    func testFileDamagedWhileOpenIsQuarantinedNotOverwritten() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        try store.flush()
        // Someone breaks the file by hand (an editor writing in place).
        let broken = Data("{\"a\": 1,,}".utf8)
        _ = FileManager.default.createFile(atPath: root.filePath(), contents: broken)
        store.set(2, forKey: "b")
        try store.flush()
        let moved = try quarantined(root)
        XCTAssertEqual(moved.count, 1)
        XCTAssertEqual(FileManager.default.contents(atPath: root.path + "/groups/" + moved[0]), broken)
        XCTAssertEqual(try root.fileObject()["b"] as? Int, 2)
    }

    func testUnreadableSuitePathIsAClearErrorNotAnEmptySuite() throws {
        let root = TemporaryRoot()
        // A folder where the file should be: cannot be read as a suite (works even as root,
        // where permission bits do not stop reads).
        try FileManager.default.createDirectory(atPath: root.filePath(), withIntermediateDirectories: true)
        XCTAssertThrowsError(try root.store()) { error in
            guard case SuiteStoreError.unreadable(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, root.filePath())
            XCTAssertTrue("\(error)".contains("move it away"), "\(error)")
        }
        XCTAssertNil(SuiteStore(suiteName: "group.com.rizq.test").flatMap { $0.location.path == root.filePath() ? $0 : nil })
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.filePath(), isDirectory: &isFolder) && isFolder.boolValue)
    }

    func testPermissionDeniedIsAClearErrorForAnotherUser() throws {
        // Permission bits do not apply to root; run the reader as 'nobody' when we can.
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv to act as another user")
        }
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("secret-ish", forKey: "k")
        try store.flush()
        chmod(root.path, 0o755)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Child.executable, root.path, "group.com.rizq.test", "dump"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if message.contains("Permission denied") && message.contains("open:") {
            XCTAssertEqual(process.terminationStatus, 1)
            XCTAssertTrue(message.contains("cannot read suite file"), message)
        } else if message.contains("execv") || message.contains("cannot execute") {
            throw XCTSkip("the test binary is not executable by nobody here: \(message)")
        } else {
            XCTFail("expected a permission error, got status \(process.terminationStatus): \(message)")
        }
        XCTAssertEqual(try root.fileObject()["k"] as? String, "secret-ish")
    }

    func testWrongTypeForATypedReadReturnsNilAndLeavesTheStoredValue() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("not a number", forKey: "streak")
        try store.flush()
        let before = root.fileBytes()
        XCTAssertNil(store.value(forKey: "streak", as: Int.self))
        XCTAssertEqual(store.integer(forKey: "streak"), 0)
        try store.flush()
        XCTAssertEqual(root.fileBytes(), before)
    }
}
