import Dispatch
import Foundation
import Synchronization

extension SuiteStore {
    /// Posted on `NotificationCenter.default` when the suite changes, as Foundation posts
    /// `UserDefaults.didChangeNotification` (the same name, so observers of either see both),
    /// with a store of the suite as the notification's `object` and no `userInfo`.
    ///
    /// - A call that changes several keys at once through a ``SuiteStore`` of this process (a
    ///   `batch`, a `commit` and its revert, `setPersistentDomain`, `removePersistentDomain`) is
    ///   posted synchronously, on the thread that made it, once per call, with that store as
    ///   the `object`, as Foundation does (its own tests of these calls pass unchanged).
    /// - A one-key write (`set`, `removeObject`, `put`, a typed key's write) is posted once per
    ///   burst of such writes, on a background thread, just after it: a post costs several times
    ///   what the write itself costs (`NotificationCenter` looks the object up through a dynamic
    ///   cast), and programs write keys in loops. Every write is followed by a post that comes
    ///   after it, so an observer reading the store sees the value; the `object` is the store
    ///   that wrote. (Foundation on Linux posts nothing for these writes; Apple's platforms post
    ///   each one.)
    /// - A change written by another process (or by hand) is posted too — Foundation does not —
    ///   once per burst of changes, on a background thread, with a store of that suite as the
    ///   `object` (the longest-lived one of this process).
    ///
    /// ```swift
    /// let token = NotificationCenter.default.addObserver(
    ///     forName: SuiteStore.didChangeNotification, object: nil, queue: .main) { _ in
    ///     refreshSettingsScreen()
    /// }
    /// ```
    ///
    /// To learn which key changed and to what, use ``changes(forKey:)`` or ``changes()``: they
    /// are told of every change, synchronously.
    public static let didChangeNotification = Notification.Name("NSUserDefaultsDidChangeNotification")

    /// Posts ``didChangeNotification`` for a change this store made, on this thread. Called
    /// after the change, outside every lock: observers may read the store.
    @usableFromInline
    func postDidChange() {
        NotificationCenter.default.post(name: Self.didChangeNotification, object: self)
    }

    /// Schedules one post of ``didChangeNotification`` for a one-key write this store made,
    /// unless one is scheduled and has not started yet: that one comes after this write, so it
    /// covers it. The post clears the flag before it posts, so a write made once it started
    /// schedules another. A write in a burst pays one atomic load.
    @usableFromInline
    func postDidChangeSoon() {
        guard !didChangePostScheduled.load(ordering: .relaxed),
              !didChangePostScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DidChangeRelay.postQueue.async { [self] in
            didChangePostScheduled.store(false, ordering: .releasing)
            NotificationCenter.default.post(name: Self.didChangeNotification, object: self)
        }
    }
}

/// Posts ``SuiteStore/didChangeNotification`` for other processes' changes to one suite, and
/// knows which stores of this process name the suite (the notification's `object`).
final class DidChangeRelay: Sendable {
    private struct WeakStore {
        weak var store: SuiteStore?
    }

    private struct State {
        var stores: [WeakStore] = []
        var postScheduled = false
    }

    private static let relays = Mutex<[ObjectIdentifier: DidChangeRelay]>([:])
    /// One thread for every suite's posts: an observer on `.main` makes the poster wait until the
    /// main thread has run it, so the posts must not wait on a suite's own queue.
    static let postQueue = DispatchQueue(label: "RizqPrefs.didChangeNotification")

    private let state = Mutex(State())

    /// Records `store` as a store of its suite; the first one of a suite starts listening for
    /// other processes' changes.
    static func attach(_ store: SuiteStore) {
        let engine = store.engine
        let (relay, isNew) = relays.withLock { table -> (DidChangeRelay, Bool) in
            if let existing = table[ObjectIdentifier(engine)] { return (existing, false) }
            let relay = DidChangeRelay()
            table[ObjectIdentifier(engine)] = relay
            return (relay, true)
        }
        relay.state.withLock { state in
            state.stores.removeAll { $0.store == nil }
            state.stores.append(WeakStore(store: store))
        }
        if isNew {
            // Backends live as long as the process (the registry keeps them), and so does this.
            _ = engine.replica.addObserver(key: nil, externalOnly: true, once: true) { [relay] _ in
                relay.schedulePost()
            }
        }
    }

    /// The longest-lived store of `engine`'s suite in this process, if any is alive.
    static func primaryStore(of engine: SuiteEngine) -> SuiteStore? {
        relays.withLock { $0[ObjectIdentifier(engine)] }?.primaryStore
    }

    private var primaryStore: SuiteStore? {
        state.withLock { state in Self.firstAlive(state.stores) }
    }

    /// The first store still alive. Not `lazy.compactMap(\.store).first`: that reads each weak
    /// reference twice (finding the index, then the element) and traps when another thread
    /// releases the store in between — which crashed a test process once.
    private static func firstAlive(_ stores: [WeakStore]) -> SuiteStore? {
        for entry in stores {
            if let store = entry.store { return store }
        }
        return nil
    }

    /// Runs under the suite's state lock: only schedules, never posts here.
    private func schedulePost() {
        let schedule = state.withLock { state -> Bool in
            guard !state.postScheduled else { return false }
            state.postScheduled = true
            return true
        }
        guard schedule else { return }
        Self.postQueue.async { [self] in
            let object = state.withLock { state -> SuiteStore? in
                state.postScheduled = false
                return Self.firstAlive(state.stores)
            }
            NotificationCenter.default.post(name: SuiteStore.didChangeNotification, object: object)
        }
    }
}
