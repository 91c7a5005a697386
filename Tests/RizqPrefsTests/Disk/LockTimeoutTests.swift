import Foundation
import XCTest
@testable import RizqPrefs

/// Issue 29, item 4 (library): waiting for a suite's lock is bounded. A process that holds it
/// and is stopped (SIGSTOP) or hung used to make every `set` and `flush()` of the suite wait for
/// ever, without a word; now the wait ends after a time-out with a ``SuiteStoreError`` that names
/// the holder — its pid, its command line, whether it is stopped — and what to do. The change
/// stays pending and is written once the lock is free.
final class LockTimeoutTests: XCTestCase {
    private func stoppedHolder(_ root: TemporaryRoot, _ suite: String) throws -> LiveChild {
        let holder = try LiveChild(root, suite, ["hold-lock"])
        XCTAssertNotNil(holder.waitForLine { $0 == "locked" }, holder.stderr)
        kill(holder.process.processIdentifier, SIGSTOP)
        waitUntilStopped(holder)
        addTeardownBlock {
            kill(holder.process.processIdentifier, SIGCONT)
            holder.closeInput()
            holder.waitForExit()
        }
        return holder
    }

    /// Another process's `flush()`, with the time-out set through the environment.
    func testAFlushGivesUpNamingTheStoppedHolderThenWritesOnceItIsFree() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.test"
        let holder = try stoppedHolder(root, suite)
        let pid = holder.process.processIdentifier
        let writer = try LiveChild(root, suite, ["interactive"], environment: ["RIZQ_PREFS_LOCK_TIMEOUT": "0.5"])
        addTeardownBlock {
            writer.closeInput()
            writer.waitForExit()
        }
        XCTAssertNotNil(writer.waitForLine { $0 == "ready" })
        writer.send("set k v")
        writer.send("flush")
        let line = writer.waitForLine(timeout: 60) { $0.hasPrefix("error") || $0 == "flushed" }
        XCTAssertNotNil(line, "the flush never returned")
        let message = line ?? ""
        XCTAssertTrue(message.hasPrefix("error"), message)
        XCTAssertTrue(message.contains("pid \(pid)"), "names the holder: \(message)")
        XCTAssertTrue(message.contains("rizq-prefs-test-child"), "and its command line: \(message)")
        XCTAssertTrue(message.contains("stopped"), "and that it is stopped: \(message)")
        XCTAssertTrue(message.contains("kill -CONT \(pid)"), "and what to do: \(message)")

        kill(pid, SIGCONT)
        holder.closeInput()
        holder.waitForExit()
        writer.send("flush")
        XCTAssertNotNil(writer.waitForLine { $0 == "flushed" }, "written once the lock is free: \(writer.printed)")
        XCTAssertEqual(try root.fileObject()["k"] as? String, "v")
    }

    /// In this process: `flush()` throws the typed error, with the time-out set through the API.
    func testFlushThrowsTheTypedErrorAfterTheTimeOut() throws {
        let root = TemporaryRoot()
        let holder = try stoppedHolder(root, "group.com.rizq.test")
        setenv("RIZQ_PREFS_LOCK_TIMEOUT", "0.2", 1)
        defer { unsetenv("RIZQ_PREFS_LOCK_TIMEOUT") }
        let store = try root.store()
        store.set(1, forKey: "k")
        let finished = DispatchSemaphore(value: 0)
        let outcome = LockedBox<Error?>(nil)
        Thread {
            do { try store.flush() } catch { outcome.set(error) }
            finished.signal()
        }.start()
        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success, "flush() never returned")
        let error = try XCTUnwrap(outcome.get() as? SuiteStoreError, "\(String(describing: outcome.get()))")
        XCTAssertTrue("\(error)".contains("pid \(holder.process.processIdentifier)"), "\(error)")
        XCTAssertEqual(store.prefValue(forKey: "k"), 1, "the change stays pending")
    }
}

/// A value shared with another thread.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
