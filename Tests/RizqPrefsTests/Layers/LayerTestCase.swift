import Foundation
import Synchronization
import XCTest
@testable import RizqPrefs

/// A test with a temporary root of suite files and a temporary `/etc/xdg` and `/usr/share`
/// (``AdministratorLayers``), pointed at by this process's XDG variables while it runs (suites
/// read their layer folders when they are first opened).
class LayerTestCase: XCTestCase {
    var root: TemporaryRoot!
    var layers: AdministratorLayers!
    private var saved: [String: String?] = [:]

    override func setUp() {
        super.setUp()
        root = TemporaryRoot()
        layers = AdministratorLayers(configCount: 2)
        for name in ["XDG_CONFIG_DIRS", "XDG_DATA_DIRS", "XDG_DATA_HOME"] {
            saved[name] = getenv(name).map { String(cString: $0) }
        }
        layers.setInProcess()
        setenv("XDG_DATA_HOME", root.path + "/data-home", 1)
    }

    override func tearDown() {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        root = nil
        layers = nil
        super.tearDown()
    }

    /// The app every test's suites belong to.
    let app = "com.rizq.layers"

    /// The app's standard suite under the test's root.
    func standard() throws -> SuiteStore {
        try SuiteStore(suite: app, appID: app, root: root.path)
    }

    /// The app's standard suite's file.
    var standardPath: String { root.path + "/apps/\(app)/\(app).json" }

    /// Records what `stream` delivers and lets a test wait for the `count`-th element: the wait
    /// ends on the delivery itself (an expectation fulfilled by it); the time-out only guards
    /// against a hang.
    final class Recorder<Element: Sendable>: Sendable {
        private struct State {
            var elements: [Element] = []
            var waiters: [(count: Int, expectation: XCTestExpectation)] = []
        }
        private let state = Mutex(State())
        private let task = Mutex<Task<Void, Never>?>(nil)

        init<S: AsyncSequence & Sendable>(_ stream: S) where S.Element == Element {
            let consumer = Task { [weak self] in
                do {
                    for try await element in stream { self?.add(element) }
                } catch {}
            }
            task.withLock { $0 = consumer }
        }

        deinit { task.withLock { $0?.cancel() } }

        private func add(_ element: Element) {
            let due = state.withLock { state -> [XCTestExpectation] in
                state.elements.append(element)
                let count = state.elements.count
                let due = state.waiters.filter { $0.count <= count }.map(\.expectation)
                state.waiters.removeAll { $0.count <= count }
                return due
            }
            for expectation in due { expectation.fulfill() }
        }

        /// Every element so far.
        var all: [Element] { state.withLock { $0.elements } }

        /// Waits until `count` elements have arrived; returns them.
        func wait(for count: Int, in test: XCTestCase) async -> [Element] {
            let expectation = XCTestExpectation(description: "\(count) deliveries")
            let arrived = state.withLock { state -> Bool in
                if state.elements.count >= count { return true }
                state.waiters.append((count, expectation))
                return false
            }
            if arrived { expectation.fulfill() }
            await test.fulfillment(of: [expectation], timeout: 60)
            return all
        }
    }
}
