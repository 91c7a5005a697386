#if canImport(Glibc)
import Glibc
#endif

/// The one journal of a multi-step operation that must be undone or finished after a crash (an
/// import's secret writes, a secret move between backends): lines appended to a file, each on
/// disk (`fdatasync`) before the step it announces begins, and the file's `flock` held for as
/// long as the operation runs — so another process tells a running operation (the lock is
/// taken) from a dead one (``withUnlocked(_:_:)``). A finished operation removes its journal.
///
/// What a line says is the caller's (JSON, never a secret); the journal keeps bytes. A line a
/// kill cut short is the last one, and reading drops it: the step it announced had not begun.
/// Files are 0600, in a folder judged by ``FileTrust/settings(_:)``, never opened through a link.
package final class FileJournal {
    /// The journal's path.
    package let path: String
    private var descriptor: Int32
    private let subject: String

    private init(path: String, descriptor: Int32, subject: String) {
        self.path = path
        self.descriptor = descriptor
        self.subject = subject
    }

    deinit { close(descriptor) }

    /// Starts a journal at `path` (which must not exist) with `lines`, locked: it is made under
    /// another name, locked, written and flushed, then renamed into place, so that no reader ever
    /// sees a journal that its running operation does not hold.
    package static func begin(_ path: String, lines: [[UInt8]], subject: String = "journal") throws(FileError) -> FileJournal {
        try PrivateFolder.ensure(PrivateFolder.parent(of: path), trust: .settings("folder"))
        let journal = try makeLocked(path + ".tmp-\(getpid())", lines: lines, subject: subject)
        do {
            try AtomicFile.move(journal.path, to: path, replacing: false, subject: subject)
        } catch {
            SystemCalls.unlink(journal.path)
            throw error
        }
        return FileJournal(path: path, descriptor: journal.takeDescriptor(), subject: subject)
    }

    /// Takes over the journal at `path` that a dead run left (its lines, complete ones only), or
    /// `nil` when there is none.
    /// - Throws: ``FileError/Problem/lockTimedOut(waited:holders:)`` when a running process
    ///   holds it; a refusal of the file (another user's, a link).
    package static func resume(_ path: String, subject: String = "journal") throws(FileError) -> (journal: FileJournal, lines: [[UInt8]])? {
        guard let file = try PrivateFile.open(path, trust: .settings(subject)) else { return nil }
        let descriptor = SystemCalls.open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileError.current(path, .write, subject: subject) }
        guard FileStamp.of(descriptor: descriptor)?.inode == file.stamp.inode, SystemCalls.flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw FileError(path: path, operation: .lock, problem: .lockTimedOut(waited: "0 s", holders: "another process running the same operation"), subject: subject)
        }
        let journal = FileJournal(path: path, descriptor: descriptor, subject: subject)
        return (journal, completeLines(try file.readAll(limit: 64 << 20)))
    }

    /// Appends `line` (a newline is added) and flushes it: on return, the step it announces may
    /// begin. An append that fails (a full disk) leaves the journal as it was: the part of the
    /// line that was written is cut off again, so that the next append does not end it.
    package func append(_ line: [UInt8]) throws(FileError) {
        var bytes = line
        bytes.append(0x0A)
        let end = lseek(descriptor, 0, SEEK_END)
        do {
            try DescriptorIO.writeAll(bytes, to: descriptor)
        } catch {
            if end >= 0 { _ = ftruncate(descriptor, end) }
            throw FileError(path: path, operation: .write, problem: .system(error), subject: subject)
        }
        guard SystemCalls.fdatasync(descriptor) == 0 else { throw FileError.current(path, .write, subject: subject) }
    }

    /// Replaces every line with `lines`, atomically (a crash leaves the old journal or the new
    /// one), the lock held throughout.
    package func rewrite(_ lines: [[UInt8]]) throws(FileError) {
        let fresh = try FileJournal.makeLocked(path + ".tmp-\(getpid())", lines: lines, subject: subject)
        do {
            try AtomicFile.move(fresh.path, to: path, replacing: true, subject: subject)
        } catch {
            SystemCalls.unlink(fresh.path)
            throw error
        }
        close(descriptor)
        descriptor = fresh.takeDescriptor()
    }

    /// Removes the journal: the operation finished, or was undone whole.
    package func finish() throws(FileError) {
        try AtomicFile.remove(path, subject: subject)
    }

    /// Reads the journal at `path` and calls `body` with its complete lines while holding its
    /// lock; `nil` when a running process holds it, or it is gone or not to be trusted.
    package static func withUnlocked<Result>(_ path: String, _ body: ([[UInt8]]) -> Result) -> Result? {
        guard let file = try? PrivateFile.open(path, trust: .settings("journal")) else { return nil }
        guard SystemCalls.flock(file.descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
        defer { _ = flock(file.descriptor, LOCK_UN) }
        guard let bytes = try? file.readAll(limit: 64 << 20) else { return nil }
        return body(completeLines(bytes))
    }

    /// The lines of `bytes` that end in a newline (a kill can cut only the last one short).
    package static func completeLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map(Array.init)
        if bytes.last != 0x0A, !lines.isEmpty { lines.removeLast() }
        return lines
    }

    private static func makeLocked(_ path: String, lines: [[UInt8]], subject: String) throws(FileError) -> FileJournal {
        let descriptor = SystemCalls.open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileError.current(path, .create, subject: subject) }
        let journal = FileJournal(path: path, descriptor: descriptor, subject: subject)
        do throws(FileError) {
            _ = SystemCalls.fchmod(descriptor, 0o600)
            guard SystemCalls.flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { throw FileError.current(path, .lock, subject: subject) }
            for line in lines { try journal.append(line) }
        } catch {
            SystemCalls.unlink(path)
            throw error
        }
        return journal
    }

    private func takeDescriptor() -> Int32 {
        let taken = descriptor
        descriptor = -1
        return taken
    }
}
