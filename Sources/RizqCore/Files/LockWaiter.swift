import Dispatch
import Foundation

import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A bounded wait for a lock file's `flock`: Linux has no `flock` with a time-out, and polling
/// with `LOCK_NB` loses the lock to blocked waiters and leaves it idle between polls. So the
/// blocking `flock` runs on a thread of its own while the caller waits for it with a deadline.
/// A caller that gives up leaves the waiter behind, marked abandoned: when it gets the lock it
/// lets go at once and closes its descriptor; until then the next wait for the same lock file
/// takes it over instead of starting another thread (``wait(on:path:operation:until:)``).
///
/// Only a lock that another process holds reaches here: ``SuiteFile`` first tries `LOCK_NB`,
/// which is all an uncontended write costs.
package final class LockWaiter: Sendable {
    /// What became of a wait.
    package enum Outcome {
        /// The lock is held, on this descriptor (which the caller now owns).
        case acquired(Int32)
        /// The deadline passed first.
        case timedOut
        /// `flock` failed with this errno.
        case failed(Int32)
    }

    private enum State {
        case waiting(abandoned: Bool)
        case acquired
        case failed(Int32)
        /// Got the lock after its caller had gone, and let go of it.
        case finished
    }

    /// The lock file's descriptor that the `flock` is on.
    let descriptor: Int32
    /// Which file that is.
    let file: (device: UInt64, inode: UInt64)
    let operation: Int32
    private let state = Mutex(State.waiting(abandoned: false))
    private let done = DispatchSemaphore(value: 0)

    /// Waiters whose caller gave up, by lock path, for the next wait to take over.
    private static let abandoned = Mutex<[String: LockWaiter]>([:])

    private init(descriptor: Int32, file: (device: UInt64, inode: UInt64), operation: Int32) {
        self.descriptor = descriptor
        self.file = file
        self.operation = operation
    }

    /// Waits until `deadline` (`nil`: for ever) for `operation` (`LOCK_EX` or `LOCK_SH`) on
    /// `descriptor`, the lock file `file` at `path`. The descriptor becomes the waiter's: on
    /// ``Outcome/acquired(_:)`` the returned one is the caller's to use and close (it may be an
    /// earlier waiter's, on the same file); otherwise it is closed for the caller, now or when
    /// the abandoned wait ends.
    package static func wait(
        on descriptor: Int32, file: (device: UInt64, inode: UInt64), path: String, operation: Int32, until deadline: DispatchTime?
    ) -> Outcome {
        let waiter: LockWaiter
        if let earlier = takeOver(path: path, file: file, operation: operation) {
            close(descriptor)
            waiter = earlier
        } else {
            waiter = LockWaiter(descriptor: descriptor, file: file, operation: operation)
            let thread = Thread { waiter.run() }
            thread.name = "RizqCore.LockWaiter"
            thread.start()
        }
        return waiter.finish(waiting: deadline, path: path)
    }

    /// An abandoned waiter for the same file and operation, still waiting: now this caller's.
    private static func takeOver(path: String, file: (device: UInt64, inode: UInt64), operation: Int32) -> LockWaiter? {
        abandoned.withLock { table in
            guard let earlier = table[path] else { return nil }
            table[path] = nil
            guard earlier.file == file, earlier.operation == operation else { return nil }
            let adopted = earlier.state.withLock { state -> Bool in
                guard case .waiting(abandoned: true) = state else { return false }
                state = .waiting(abandoned: false)
                return true
            }
            return adopted ? earlier : nil
        }
    }

    private func run() {
        var result: Int32 = 0
        do throws(Errno) {
            _ = try Errno.retryingOnInterrupt { flock(descriptor, operation) }
        } catch {
            result = error.rawValue
        }
        let release = state.withLock { state -> Bool in
            guard case .waiting(let abandoned) = state else { return false }
            if abandoned {
                state = .finished
                return true
            }
            state = result == 0 ? .acquired : .failed(result)
            return false
        }
        if release {
            if result == 0 { _ = flock(descriptor, LOCK_UN) }
            close(descriptor)
        }
        done.signal()
    }

    private func finish(waiting deadline: DispatchTime?, path: String) -> Outcome {
        let arrived = deadline.map { done.wait(timeout: $0) == .success } ?? { done.wait(); return true }()
        let outcome = state.withLock { state -> Outcome? in
            switch state {
            case .acquired: return .acquired(descriptor)
            case .failed(let code): return .failed(code)
            case .finished: return .failed(EBADF)
            case .waiting:
                state = .waiting(abandoned: true)
                return nil
            }
        }
        if let outcome {
            if arrived == false { done.wait() }  // the signal that came as the deadline passed
            if case .failed = outcome { close(descriptor) }
            return outcome
        }
        Self.abandoned.withLock { table in
            // One waiter kept per lock path: an older one still waiting lets go by itself.
            table[path] = self
        }
        return .timedOut
    }
}
