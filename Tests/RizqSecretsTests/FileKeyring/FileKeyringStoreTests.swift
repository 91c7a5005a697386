import Foundation
import XCTest
@testable import RizqSecrets

/// The store's own behaviour: items, labels and times, several writer processes at once, the
/// file's trust, and what it declares about itself.
final class FileKeyringStoreTests: XCTestCase {
    private var path = ""

    override func setUpWithError() throws {
        path = try temporaryKeyringFolder(self) + "/keyrings/default.keyring"
    }

    func testItemsKeepTheirCreationTimeAndCountStores() throws {
        let store = fileKeyringStore(path, password: "pw")
        XCTAssertNil(try store.itemInfo(forAccount: "A"))
        try store.setSecret("one", forAccount: "A", label: "first")
        let first = try XCTUnwrap(store.itemInfo(forAccount: "A"))
        XCTAssertEqual(first.label, "first")
        XCTAssertEqual(first.attributes, ["service": "S", "account": "A", "xdg:schema": SecretServiceStore.schemaName])
        XCTAssertLessThanOrEqual(abs(first.created.timeIntervalSinceNow), 60)
        try store.setSecret("two", forAccount: "A")
        let second = try XCTUnwrap(store.itemInfo(forAccount: "A"))
        XCTAssertEqual(second.created, first.created)
        XCTAssertEqual(second.label, "A (S)")
        XCTAssertEqual(try store.secret(forAccount: "A"), "two")
        let file = try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(file.items.count, 1)
        XCTAssertEqual(file.usageCount, 2)
        XCTAssertEqual(file.salt.count, 32)
        XCTAssertEqual(file.iterations, 100_000)
        // A delete changes neither the usage count nor the time, as libsecret's does not.
        try store.setSecret("b", forAccount: "B")
        let beforeDelete = try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertTrue(try store.deleteSecret(forAccount: "B"))
        let afterDelete = try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(afterDelete.usageCount, beforeDelete.usageCount)
        XCTAssertEqual(afterDelete.modified, beforeDelete.modified)
        XCTAssertEqual(afterDelete.salt, beforeDelete.salt)
    }

    func testServicesAreSeparate() throws {
        let one = fileKeyringStore(path, password: "pw", service: "com.rizq.one")
        let two = fileKeyringStore(path, password: "pw", service: "com.rizq.two")
        try one.setSecret("1", forAccount: "token")
        try two.setSecret("2", forAccount: "token")
        XCTAssertEqual(try one.secret(forAccount: "token"), "1")
        XCTAssertEqual(try two.secret(forAccount: "token"), "2")
        XCTAssertEqual(try one.accounts(), ["token"])
        XCTAssertTrue(try one.deleteSecret(forAccount: "token"))
        XCTAssertEqual(try two.secret(forAccount: "token"), "2")
    }

