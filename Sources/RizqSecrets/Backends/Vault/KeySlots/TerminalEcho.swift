#if Secrets
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Echo turned off on a terminal for as long as a secret is typed, and turned back on whatever
/// happens: on return, on a thrown error, and when SIGINT, SIGTERM, SIGHUP or SIGQUIT ends the
/// process in the middle of the prompt (Ctrl-C), which would otherwise leave the user's shell
/// echoing nothing. The handler restores the terminal's settings, then lets the signal do what it
/// would have done (it is raised again with its default action).
///
/// A signal this process ignores, or handles itself, keeps its disposition: only those that
/// would end the process are taken over, for the length of the prompt.
package enum TerminalEcho {
    /// The signals that end a process at a prompt.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// One prompt at a time: the saved settings the signal handler puts back.
    private static let prompting = Mutex(false)

    /// Runs `body` with echo off on `descriptor` (a terminal; anything else runs `body` as it
    /// is). `echoNewline`: the newline typed at the end still shows (ECHONL).
    package static func withEchoOff<T, Failure: Error>(on descriptor: Int32, echoNewline: Bool, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0, prompting.withLock({ busy in
            defer { busy = true }
            return !busy
        }) else {
            return try body()
        }
        defer { prompting.withLock { $0 = false } }
        SavedTerminal.descriptor = descriptor
        SavedTerminal.settings = original
        var taken: [Int32] = []
        for signal in signals {
            let previous = Glibc.signal(signal, restoreEchoAndRaise)
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_DFL, to: Int.self) {
                taken.append(signal)
            } else {
                _ = Glibc.signal(signal, previous)
            }
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        if echoNewline { silent.c_lflag |= tcflag_t(ECHONL) }
        _ = tcsetattr(descriptor, TCSAFLUSH, &silent)
        defer {
            _ = tcsetattr(descriptor, TCSAFLUSH, &original)
            for signal in taken { _ = Glibc.signal(signal, SIG_DFL) }
            SavedTerminal.descriptor = -1
        }
        return try body()
    }
}

/// What the signal handler reads: set before it is installed, cleared after it is removed.
private enum SavedTerminal {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var settings = termios()
}

/// The handler: async-signal-safe calls only (tcsetattr, signal, raise).
private func restoreEchoAndRaise(_ signal: Int32) {
    if SavedTerminal.descriptor >= 0 {
        _ = tcsetattr(SavedTerminal.descriptor, TCSANOW, &SavedTerminal.settings)
    }
    _ = Glibc.signal(signal, SIG_DFL)
    _ = raise(signal)
}
#endif
