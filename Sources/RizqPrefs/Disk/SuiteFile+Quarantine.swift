import Logging
import RizqCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SuiteFile {
    /// Reads the file without its lock, taking the lock only to move a damaged file aside. The
    /// change times are those the file carries itself (an earlier release's extended attribute),
    /// else unknown (`nil`): the ``ChangeLog`` matches the file only under the lock
    /// (``load(_:)``), and only a reload with changes to rebase needs it. An open, with no
    /// changes yet, reads no change times at all (`withTimes` false).
    func loadRepairing(withTimes: Bool = true) throws(SuiteStoreError) -> Loaded {
        let contents = try read(withTimes: withTimes)
        if case .damaged(let reason, let stamp) = contents {
            return try withLock { lock throws(SuiteStoreError) in try repair(reason, stamp, lock) }
        }
        return Loaded(contents)
    }

    /// Moves the damaged file aside, unless it is replaced meanwhile by a sound one. Never
    /// writes over a damaged version, and gives up rather than loop.
    func repair(_ firstReason: String, _ firstStamp: FileStamp, _ lock: borrowing SuiteFileLock) throws(SuiteStoreError) -> Loaded {
        var reason = firstReason
        var stamp = firstStamp
        for _ in 0..<3 {
            // A writer that does not replace atomically (an editor saving in place) may be
            // half-way through: give it a moment before judging the file.
            usleep(100_000)
            if let moved = try quarantine(expecting: stamp, lock) {
                Logger.rizqPrefs.warning(
                    "suite file \(location.path) is damaged (\(reason)); moved it aside to \(moved) and started the suite empty; restore it by hand if you need its contents",
                    metadata: ["suite": "\(location.suiteName)"])
                return Loaded(movedAside: (moved, reason))
            }
            let contents = try read()
            guard case .damaged(let newReason, let newStamp) = contents else { return Loaded(contents) }
            (reason, stamp) = (newReason, newStamp)
        }
        throw .unreadable(path: location.path, reason: "it is damaged (\(reason)) and keeps changing")
    }

    /// Moves a damaged file aside as `<suite>.corrupt-<timestamp>.json`, byte for byte, and
    /// returns the new path. Only moves the file if it is still the version that was found
    /// damaged (`stamp`).
    func quarantine(expecting stamp: FileStamp, _ lock: borrowing SuiteFileLock) throws(SuiteStoreError) -> String? {
        guard try self.stamp() == stamp else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = location.directory + "/" + location.suiteName + ".corrupt-" + formatter.string(from: Date())
        var target = base + ".json"
        var attempt = 1
        while access(target, F_OK) == 0 {
            attempt += 1
            target = base + "-\(attempt).json"
        }
        do {
            try AtomicFile.move(location.path, to: target, replacing: false, subject: "suite file")
        } catch {
            throw .writeFailed(path: location.path, reason: "cannot move the damaged file aside: \(error.reason)")
        }
        return target
    }
}