    /// Four processes storing at once through the lock: nothing any of them stored is lost.
    func testConcurrentWriterProcessesLoseNothing() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SECRET_FILE_TEST_PATH"] = path
        environment["SECRET_FILE_TEST_PASSWORD"] = "pw"
        environment["CHILD"] = productsFolder + "/rizq-secrets-test-child"
        let script = """
        for writer in 1 2 3 4; do
            (for n in 1 2 3 4 5 6; do printf "w$writer-$n" | "$CHILD" file-keyring S set "w$writer-$n" || exit 1; done) &
        done
        wait
        """
        let result = try runCommand("/bin/bash", ["-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").filter { $0 == "stored" }.count, 24, result.stdout)
        let store = fileKeyringStore(path, password: "pw")
        XCTAssertEqual(try store.accounts().count, 24)
        XCTAssertEqual(try store.secret(forAccount: "w3-5"), "w3-5")
        XCTAssertEqual(try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).usageCount, 24)
    }

    /// Issue 50, item 20: libsecret's `secret-tool` writing the same keyring from another
    /// process lost acknowledged writes of ours (7 of 465): it checks the file's version, makes
    /// `.goutputstream-XXXXXX`, and renames it over the keyring, so a write of ours landing in
    /// between is replaced. Here libsecret's writer is played step by step — its temporary file
    /// made from the keyring before our write, renamed over it after — and the write of ours it
    /// replaced is made again before the writer returns.
    func testAWriteALibsecretWriterInFlightReplacesIsMadeAgain() throws {
        let store = fileKeyringStore(path, password: "pw")
        try store.setSecret("a", forAccount: "A")
        let folder = (path as NSString).deletingLastPathComponent
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let inFlight = folder + "/.goutputstream-R1ZQ50"
        try before.write(to: URL(fileURLWithPath: inFlight))
        XCTAssertEqual(chmod(inFlight, 0o600), 0)
        var environment = ProcessInfo.processInfo.environment
        environment["SECRET_FILE_TEST_PATH"] = path
        environment["SECRET_FILE_TEST_PASSWORD"] = "pw"
        let child = Process()
        child.executableURL = URL(fileURLWithPath: productsFolder + "/rizq-secrets-test-child")
        child.arguments = ["file-keyring", "S", "set", "B"]
        child.environment = environment
        let input = Pipe(), output = Pipe()
        child.standardInput = input
        child.standardOutput = output
        try child.run()
        input.fileHandleForWriting.write(Data("b".utf8))
        try input.fileHandleForWriting.close()
        // Our write is in place: libsecret's writer, past its check, now renames its file over it.
        XCTAssertTrue(eventually(timeout: 30) { (try? Data(contentsOf: URL(fileURLWithPath: path))) != before }, "the write never landed")
        XCTAssertEqual(rename(inFlight, path), 0)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0)
        XCTAssertEqual(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "stored\n")
        let after = fileKeyringStore(path, password: "pw")
        XCTAssertEqual(try after.secret(forAccount: "B"), "b", "the acknowledged write survived libsecret's")
        XCTAssertEqual(try after.secret(forAccount: "A"), "a")
    }

    /// A keyring others can read is not read, nor written over.
    func testKeyringOthersCanReadIsRefused() throws {
        let store = fileKeyringStore(path, password: "pw")
        try store.setSecret("one", forAccount: "A")
        chmod(path, 0o644)
        XCTAssertThrowsError(try fileKeyringStore(path, password: "pw").secret(forAccount: "A")) { error in
            guard case .untrusted(let refused, let detail) = error as? SecretError else { return XCTFail("\(error)") }
            XCTAssertEqual(refused, path)
            XCTAssertTrue(detail.contains("chmod 600"), detail)
        }
        XCTAssertThrowsError(try store.setSecret("two", forAccount: "A"))
        chmod(path, 0o600)
        XCTAssertEqual(try store.secret(forAccount: "A"), "one")
    }

    func testStatusSaysWhereAndWhatWithoutAKey() throws {
        let store = fileKeyringStore(path, password: "pw")
        var status = store.status()
        XCTAssertNil(status.sandbox)
        XCTAssertEqual(status.keySource, .given)
        XCTAssertFalse(status.fileExists)
        XCTAssertTrue(status.backend.isAvailable)
        XCTAssertEqual(status.backend.location, path)
        try store.setSecret("one", forAccount: "A")
        try store.setSecret("two", forAccount: "B")
        status = store.status()
        XCTAssertTrue(status.fileExists)
        XCTAssertEqual(status.itemCount, 2)
        XCTAssertNil(status.backend.problem)
        XCTAssertTrue(status.backend.reason.contains("outside a sandbox"), status.backend.reason)
        try writeKeyring(Data("GnomeKeyring\n\r\0\n\u{1}\u{0}".utf8), to: path)
        status = store.status()
        XCTAssertTrue(status.backend.problem?.contains("is damaged") ?? false, status.backend.problem ?? "")

        // Outside a sandbox, with no password given and none in the environment: no key.
        let keyless = FileKeyringStore(service: "S", location: FileKeyringLocation(path: path), sandbox: nil, password: nil)
        unsetenv("SECRET_FILE_TEST_PASSWORD")
        XCTAssertNil(keyless.keySource)
        XCTAssertFalse(keyless.status().backend.isAvailable)
        XCTAssertThrowsError(try keyless.setSecret("x", forAccount: "A")) { error in
            guard case .noKeySource(let detail) = error as? SecretError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("SECRET_FILE_TEST_PASSWORD"), detail)
        }
    }
}
