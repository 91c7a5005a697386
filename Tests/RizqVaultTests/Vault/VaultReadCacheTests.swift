import Foundation
import RizqSecrets
import RizqTestSupport
import XCTest

/// One store's cache of what it read (keyed by the files' stamps) against another process's
/// writes: a read after another writer's replace sees the new contents, even when the new file
/// has the old one's size and modification time, and a damaged file stays an error every time.
final class VaultReadCacheTests: VaultTestCase {
    var keyFile: String { scratch + "/vault-key.txt" }
    var keyEnvironment: [String: String] { ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"] }
    var vaultPath: String { folder + "/vault.age" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try runChild(["create", service, "key-file"], environment: keyEnvironment).status, 0)
    }

    /// The store of this test process: the same vault, the same key file.
    func makeStore() -> VaultSecretStore {
        VaultSecretStore(service: service, configuration: VaultConfiguration(
            root: root, keyFile: keyFile, usesSystemdCredentials: false, usesKeyringCache: false,
            stateFolder: scratch + "/.local/state/rizq-prefs/vaults"))
    }

    func childSet(_ account: String, _ value: String) throws {
        XCTAssertEqual(try runChild(["set", service, account], input: Data(value.utf8), environment: keyEnvironment).stdout, "ok stored\n")
    }

    func read(_ store: VaultSecretStore, _ account: String) throws -> String? {
        try store.item(forAccount: account).map { String(decoding: $0.data, as: UTF8.self) }
    }

    func testAReadAfterAnotherProcessChangedTheVaultSeesTheChange() throws {
        try childSet("a", "first")
        let store = makeStore()
        XCTAssertEqual(try read(store, "a"), "first")
        XCTAssertEqual(try read(store, "a"), "first", "a second read of an unchanged vault")
        try childSet("a", "second")
        try childSet("b", "other")
        XCTAssertEqual(try read(store, "a"), "second", "another process's replace is seen by the next read")
        XCTAssertEqual(try store.accountNames(), ["a", "b"])
        // This store's own write, then another process's: each read sees the last one.
        try store.store(Data("third".utf8), isText: true, forAccount: "a", label: nil)
        XCTAssertEqual(try read(store, "a"), "third")
        XCTAssertEqual(try runChild(["get", service, "a"], environment: keyEnvironment).stdout, "third")
        XCTAssertEqual(try runChild(["delete", service, "b"], environment: keyEnvironment).stdout, "ok true\n")
        XCTAssertEqual(try store.accountNames(), ["a"])
        // A write by this store after another process's keeps that process's change.
        try childSet("c", "from the child")
        try store.store(Data("fourth".utf8), isText: true, forAccount: "a", label: nil)
        XCTAssertEqual(try runChild(["list", service], environment: keyEnvironment).stdout, "ok a,c\n")
        XCTAssertEqual(try read(store, "c"), "from the child")
    }

    func testAVaultReplacedByAFileOfTheSameSizeAndTimeIsReadAgain() throws {
        try childSet("a", "AAAA")
        let store = makeStore()
        XCTAssertEqual(try read(store, "a"), "AAAA")
        let before = try FileManager.default.attributesOfItem(atPath: vaultPath)
        let reference = scratch + "/old-vault.age"
        XCTAssertTrue(FileManager.default.createFile(atPath: reference, contents: try Data(contentsOf: URL(fileURLWithPath: vaultPath))))
        XCTAssertEqual(try runProcess("/usr/bin/touch", ["-r", vaultPath, reference]).status, 0)
        try childSet("a", "BBBB")
        // The new file gets the old one's modification time: only its inode and ctime differ.
        XCTAssertEqual(try runProcess("/usr/bin/touch", ["-r", reference, vaultPath]).status, 0)
        let after = try FileManager.default.attributesOfItem(atPath: vaultPath)
        XCTAssertEqual(after[.size] as? NSNumber, before[.size] as? NSNumber, "the test needs a file of the same size")
        XCTAssertEqual(after[.modificationDate] as? Date, before[.modificationDate] as? Date)
        XCTAssertEqual(try read(store, "a"), "BBBB")
    }

