import Foundation
import Observation
import Synchronization
import XCTest
@testable import RizqPrefs

/// Collects what an async sequence yields, on a task of its own.
private final class Collector<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        let started = DispatchSemaphore(value: 0)
        let task = Task { [self] in
            started.signal()
            do {
                for try await item in sequence { self.items.withLock { $0.append(item) } }
            } catch {}
        }
        self.task.withLock { $0 = task }
        started.wait()
    }

    var collected: [Element] { items.withLock { $0 } }

    func cancel() { task.withLock { $0?.cancel() } }
}

@Observable
private final class StreakModel: @unchecked Sendable {
    var streak = 0
    @ObservationIgnored private var feed: Task<Void, Never>?

    /// The documented pattern: read the current value, then follow the change stream.
    init(store: SuiteStore) {
        streak = store.integer(forKey: "current_streak")
        let changes = store.changes(forKey: "current_streak", as: Int.self)
        feed = Task { [weak self] in
            for await value in changes {
                self?.streak = value ?? 0
            }
        }
    }

    deinit { feed?.cancel() }
}

final class ChangeStreamTests: XCTestCase {
    func testLocalChangesArriveOnceEachInOrderIncludingRemovals() throws {
        let store = try TemporaryRoot().store()
        let changes = Collector(store.changes(forKey: "k"))
        store.set(1, forKey: "k")
        store.set(1, forKey: "k")  // same value: not a change
        store.set("two", forKey: "k")
        store.set(5, forKey: "other")
        store.removeObject(forKey: "k")
        store.set(3, forKey: "k")
        store.removePersistentDomain(forName: store.suiteName)
        XCTAssertTrue(eventually { changes.collected.count == 5 }, "\(changes.collected)")
        XCTAssertEqual(changes.collected, [.int(1), .string("two"), nil, .int(3), nil])
        changes.cancel()
    }

    func testAChildProcessesWriteIsYieldedOnceByTheParentsStream() throws {
        let root = TemporaryRoot()
        let store = try root.store("group.com.rizq.app")
        let streaks = Collector(store.changes(forKey: "current_streak", as: Int.self))
        let all = Collector(store.changes())
        XCTAssertEqual(try Child.run(root, "group.com.rizq.app", ["set-json", "current_streak", "12"]).status, 0)
        XCTAssertTrue(eventually { streaks.collected == [12] }, "\(streaks.collected)")
        XCTAssertEqual(try Child.run(root, "group.com.rizq.app", ["set-json", "current_streak", "13"]).status, 0)
        XCTAssertTrue(eventually { streaks.collected == [12, 13] }, "\(streaks.collected)")
        // Our own later write does not echo back the child's values, nor itself.
        store.set(14, forKey: "current_streak")
        try store.flush()
        // A change the child makes after our write arrives after every file event before it
        // (one watcher thread, one queue per suite): once it is here, an echo would be too.
        XCTAssertEqual(try Child.run(root, "group.com.rizq.app", ["set-json", "after", "true"]).status, 0)
        XCTAssertTrue(eventually { all.collected.contains { $0.key == "after" } }, "\(all.collected)")
        XCTAssertEqual(streaks.collected, [12, 13, 14])
        XCTAssertEqual(all.collected.map(\.origin), [.external, .external, .local, .external])
        streaks.cancel()
        all.cancel()
    }

    func testAnotherProcessObservesThisProcess() throws {
        let root = TemporaryRoot()
        let store = try root.store("group.com.rizq.app")
        let watcher = Child.start(root, "group.com.rizq.app", ["watch", "current_streak", "3"])
        let out = watcher.standardOutput as! Pipe
        try watcher.run()
        // Each write waits until the child printed the value before it: the child sees every
        // value, none coalesced with the next.
        var printed = Child.read(watcher, until: "ready")
        for value in [1, 2] {
            store.set(value, forKey: "current_streak")
            try store.flush()
            printed = Child.read(watcher, until: "\(value)", after: printed)
        }
        store.removeObject(forKey: "current_streak")
        try store.flush()
        watcher.waitUntilExit()
        printed += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(printed, "ready\n1\n2\nnil\n")
    }

    func testProjectedValueChangesYieldTheDefaultAfterRemoval() throws {
        let store = try TemporaryRoot().store()
        @UserDefault("theme_mode", defaultValue: "system", store: store) var theme: String
        let changes = Collector($theme.changes)
        theme = "dark"
        $theme.reset()
        XCTAssertTrue(eventually { changes.collected == ["dark", "system"] }, "\(changes.collected)")
        changes.cancel()
    }

    func testAChangeMadeRightAfterAskingForTheStreamIsDelivered() throws {
        let store = try TemporaryRoot().store()
        @UserDefault("theme_mode", defaultValue: "system", store: store) var theme: String
        for round in 0..<50 {
            // No waiting between asking for the stream and the change: the stream must already
            // be subscribed when `changes` returns.
            let stream = $theme.changes
            theme = "round-\(round)"
            let changes = Collector(stream)
            XCTAssertTrue(eventually { changes.collected == ["round-\(round)"] }, "round \(round): \(changes.collected)")
            changes.cancel()
        }
    }

    func testAnObservableModelFedFromAnotherProcess() throws {
        let root = TemporaryRoot()
        let store = try root.store("group.com.rizq.app")
        store.set(3, forKey: "current_streak")
        // Written before the child starts: a write of ours that the scheduler delays past the
        // child's change would win over it (conflicts are judged by the time of the other write,
        // not of the other change), and that is not what this test is about.
        try store.flush()
        let model = StreakModel(store: store)
        XCTAssertEqual(model.streak, 3)
        let changed = expectation(description: "observation fired")
        withObservationTracking { _ = model.streak } onChange: { changed.fulfill() }
        XCTAssertEqual(try Child.run(root, "group.com.rizq.app", ["set-json", "current_streak", "4"]).status, 0)
        wait(for: [changed], timeout: 5)
        XCTAssertTrue(eventually { model.streak == 4 })
    }
}
