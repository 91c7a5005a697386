import Foundation
import Observation
import XCTest
@testable import RizqPrefs

/// A settings class of the seed's shape, made `@Observable`: its `@UserDefault` properties
/// (marked `@ObservationIgnored`, which the macro needs) report to Observation themselves.
@Observable
private final class ObservedSettings {
    @ObservationIgnored @UserDefault var currentStreak: Int
    @ObservationIgnored @UserDefault var themeMode: ObservedTheme
    @ObservationIgnored @CodableUserDefault var goals: [String: Int]
    var unrelated = 0

    init(store: SuiteStore) {
        _currentStreak = UserDefault("current_streak", defaultValue: 0, store: store)
        _themeMode = UserDefault("theme_mode", defaultValue: .system, store: store)
        _goals = CodableUserDefault("goals", defaultValue: [:], store: store)
    }
}

private enum ObservedTheme: String, Sendable { case light, dark, system }

/// Set once, read later, from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// `withObservationTracking` fires for a `@UserDefault` property when its value changes: through
/// the property, through another store of the suite in this process, and in another process.
final class PreferenceObservationTests: XCTestCase {
    private var root: TemporaryRoot!
    private var store: SuiteStore!

    override func setUpWithError() throws {
        root = TemporaryRoot()
        store = try root.store()
    }

    override func tearDown() {
        store = nil
        root = nil
    }

    /// An expectation fulfilled when a read of `read` inside `withObservationTracking` changes.
    private func tracking(_ description: String, _ read: @escaping () -> Void) -> XCTestExpectation {
        let changed = expectation(description: description)
        withObservationTracking(read) { changed.fulfill() }
        return changed
    }

    func testAChangeThroughThePropertyIsObservedAtOnce() {
        let settings = ObservedSettings(store: store)
        let changed = tracking("streak") { _ = settings.currentStreak }
        settings.currentStreak = 4
        wait(for: [changed], timeout: 0)  // synchronous: fired inside the setter
        XCTAssertEqual(settings.currentStreak, 4)
        XCTAssertEqual(store.integer(forKey: "current_streak"), 4)
    }

    func testAChangeMadeElsewhereInThisProcessIsObserved() throws {
        let settings = ObservedSettings(store: store)
        let enumChange = tracking("theme") { _ = settings.themeMode }
        let codableChange = tracking("goals") { _ = settings.goals }
        // Another store of the same suite, and another instance of the class.
        try root.store().set("dark", forKey: "theme_mode")
        ObservedSettings(store: store).goals = ["fajr": 1]
        wait(for: [enumChange, codableChange], timeout: 10)
        XCTAssertEqual(settings.themeMode, .dark)
        XCTAssertEqual(settings.goals, ["fajr": 1])
    }

    func testAChangeByAnotherProcessIsObserved() throws {
        let settings = ObservedSettings(store: store)
        let changed = tracking("streak from a child") { _ = settings.currentStreak }
        let output = try Child.run(root, "group.com.rizq.test", ["set-json", "current_streak", "42"])
        XCTAssertEqual(output.status, 0, output.stderr)
        wait(for: [changed], timeout: 10)
        XCTAssertEqual(settings.currentStreak, 42)
    }

    func testOnlyTheKeysThatWereReadAreTracked() throws {
        let settings = ObservedSettings(store: store)
        let streakFired = Flag()
        withObservationTracking { _ = settings.currentStreak } onChange: { streakFired.set() }
        let themeChange = tracking("theme") { _ = settings.themeMode }
        settings.unrelated = 1
        store.set("light", forKey: "theme_mode")
        wait(for: [themeChange], timeout: 10)
        // Reports go out in order on one queue: once a later one has arrived, any report the
        // theme's change could have caused has arrived too.
        let later = tracking("goals") { _ = settings.goals }
        store.set(["a": 1], forKey: "goals")
        wait(for: [later], timeout: 10)
        XCTAssertFalse(streakFired.isSet, "the streak did not change")
    }

    func testAPlainClassStillWorksAndADeadObjectStopsListening() throws {
        final class PlainSettings {
            @UserDefault var currentStreak: Int
            init(store: SuiteStore) { _currentStreak = UserDefault("current_streak", defaultValue: 0, store: store) }
        }
        let plain = PlainSettings(store: store)
        plain.currentStreak = 2
        XCTAssertEqual(store.integer(forKey: "current_streak"), 2)

        weak var gone: ObservedSettings?
        do {
            let settings = ObservedSettings(store: store)
            _ = settings.currentStreak
            gone = settings
        }
        XCTAssertNil(gone, "a subscription does not keep its object alive")
        store.set(3, forKey: "current_streak")
        XCTAssertEqual(plain.currentStreak, 3)
    }
}
