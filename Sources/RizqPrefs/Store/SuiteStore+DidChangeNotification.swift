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

    /// Makes sure a post of ``didChangeNotification`` comes after this one-key write: one is
    /// scheduled and has not started, or one is being posted and is marked to be posted again
    /// once it ends, or this write schedules one. The poster posts again as long as writes mark
    /// it, so a burst of writes costs one dispatch to the post queue, not one per post, and a
    /// write in a burst pays one atomic load (or, once per post, one compare-and-exchange).
    /// Never more posts than writes: each post after the first was asked for by a write.
    @usableFromInline
    func postDidChangeSoon() {
        // Sequentially consistent: the load is not moved before the write's unlock of the
        // memory, so a post it relies on starts after the write.
        var state = didChangePostState.load(ordering: .sequentiallyConsistent)
        while true {
            switch DidChangePostState(rawValue: state) {
            case .scheduled, .postingAgain:
                return
            case .posting:
                let (marked, found) = didChangePostState.compareExchange(
                    expected: state, desired: DidChangePostState.postingAgain.rawValue, ordering: .sequentiallyConsistent)
                if marked { return }
                state = found
            case .idle, nil:
                let (scheduled, found) = didChangePostState.compareExchange(
                    expected: state, desired: DidChangePostState.scheduled.rawValue, ordering: .sequentiallyConsistent)
                if scheduled {
                    DidChangeRelay.postQueue.async { [self] in postBurst() }
                    return
                }
                state = found
            }
        }
    }

    /// On the post queue: posts, then again for as long as writes made during a post mark it.
    private func postBurst() {
        didChangePostState.store(DidChangePostState.posting.rawValue, ordering: .sequentiallyConsistent)
        while true {
            NotificationCenter.default.post(name: Self.didChangeNotification, object: self)
            let (ended, _) = didChangePostState.compareExchange(
                expected: DidChangePostState.posting.rawValue, desired: DidChangePostState.idle.rawValue, ordering: .sequentiallyConsistent)
            if ended { return }
            // A write came during the post (``DidChangePostState/postingAgain``).
            didChangePostState.store(DidChangePostState.posting.rawValue, ordering: .sequentiallyConsistent)
        }
    }
}

/// Where the posts of one store's one-key writes stand (``SuiteStore/postDidChangeSoon()``).
enum DidChangePostState: UInt8 {
    /// No post to come: a write schedules one.
    case idle
    /// A post is on the post queue and has not started: it comes after every write made now.
    case scheduled
    /// A post is being made: a write made now marks it to be made again.
    case posting
    /// A post is being made, and another is to follow it.
    case postingAgain
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
        // A one-shot process (``SuiteStore/openWithoutWatching()``) is told of no other
        // process's change, and has nobody to post to: no relay (its table and the observer
        // cost a `rizq-prefs get` a tenth of its work).
        guard OpenSuite.watchesFiles.load(ordering: .relaxed) else { return }
        let openSuite = store.openSuite
        let (relay, isNew) = relays.withLock { table -> (DidChangeRelay, Bool) in
            if let existing = table[ObjectIdentifier(openSuite)] { return (existing, false) }
            let relay = DidChangeRelay()
            table[ObjectIdentifier(openSuite)] = relay
            return (relay, true)
        }
        relay.state.withLock { state in
            state.stores.removeAll { $0.store == nil }
            state.stores.append(WeakStore(store: store))
        }
        if isNew {
            // Backends live as long as the process (the registry keeps them), and so does this.
            _ = openSuite.memory.addObserver(key: nil, externalOnly: true, once: true) { [relay] _ in
                relay.schedulePost()
            }
        }
    }

    /// The longest-lived store of `openSuite`'s suite in this process, if any is alive.
    static func primaryStore(of openSuite: OpenSuite) -> SuiteStore? {
        relays.withLock { $0[ObjectIdentifier(openSuite)] }?.primaryStore
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
