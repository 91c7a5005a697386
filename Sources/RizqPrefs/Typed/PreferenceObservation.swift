import Dispatch
import Observation
import Synchronization

/// Reports a property wrapper's reads and changes to the Observation framework, so that a
/// ``UserDefault`` inside an `@Observable` class is observed like its other properties —
/// `withObservationTracking` (and SwiftUI) see a change made through the property, through
/// any other store of the suite in this process, or by another process.
///
/// The property must be marked `@ObservationIgnored`: the `@Observable` macro cannot rewrite a
/// wrapped property, and this takes over its job.
///
/// ```swift
/// @Observable final class AppSettings {
///     @ObservationIgnored @UserDefault("current_streak", defaultValue: 0) var currentStreak: Int
/// }
/// ```
final class PreferenceObservation: Sendable {
    private enum Mode {
        /// Not yet read from an `@Observable` object.
        case unsubscribed
        /// The first read is subscribing.
        case subscribing
        /// `subscription` follows the key's changes in the suite.
        case subscribed(subscription: UInt64, openSuite: OpenSuite)
    }

    private let registrar = ObservationRegistrar()
    private let mode = Mutex(Mode.unsubscribed)
    /// Where changes seen under a suite's lock are reported, after the lock is released.
    private static let queue = DispatchQueue(label: "RizqPrefs.observation")

    deinit {
        if case .subscribed(let subscription, let openSuite) = mode.withLock({ $0 }) {
            openSuite.memory.removeObserver(subscription)
        }
    }

    /// The property's value, reporting the read when the class is `@Observable`.
    static func read<Enclosing: AnyObject, Value>(
        _ instance: Enclosing, _ keyPath: ReferenceWritableKeyPath<Enclosing, Value>, key: Key<Value>, observation: PreferenceObservation
    ) -> Value {
        if let observable = instance as? any Observable & AnyObject {
            observation.reportRead(observable, keyPath, key: key)
        }
        return key.value
    }

    /// Stores `newValue`, reporting the change (before it is made, as Observation expects) when
    /// the class is `@Observable`.
    static func write<Enclosing: AnyObject, Value>(
        _ instance: Enclosing, _ keyPath: ReferenceWritableKeyPath<Enclosing, Value>, _ newValue: Value, key: Key<Value>,
        observation: PreferenceObservation
    ) {
        if let observable = instance as? any Observable & AnyObject {
            observation.reportWrite(observable, keyPath, Value.self) { key.value = newValue }
        } else {
            key.value = newValue
        }
    }

    private func reportRead<Subject: Observable & AnyObject, Value>(_ subject: Subject, _ anyKeyPath: AnyKeyPath, key: Key<Value>) {
        guard let keyPath = anyKeyPath as? KeyPath<Subject, Value> else { return }
        registrar.access(subject, keyPath: keyPath)
        subscribeOnce(subject, keyPath, key: key)
    }

    private func reportWrite<Subject: Observable & AnyObject, Value>(_ subject: Subject, _ anyKeyPath: AnyKeyPath, _: Value.Type, _ body: () -> Void) {
        guard let keyPath = anyKeyPath as? KeyPath<Subject, Value> else { return body() }
        registrar.withMutation(of: subject, keyPath: keyPath, body)
    }

    /// From the first read on, every change of the key in the suite — also other stores' and
    /// other processes' — is reported as a change of the property.
    private func subscribeOnce<Subject: Observable & AnyObject, Value>(_ subject: Subject, _ keyPath: KeyPath<Subject, Value>, key: Key<Value>) {
        let needed = mode.withLock { mode -> Bool in
            guard case .unsubscribed = mode else { return false }
            mode = .subscribing
            return true
        }
        guard needed else { return }
        let openSuite = key.store.openSuite
        let reporter: any ChangeReporter = SubjectReporter(subject, keyPath, registrar)
        let subscription = openSuite.memory.addObserver(key: key.name) { _ in
            // Called under the suite's lock: report after it, on a thread of our own.
            Self.queue.async { reporter.report() }
        }
        mode.withLock { $0 = .subscribed(subscription: subscription, openSuite: openSuite) }
    }
}

/// Reports a change of one property of one object; held as an existential by the suite's
/// observer, so that the observer captures no metatype of the object's class.
private protocol ChangeReporter: Sendable {
    func report()
}

/// The observed object, held weakly (a subscription must not keep its object alive), its
/// property and the registrar to tell.
private final class SubjectReporter<Subject: Observable & AnyObject, Value>: ChangeReporter, @unchecked Sendable {
    // Unchecked: `subject` and `keyPath` are only handed to the registrar, which is thread-safe.
    private weak var subject: Subject?
    private let keyPath: KeyPath<Subject, Value>
    private let registrar: ObservationRegistrar

    init(_ subject: Subject, _ keyPath: KeyPath<Subject, Value>, _ registrar: ObservationRegistrar) {
        self.subject = subject
        self.keyPath = keyPath
        self.registrar = registrar
    }

    func report() {
        guard let subject else { return }
        registrar.willSet(subject, keyPath: keyPath)
        registrar.didSet(subject, keyPath: keyPath)
    }
}
