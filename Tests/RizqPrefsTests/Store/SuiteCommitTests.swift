import Foundation
import XCTest
import RizqTestSupport
@testable import RizqPrefs

/// `SuiteStore.commit` and `SuiteCommit.revert`: durable batches that can be undone, byte for byte.
final class SuiteCommitTests: XCTestCase {
    func testCommitIsOnDiskWhenItReturnsAndListsOnlyRealChanges() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("dark", forKey: "theme_mode")
        try store.flush()
        let commit = try store.commit { batch in
            try batch.set("dark", forKey: "theme_mode")   // unchanged: not part of the commit
            try batch.set(7, forKey: "current_streak")
            try batch.set(true, forKey: "rizq_welcome_shown")
        }
        let file = try root.fileObject()
        XCTAssertEqual(file["current_streak"] as? Int, 7)
        XCTAssertEqual(file["rizq_welcome_shown"] as? Bool, true)
        XCTAssertEqual(commit.changes.map { $0.key }, ["current_streak", "rizq_welcome_shown"])
        XCTAssertEqual(commit.changes.first?.before, nil)
        XCTAssertEqual(commit.changes.first?.after, .int(7))
        XCTAssertEqual(commit.path, root.filePath())
    }

    func testCommitThatChangesNothingDoesNotRewriteTheFile() throws {
        let root = TemporaryRoot()
        try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
        let handMade = Data(#"{"a":1,   "b":"x"}"#.utf8)
        _ = FileManager.default.createFile(atPath: root.filePath(), contents: handMade)
        let store = try root.store()
        let commit = try store.commit { batch in try batch.set(1, forKey: "a") }
        XCTAssertTrue(commit.changes.isEmpty)
        XCTAssertEqual(root.fileBytes(), handMade)
        try commit.revert()
        XCTAssertEqual(root.fileBytes(), handMade)
    }

    func testRevertPutsTheFileBackByteForByte() throws {
        let root = TemporaryRoot()
        try FileManager.default.createDirectory(atPath: root.path + "/groups", withIntermediateDirectories: true)
        // Formatted by hand, not as this package writes: only a byte copy can restore it.
        let handMade = Data("{\"keep\": \"é\",\n \"theme_mode\":\"light\"}".utf8)
        _ = FileManager.default.createFile(atPath: root.filePath(), contents: handMade)
        let store = try root.store()
        let commit = try store.commit { batch in
            try batch.set("dark", forKey: "theme_mode")
            try batch.set(3, forKey: "added")
        }
        XCTAssertNotEqual(root.fileBytes(), handMade)
        try commit.revert()
        XCTAssertEqual(root.fileBytes(), handMade)
        XCTAssertEqual(store.string(forKey: "theme_mode"), "light")
        XCTAssertNil(store.object(forKey: "added"))
        // A second revert finds nothing of the commit left and changes nothing.
        try commit.revert()
        XCTAssertEqual(root.fileBytes(), handMade)
    }

    func testRevertOfTheCommitThatCreatedTheFileRemovesIt() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let commit = try store.commit { batch in try batch.set("v", forKey: "k") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.filePath()))
        try commit.revert()
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.filePath()))
        XCTAssertNil(store.object(forKey: "k"))
        XCTAssertEqual(store.keys, [])
    }

    func testRemoveAllInACommitIsUndoneToo() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        store.set(2, forKey: "b")
        try store.flush()
        let before = root.fileBytes()
        let commit = try store.commit { batch in
            batch.removeAll()
            try batch.set(3, forKey: "c")
        }
        XCTAssertEqual(try root.fileObject().keys.sorted(), ["c"])
        XCTAssertEqual(Set(commit.changes.map { $0.key }), ["a", "b", "c"])
        try commit.revert()
        XCTAssertEqual(root.fileBytes(), before)
        XCTAssertEqual(store.keys, ["a", "b"])
    }

    func testFailedCommitIsWithdrawnFromMemoryAndNeverWrittenLater() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("light", forKey: "theme_mode")
        try store.flush()
        let before = root.fileBytes()
        let undo = try makeReadOnly(root.path + "/groups")
        XCTAssertThrowsError(try store.commit { batch in
            try batch.set("dark", forKey: "theme_mode")
            try batch.set(7, forKey: "current_streak")
        }) { error in
            guard case SuiteStoreError.writeFailed = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(root.fileBytes(), before)
        XCTAssertEqual(store.string(forKey: "theme_mode"), "light", "readers see the value from before")
        XCTAssertNil(store.object(forKey: "current_streak"))
        XCTAssertEqual(store.keys, ["theme_mode"])
        // Once writes work again, nothing of the failed commit reaches the file.
        undo()
        try store.flush()
        XCTAssertTrue(store.synchronize())
        XCTAssertEqual(root.fileBytes(), before)
    }

    func testCommitThatCannotTakeTheLockChangesNothing() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("light", forKey: "theme_mode")
        try store.flush()
        let before = root.fileBytes()
        try root.obstructLocking()   // the commit fails before it changes anything
        XCTAssertThrowsError(try store.commit { batch in try batch.set("dark", forKey: "theme_mode") })
        XCTAssertEqual(store.string(forKey: "theme_mode"), "light")
        try root.clearLockObstruction()
        try store.flush()
        XCTAssertEqual(root.fileBytes(), before)
    }

    func testFailedCommitKeepsChangesMadeBeforeItPending() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        try store.flush()
        let undo = try makeReadOnly(root.path + "/groups")
        store.set(2, forKey: "earlier")   // made before the commit, written by no one yet
        XCTAssertThrowsError(try store.commit { batch in try batch.set(3, forKey: "b") })
        XCTAssertEqual(store.integer(forKey: "earlier"), 2)
        XCTAssertNil(store.object(forKey: "b"))
        undo()
        try store.flush()
        let file = try root.fileObject()
        XCTAssertEqual(file["earlier"] as? Int, 2, "an earlier change is not part of the commit")
        XCTAssertNil(file["b"])
    }

    func testRevertAfterAnotherProcessWroteUndoesKeyByKey() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("light", forKey: "theme_mode")
        store.set(1, forKey: "streak")
        try store.flush()
        let commit = try store.commit { batch in
            try batch.set("dark", forKey: "theme_mode")
            try batch.set(5, forKey: "streak")
            try batch.set("new", forKey: "added")
        }
        // Another process writes a key of its own, and this process changes one of the commit's keys.
        let child = try Child.run(root, "group.com.rizq.test", ["set-json", "other", "42"])
        XCTAssertEqual(child.status, 0, child.stderr)
        store.set(6, forKey: "streak")
        try store.flush()
        try commit.revert()
        let file = try root.fileObject()
        XCTAssertEqual(file["theme_mode"] as? String, "light")
        XCTAssertNil(file["added"])
        XCTAssertEqual(file["streak"] as? Int, 6, "a change made after the commit is kept")
        XCTAssertEqual(file["other"] as? Int, 42, "another process's write is kept")
        XCTAssertEqual(store.string(forKey: "theme_mode"), "light")
    }

    /// A reverted commit is undone as if it had never been made: the file put back keeps the
    /// change times of the file it copies. Another process that changed a key over the commit's
    /// value before the revert, and writes after it, made the latest change to the key: it wins.
    /// Left unrecorded (as a revert once was), the restored file counted as changed at the
    /// revert, and that change was dropped while its `flush()` succeeded.
    func testARevertedCommitIsNoLaterChangeForAnotherProcess() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("before", forKey: "k")
        try store.flush()
        let commit = try store.commit { batch in try batch.set("committed", forKey: "k") }
        let other = try LiveChild(root, "group.com.rizq.test", ["interactive"])
        addTeardownBlock {
            kill(other.process.processIdentifier, SIGCONT)
            other.closeInput()
            other.waitForExit()
        }
        XCTAssertNotNil(other.waitForLine { $0 == "ready" }, other.stderr)
        other.send("get k")
        XCTAssertNotNil(other.waitForLine { $0 == "committed" }, "the other process reads the commit: \(other.stderr)")
        waitForTheClockToTick()
        other.send("set-stop k mine")
        waitUntilStopped(other)
        waitForTheClockToTick()
        try commit.revert()
        XCTAssertEqual(try root.fileObject()["k"] as? String, "before")
        kill(other.process.processIdentifier, SIGCONT)
        other.send("flush")
        XCTAssertEqual(other.waitForLine { $0 == "flushed" || $0.hasPrefix("error") }, "flushed", other.stderr)
        XCTAssertEqual(try root.fileObject()["k"] as? String, "mine", "the change made after the commit lost to its revert")
    }
}
