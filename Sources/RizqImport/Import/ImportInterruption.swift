#if Secrets
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A stop asked of a running import — by SIGINT, SIGTERM or SIGHUP once ``watchSignals(_:onFirst:)``
/// is on, or by ``request(signal:)`` — which the ``Importer`` honours at its next step: before
/// each secret write, each suite commit and the record. What it wrote is rolled back (the same
/// rollback as after a failure) and it throws ``ImportError/interrupted(signal:rollback:)``. An
/// import that has recorded itself is complete and ignores the stop.
///
/// A second signal while the rollback waits (a slow keyring) ends the process at once: the
/// import's journal (``ImportJournal``) then tells the next import what to remove.
package final class ImportInterruption: Sendable {
    private let state = Mutex<(signal: Int32?, count: Int)>((nil, 0))
    private let sources = Mutex<[SignalSource]>([])

    /// A dispatch signal source, which Dispatch lets any thread cancel.
    private struct SignalSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }

    /// The signals an import stops on.
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// A stop that nothing has asked for yet.
    package init() {}

    /// The signal that asked for the stop (``request(signal:)``'s too), or `nil`.
    package var signal: Int32? { state.withLock { $0.signal } }

    /// Asks for the stop, as `signal` would. Returns how many stops were asked so far.
    @discardableResult
    package func request(signal: Int32 = SIGINT) -> Int {
        state.withLock { state in
            if state.signal == nil { state.signal = signal }
            state.count += 1
            return state.count
        }
    }

    /// Catches ``signals`` from now on: the first asks for the stop and calls `onFirst` (to tell
    /// the user); the second ends the process by that signal, at once.
    package func watchSignals(_ signals: [Int32] = ImportInterruption.signals, onFirst: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            _ = Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if self.request(signal: number) == 1 {
                    onFirst(number)
                } else {
                    Self.end(by: number)
                }
            }
            source.resume()
            let held = SignalSource(source: source)
            sources.withLock { $0.append(held) }
        }
    }

    /// Gives the signals back their default action (the import is over).
    package func stopWatching() {
        let stopped = sources.withLock { sources in
            defer { sources = [] }
            return sources
        }
        for held in stopped { held.source.cancel() }
        for number in Self.signals { _ = Glibc.signal(number, SIG_DFL) }
    }

    /// Ends the process by `number` with its default action, so that the shell that started it
    /// sees it killed by that signal (status 128 + N: 130 for Ctrl-C), as for any tool.
    package static func end(by number: Int32) -> Never {
        _ = Glibc.signal(number, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, number)
        sigprocmask(SIG_UNBLOCK, &unblocked, nil)
        kill(getpid(), number)
        // The default action of these signals ends the process; should it not, end it anyway.
        _exit(128 + number)
    }

}
#endif
