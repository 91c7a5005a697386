#if Secrets
#if canImport(Glibc)
import Glibc
#endif
import RizqCore

/// libsecret writing the same file keyring from another process: it takes no lock of ours.
/// Through GIO it checks the file's version (its etag) when it opens the file for writing, makes
/// a temporary file beside it (`.goutputstream-XXXXXX`), writes it and renames it over the
/// keyring. A write of ours that lands between libsecret's check and its rename is replaced —
/// an acknowledged write lost (the adversarial run: 7 of 465).
///
/// So after each write of ours, a `.goutputstream-…` in the folder is a libsecret writer in
/// flight, past its check: ``waitForWritersInFlight(folder:until:)`` waits for it to finish
/// (inotify, never a poll), and the store then looks whether its version is still the file's;
/// if not, it makes its change again on what libsecret wrote. What two writers can and cannot do
/// is in the RizqSecrets article ("In a Flatpak").
enum FileKeyringForeignWriter {
    /// The start of the temporary files GIO writes a file through.
    static let temporaryPrefix = ".goutputstream-"

    /// The most rounds a write makes again after a libsecret writer replaced it.
    static let maximumRewrites = 20

    /// How long a write waits for libsecret writers in flight, in milliseconds.
    static let waitMilliseconds: Int32 = 5_000

    /// Whether a libsecret writer is in flight in `folder` (a GIO temporary file is there).
    static func writerInFlight(folder: String) -> Bool {
        PrivateFolder.names(in: folder).contains { $0.hasPrefix(temporaryPrefix) }
    }

    /// Waits until no GIO temporary file is left in `folder` (each renamed into place, or
    /// removed), at most ``waitMilliseconds``: inotify on the folder, the names checked again at
    /// each event. Returns at once when there is none.
    static func waitForWritersInFlight(folder: String) {
        guard writerInFlight(folder: folder) else { return }
        let watcher = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard watcher >= 0 else { return }
        defer { close(watcher) }
        guard inotify_add_watch(watcher, folder, UInt32(IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)) >= 0 else { return }
        var left = waitMilliseconds
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Checked again once the watch is in place: a writer that finished meanwhile is seen.
        while writerInFlight(folder: folder), left > 0 {
            var entry = pollfd(fd: watcher, events: Int16(POLLIN), revents: 0)
            let started = HybridLogicalClock.systemMilliseconds()
            let ready = poll(&entry, 1, left)
            if ready < 0, errno != EINTR { return }
            if ready > 0 { _ = buffer.withUnsafeMutableBytes { read(watcher, $0.baseAddress, $0.count) } }
            left -= Int32(clamping: max(0, HybridLogicalClock.systemMilliseconds() - started))
        }
    }
}
#endif
