import Foundation
import RizqCore
import RizqMounts
import RizqTestSupport
import Synchronization
import XCTest

/// MountedFolder.updates(): inotify delivers each generation kubelet's writer publishes (from
/// another process), a plain folder's changes, and the folder again after it was replaced.
final class MountWatcherTests: XCTestCase {
    func testEachGenerationTheWriterPublishesArrivesWhole() throws {
        let volume = try KubeletVolume()
        let first = try volume.write(["a": "1", "b": "2"])
        let seen = try Collected(MountedFolder(volume.path).updates())
        XCTAssertTrue(seen.wait { $0.last?.generation == first }, "the current generation comes first: \(seen.generations)")

        let updated = try volume.write(["a": "10", "b": "2"])
        XCTAssertTrue(seen.wait { $0.last?.generation == updated }, "an update: \(seen.generations)")
        XCTAssertEqual(seen.last?.changedKeys(since: seen.all.dropLast().last), ["a"])
        let removed = try volume.write(["a": "10"])
        XCTAssertTrue(seen.wait { $0.last?.generation == removed }, "a key removed: \(seen.generations)")
        XCTAssertEqual(seen.last?.keys, ["a"])
        let added = try volume.write(["a": "10", "c": "3"])
        XCTAssertTrue(seen.wait { $0.last?.generation == added }, "a key added: \(seen.generations)")
        XCTAssertEqual(seen.last?.keys, ["a", "c"])
        XCTAssertEqual(Set(seen.generations).count, seen.generations.count, "no generation twice")
    }

    func testRapidSwapsArriveAsWholeGenerationsEndingWithTheLast() throws {
        let volume = try KubeletVolume()
        try volume.write(["a": "0", "b": "0", "c": "0"])
        let seen = try Collected(MountedFolder(volume.path).updates())
        XCTAssertTrue(seen.wait { !$0.isEmpty })
        let published = try volume.burst(200, keys: ["a", "b", "c"], dropOdd: true)
        XCTAssertTrue(seen.wait { $0.last?.generation == published.last }, "the last generation arrives: \(seen.generations.suffix(3)) vs \(published.suffix(3))")
        var lastNumber = -1
        for snapshot in seen.all {
            let values = Set(snapshot.entries.values)
            XCTAssertEqual(values.count, 1, "one generation's values: \(snapshot.entries)")
            guard case .bytes(let bytes)? = values.first, let number = Int(String(decoding: bytes, as: UTF8.self)) else { return XCTFail("\(snapshot.entries)") }
            XCTAssertEqual(snapshot.keys, number % 2 == 1 ? ["a", "b"] : ["a", "b", "c"])
            XCTAssertGreaterThan(number, lastNumber, "generations in order")
            lastNumber = number
        }
    }

    func testAPlainFolderDeliversItsChanges() throws {
        let folder = try temporaryFolder()
        try Data("1".utf8).write(to: URL(fileURLWithPath: folder + "/a"))
        let seen = try Collected(MountedFolder(folder).updates())
        XCTAssertTrue(seen.wait { $0.last?.keys == ["a"] })
        try Data("2".utf8).write(to: URL(fileURLWithPath: folder + "/b"), options: .atomic)
        XCTAssertTrue(seen.wait { (try? $0.last?.text(forKey: "b")) == "2" }, "\(seen.all)")
        XCTAssertEqual(unlink(folder + "/a"), 0)
        XCTAssertTrue(seen.wait { $0.last?.keys == ["b"] }, "\(seen.all)")
    }

    /// The folder removed and made again (a volume remounted; a test's rm -rf): the last
    /// snapshot stands meanwhile, and the new folder is watched and read once it is there.
    func testAReplacedFolderIsWatchedAgain() throws {
        let volume = try KubeletVolume()
        try volume.write(["a": "1"])
        let seen = try Collected(MountedFolder(volume.path).updates())
        XCTAssertTrue(seen.wait { !$0.isEmpty })
        try FileManager.default.removeItem(atPath: volume.path)
        try FileManager.default.createDirectory(atPath: volume.path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let again = try volume.write(["a": "2"])
        XCTAssertTrue(seen.wait { $0.last?.generation == again }, "\(seen.generations)")
        XCTAssertEqual(try seen.last?.text(forKey: "a"), "2")
        let later = try volume.write(["a": "3"])
        XCTAssertTrue(seen.wait { $0.last?.generation == later }, "the new folder's swaps arrive too: \(seen.generations)")
    }

    /// A plain folder that becomes a Kubernetes volume (kubelet's first write into it).
    func testAFolderThatGainsDataIsReadAsAVolume() throws {
        let volume = try KubeletVolume()
        let seen = try Collected(MountedFolder(volume.path).updates())
        XCTAssertTrue(seen.wait { $0.last?.layout == .plain })
        let first = try volume.write(["k": "v"])
        XCTAssertTrue(seen.wait { $0.last?.generation == first }, "\(seen.all)")
        XCTAssertTrue(seen.all.allSatisfy { $0.generation != nil || $0.keys.isEmpty }, "never the half-made folder's links as keys")
    }

    /// observe(_:): the snapshot now before it returns, each swap on the watcher's thread, and
    /// nothing after cancel().
    func testAnObserverIsCalledAtOnceThenForEachSwapUntilCancelled() throws {
        let volume = try KubeletVolume()
        let first = try volume.write(["a": "1"])
        let log = Collected.Log()
        let observation = try MountedFolder(volume.path).observe { snapshot in log.snapshots.withLock { $0.append(snapshot) } }
        XCTAssertEqual(log.snapshots.withLock { $0.map(\.generation) }, [first], "called before observe returned")
        let second = try volume.write(["a": "2"])
        XCTAssertTrue(eventually { log.snapshots.withLock { $0.last?.generation } == second })
        observation.cancel()
        // A later subscriber's first snapshot is read after the swap below: once it has it, the
        // watcher has handled the swap, and the cancelled observer must not have been called.
        try volume.write(["a": "3"])
        let later = try Collected(MountedFolder(volume.path).updates())
        XCTAssertTrue(later.wait { (try? $0.last?.text(forKey: "a")) == "3" })
        XCTAssertEqual(log.snapshots.withLock { $0.compactMap(\.generation) }, [first, second].compactMap { $0 })
    }

    func testAMissingFolderCannotBeWatched() throws {
        XCTAssertThrowsError(try MountedFolder("/nonexistent/rizq-\(UUID().uuidString)").updates()) { error in
            guard case MountError.missing = error else { return XCTFail("\(error)") }
        }
    }

    private func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "rizq-watched-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}

/// Every snapshot a stream delivers, collected by a task of its own (ended with the test).
final class Collected: Sendable {
    /// What arrived, in order.
    final class Log: Sendable {
        let snapshots = Mutex<[MountedSnapshot]>([])
    }

    private let log = Log()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<MountedSnapshot>) {
        let log = self.log
        task = Task.detached {
            for await snapshot in stream { log.snapshots.withLock { $0.append(snapshot) } }
        }
    }

    deinit { task.cancel() }

    var all: [MountedSnapshot] { log.snapshots.withLock { $0 } }
    var last: MountedSnapshot? { all.last }
    var generations: [String] { all.map { $0.generation ?? "plain" } }

    /// Waits until `condition` holds for what has arrived (bounded: a hang fails the test).
    func wait(_ condition: ([MountedSnapshot]) -> Bool) -> Bool {
        eventually(timeout: 30) { condition(all) }
    }
}
