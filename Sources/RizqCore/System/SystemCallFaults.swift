#if RIZQ_FAULT_INJECTION
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Faults planned for the file layer's system calls (``SystemCalls``), for its tests: debug
/// builds only, in the manner of swift-system's `MockingDriver` — except that a call with no
/// fault planned is the real one, on real files.
///
/// A plan covers the calls of the thread that runs ``inject(_:)``'s body, and no other thread's:
///
/// ```swift
/// try SystemCallFaults.inject { faults in
///     faults.fail(.write, with: .interrupted, times: 2)   // two EINTRs, then the real write
///     faults.shorten(.write, to: 3)                       // every write moves at most 3 bytes
///     try AtomicFile.write(bytes, to: path)
///     XCTAssertEqual(faults.calls.last?.call, .fsync)      // what was called, in order
/// }
/// ```
package final class SystemCallFaults: @unchecked Sendable {
    /// What a planned fault does to a call.
    package enum Fault: Sendable, Equatable {
        /// The call fails with this error (`EINTR`: it is made again, as after a signal).
        case fail(Errno)
        /// A read or write moves at most this many bytes (a short count, as a signal or a full
        /// disk gives); other calls are made as they are.
        case shorten(Int)
    }

    /// One call made while the plan was in force.
    package struct MadeCall: Sendable, Equatable, CustomStringConvertible {
        /// Which call.
        package var call: SystemCalls.Call
        /// Its path, or its descriptor ("descriptor 5").
        package var detail: String
        /// The fault it was given, if any.
        package var fault: Fault?

        package var description: String { "\(call.rawValue) \(detail)" + (fault.map { " (\($0))" } ?? "") }
    }

    private struct Planned {
        var call: SystemCalls.Call
        var fault: Fault
        /// Calls of this kind to let through first.
        var skip: Int
        /// How many calls get the fault.
        var times: Int

        var isFailure: Bool { if case .fail = fault { true } else { false } }
    }

    private var planned: [Planned] = []
    /// Every call made under the plan (faulted or not), in order; an `EINTR` and its retry are two.
    package private(set) var calls: [MadeCall] = []
    /// Runs before each call (before its fault): where a crash test's child stops, says so and
    /// waits to be killed or let go.
    package var beforeEachCall: ((MadeCall) -> Void)?
    private let thread = pthread_self()

    private init() {}

    /// Fails the calls of kind `call` with `error`, `times` of them, after letting `skip` through.
    package func fail(_ call: SystemCalls.Call, with error: Errno, times: Int = 1, after skip: Int = 0) {
        planned.append(Planned(call: call, fault: .fail(error), skip: skip, times: times))
    }

    /// Makes each of `times` reads or writes (`call`) move at most `bytes` bytes.
    package func shorten(_ call: SystemCalls.Call, to bytes: Int, times: Int = .max, after skip: Int = 0) {
        planned.append(Planned(call: call, fault: .shorten(bytes), skip: skip, times: times))
    }

    /// Runs `body` with a fresh plan in force for this thread's file-layer calls.
    package static func inject<Result, Failure: Error>(_ body: (SystemCallFaults) throws(Failure) -> Result) throws(Failure) -> Result {
        let faults = SystemCallFaults()
        active.withLock { $0 = faults }
        armed.store(true, ordering: .releasing)
        defer {
            armed.store(false, ordering: .releasing)
            active.withLock { $0 = nil }
        }
        return try body(faults)
    }

    /// The fault for this call of `call` on this thread, if one is planned (``SystemCalls``).
    @inline(__always)
    static func fault(for call: SystemCalls.Call, _ detail: @autoclosure () -> String) -> Fault? {
        guard armed.load(ordering: .acquiring) else { return nil }
        guard let faults = active.withLock({ $0 }), pthread_equal(faults.thread, pthread_self()) != 0 else { return nil }
        return faults.next(call, detail())
    }

    /// Each plan counts the calls of its kind on its own; of the plans due for this call, the
    /// first failure wins over a shortening (a write can be interrupted and short in one plan).
    private func next(_ call: SystemCalls.Call, _ detail: String) -> Fault? {
        var made = MadeCall(call: call, detail: detail, fault: nil)
        beforeEachCall?(made)
        var chosen: Int?
        for index in planned.indices where planned[index].call == call {
            if planned[index].skip > 0 {
                planned[index].skip -= 1
            } else if let earlier = chosen {
                if planned[index].isFailure, !planned[earlier].isFailure { chosen = index }
            } else {
                chosen = index
            }
        }
        if let chosen {
            made.fault = planned[chosen].fault
            planned[chosen].times -= 1
            if planned[chosen].times == 0 { planned.remove(at: chosen) }
        }
        calls.append(made)
        return made.fault
    }

    private static let armed = Atomic<Bool>(false)
    private static let active = Mutex<SystemCallFaults?>(nil)
}
#endif
