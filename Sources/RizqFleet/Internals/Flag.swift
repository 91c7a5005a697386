#if Fleet
import Synchronization

/// A boolean that closures running on other tasks can share (an `Atomic` cannot be captured).
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set(_ newValue: Bool = true) {
        value.store(newValue, ordering: .releasing)
    }
}
#endif
