import Foundation
import RizqJSON
import Synchronization
import XCTest
@testable import RizqPrefs

/// Several real processes on one suite file.
final class MultiProcessTests: XCTestCase {
    func testFourWritersKeepAllTwoThousandKeysAndReadersNeverSeeInvalidJSON() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.app"
        let path = root.filePath(suite)
        let stop = Atomic<Bool>(false)
        let reads = Atomic<Int>(0)
        let invalid = Mutex<[String]>([])
        // A concurrent reader: parses the file as often as it can while the writers run.
        let reader = Thread {
            while !stop.load(ordering: .relaxed) {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                reads.add(1, ordering: .relaxed)
                do {
                    guard case .dictionary = try JSONReader.parse(data) else { throw JSONReader.Failure(reason: "not an object", offset: 0, line: 1, column: 1) }
                } catch {
                    invalid.withLock { $0.append("\(error) in \(data.count) bytes") }
                }
            }
        }
        reader.start()
        // Four writers at once, each flushing every ten keys: 200 durable writes that take turns
        // under the file lock and merge each other's keys.
        let writers = (0..<4).map { Child.start(root, suite, ["write-flushed", "writer\($0)", "500", "10"]) }
        for writer in writers { try writer.run() }
        for writer in writers {
            writer.waitUntilExit()
            XCTAssertEqual(writer.terminationStatus, 0)
        }
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(invalid.withLock { $0 }, [])
        XCTAssertGreaterThan(reads.load(ordering: .relaxed), 10)

        let object = try root.fileObject(suite)
        XCTAssertEqual(object.count, 2000)
        for writer in 0..<4 {
            for index in 0..<500 {
                XCTAssertEqual(object["writer\(writer)-\(index)"] as? Int, index, "writer\(writer)-\(index)")
            }
        }
    }

    func testTwoProcessesWritingDifferentKeysLoseNothing() throws {
        // Foundation's UserDefaults on Linux lost a key in 3 runs of 3 here.
        let root = TemporaryRoot()
        let store = try root.store()
        store.set("mine", forKey: "parent")
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["set-json", "child", "\"theirs\""]).status, 0)
        try store.flush()  // our write must merge, not overwrite, what the child wrote
        let object = try root.fileObject()
        XCTAssertEqual(object["parent"] as? String, "mine")
        XCTAssertEqual(object["child"] as? String, "theirs")
    }

    func testForOneKeyTheLastWriterWins() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "streak")
        try store.flush()
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["set-json", "streak", "2"]).status, 0)
        XCTAssertTrue(eventually { store.integer(forKey: "streak") == 2 })
        store.set(3, forKey: "streak")
        try store.flush()
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["read", "streak:int"]).lines, ["3"])
    }

    func testANewerWriteByAnotherProcessWinsOverAnOlderUnflushedLocalChange() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "streak")        // pending here, not yet written
        store.set("mine", forKey: "untouched") // another pending key the child never writes
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["set-json", "streak", "2"]).status, 0)
        try store.flush()
        XCTAssertEqual(store.integer(forKey: "streak"), 2, "the child wrote after our change: its value wins")
        let object = try root.fileObject()
        XCTAssertEqual(object["streak"] as? Int, 2)
        XCTAssertEqual(object["untouched"] as? String, "mine", "our other pending change is kept")
    }

    func testAnotherProcessesChangeIsVisibleWithoutRestart() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        XCTAssertNil(store.object(forKey: "streak"))
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["set-json", "streak", "42"]).status, 0)
        // The child's flush() has returned; inotify brings the change in, with no call of ours.
        // (How fast: Benchmarks' cross-process workload.)
        XCTAssertTrue(eventually { store.integer(forKey: "streak") == 42 })
    }

    func testPendingChangesAreWrittenAtNormalExit() throws {
        let root = TemporaryRoot()
        let output = try Child.run(root, "group.com.rizq.test", ["set-json", "unflushed", "7", "--no-flush"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(try root.fileObject()["unflushed"] as? Int, 7)
    }

    func testBatchIsAllOrNoneForAnotherProcess() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        let path = root.filePath()
        let stop = Atomic<Bool>(false)
        let partial = Mutex<[Int]>([])
        let reader = Thread {
            while !stop.load(ordering: .relaxed) {
                guard let data = FileManager.default.contents(atPath: path),
                      case .dictionary(let entries) = try? JSONReader.parse(data) else { continue }
                let count = entries.keys.filter { $0.hasPrefix("batch-") }.count
                if count % 100 != 0 { partial.withLock { $0.append(count) } }
            }
        }
        reader.start()
        for round in 0..<20 {
            store.batch { batch in
                for index in 0..<100 { try? batch.set(round, forKey: "batch-\(round)-\(index)") }
            }
            try store.flush()
        }
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(partial.withLock { $0 }, [])
        XCTAssertEqual(try root.fileObject().count, 2000)
    }

    func testRemovePersistentDomainReachesOtherProcesses() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "a")
        store.set(2, forKey: "b")
        try store.flush()
        store.removePersistentDomain(forName: "group.com.rizq.test")
        XCTAssertNil(store.object(forKey: "a"))
        try store.flush()
        XCTAssertEqual(try Child.run(root, "group.com.rizq.test", ["dump"]).lines, ["{}"])
    }
}
