import Synchronization
import RizqCore

/// A running ``MountedFolder/observe(_:)``: its handler is called until ``cancel()`` (or until
/// this value is released).
public final class MountedFolderObservation: Sendable {
    private let token: Mutex<MountWatcher.Token?>

    init(token: MountWatcher.Token) {
        self.token = Mutex(token)
    }

    deinit { cancel() }

    /// Stops the calls; the folder's watch ends with its last observer. Calling it again does
    /// nothing.
    public func cancel() {
        guard let token = token.withLock({ token -> MountWatcher.Token? in
            defer { token = nil }
            return token
        }) else { return }
        MountWatcher.shared.unsubscribe(token)
    }
}

extension MountedFolder {
    /// Calls `handler` with the folder's snapshot now (before this returns), then with each new
    /// one, as ``updates()`` delivers them, but on the watcher's own thread: no hand-over to a
    /// task, for code that is not async or must see a swap at once (a cache to swap, a
    /// reload to start). Keep `handler` short: every folder's snapshots wait for it.
    ///
    /// ```swift
    /// let observation = try MountedFolder("/etc/config").observe { snapshot in
    ///     cache.replace(with: snapshot)
    /// }
    /// // …
    /// observation.cancel()
    /// ```
    /// - Throws: ``MountError`` when the folder cannot be read now.
    public func observe(_ handler: @escaping @Sendable (MountedSnapshot) -> Void) throws(MountError) -> MountedFolderObservation {
        MountedFolderObservation(token: try MountWatcher.shared.subscribe(self, handler: handler))
    }
}