    func testADamagedVaultIsAnErrorAtEveryReadUntilRepaired() throws {
        try childSet("a", "good")
        let store = makeStore()
        XCTAssertEqual(try read(store, "a"), "good")
        let original = try Data(contentsOf: URL(fileURLWithPath: vaultPath))
        // Damaged in place (same inode, same size, the old modification time).
        let reference = scratch + "/reference"
        XCTAssertTrue(FileManager.default.createFile(atPath: reference, contents: Data()))
        XCTAssertEqual(try runProcess("/usr/bin/touch", ["-r", vaultPath, reference]).status, 0)
        var damaged = original
        damaged[damaged.count - 3] ^= 0x01
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: vaultPath))
        try handle.write(contentsOf: damaged)
        try handle.close()
        XCTAssertEqual(try runProcess("/usr/bin/touch", ["-r", reference, vaultPath]).status, 0)
        for attempt in 1...3 {
            XCTAssertThrowsError(try store.item(forAccount: "a"), "read \(attempt)") { error in
                guard case VaultError.damaged = error else { return XCTFail("read \(attempt): \(error)") }
            }
            XCTAssertThrowsError(try store.store(Data("new".utf8), isText: true, forAccount: "b", label: nil), "write \(attempt)") { error in
                guard case VaultError.damaged = error else { return XCTFail("write \(attempt): \(error)") }
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: vaultPath)), damaged, "the damaged vault is untouched")
        try original.write(to: URL(fileURLWithPath: vaultPath))
        XCTAssertEqual(try read(store, "a"), "good")
    }

    func testLockForgetsWhatWasRead() throws {
        try childSet("a", "kept")
        let store = makeStore()
        XCTAssertEqual(try read(store, "a"), "kept")
        _ = try store.lock()
        // With its key gone, the store cannot open the unchanged vault again.
        let moved = scratch + "/key-elsewhere"
        try FileManager.default.moveItem(atPath: keyFile, toPath: moved)
        XCTAssertThrowsError(try store.item(forAccount: "a")) { error in
            guard case VaultError.keySourceFailed(source: .keyFile, _) = error else { return XCTFail("\(error)") }
        }
        try FileManager.default.moveItem(atPath: moved, toPath: keyFile)
        XCTAssertEqual(try read(store, "a"), "kept")
    }

    /// One store's writes re-encode only the items that changed, on contents the cache lets go
    /// of while they change (issue 39): after overwrites, a remove, an add, a remove of nothing
    /// and an add that takes a removed account's place (the same count), another process reads
    /// every item as the last write left it, its seal verified; and the writing store still reads
    /// its own writes from its cache.
    func testIncrementalWritesLeaveTheVaultAFreshReaderReadsWhole() throws {
        let store = makeStore()
        var expected: [String: String] = [:]
        func set(_ account: String, _ value: String, check: Bool = true) throws {
            try store.store(Data(value.utf8), isText: true, forAccount: account, label: nil)
            expected[account] = value
            // Right after the write: a later write that adds or removes an account encodes
            // every item again, and would hide a stale one.
            if check { XCTAssertEqual(try runChild(["get", service, account], environment: keyEnvironment).stdout, value, "another process, right after the set of \(account)") }
        }
        for index in 0..<40 { try set("account-\(index)", "value \(index)", check: false) }
        try set("account-7", "seven, changed")
        try set("account-7", "seven, changed again")
        try set("account-30", "thirty, changed")
        XCTAssertTrue(try store.remove(account: "account-12"))
        expected["account-12"] = nil
        XCTAssertFalse(try store.remove(account: "no-such-account"), "a remove of nothing writes nothing")
        try set("account-5", "five, after a remove of nothing")
        XCTAssertTrue(try store.remove(account: "account-20"))
        expected["account-20"] = nil
        try set("account-99", "in account-20's place")
        try set("Account-0", "sorts before the others")
        for (account, value) in expected {
            XCTAssertEqual(try read(store, account), value, "the writing store, \(account)")
            XCTAssertEqual(try runChild(["get", service, account], environment: keyEnvironment).stdout, value, "another process, \(account)")
        }
        XCTAssertEqual(try store.accountNames(), expected.keys.sorted())
        XCTAssertEqual(try runChild(["list", service], environment: keyEnvironment).stdout, "ok " + expected.keys.sorted().joined(separator: ",") + "\n")
    }
}
