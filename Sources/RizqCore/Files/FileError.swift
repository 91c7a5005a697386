import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong with a file or folder this package keeps, in words that name the path, what
/// was found and the fix: the one error of the file layer (``PrivateFile``, ``PrivateFolder``,
/// ``FileLock``, ``FileReplacement``, ``FileJournal``). Every module turns it into its own
/// error with ``reason`` (a suite's `SuiteStoreError.unreadable(path:reason:)`, the vault's
/// `VaultError.fileSystem`), so the words are the same wherever a file is refused.
package struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the caller was doing.
    package enum Operation: String, Sendable {
        case read = "read"
        case write = "write"
        case lock = "lock"
        case create = "create"
        case remove = "remove"
        case move = "move"
        case inspect = "inspect"
    }

    /// What was found.
    package enum Problem: Equatable, Sendable {
        /// A system call failed with this error number.
        case system(Errno)
        /// The path is a symbolic link, and the caller does not follow links there.
        case symbolicLink(target: String)
        /// The path is not the kind of file expected ("a FIFO (named pipe)", "a folder", …).
        case wrongKind(found: String, expected: String)
        /// Another user owns it: ``FileTrust`` accepts only this user or root.
        case foreignOwner(owner: UInt32, user: UInt32)
        /// Someone other than root owns an administrator's file (``FileTrust/administrator(_:seenFromSandbox:)``).
        case notAdministrators(owner: UInt32)
        /// Its mode lets other users write it (or, for a secret, read it).
        case tooOpen(mode: UInt32, what: String, fix: String)
        /// It is larger than the caller reads.
        case tooLarge(size: Int64, limit: Int)
        /// Another process held the lock for longer than the caller waits; who, and what to do.
        case lockTimedOut(waited: String, holders: String)
        /// It keeps changing while it is read or replaced (by a program that does not take the lock).
        case keepsChanging
        /// Another program replaced it during a write, and its version could not be put back: it
        /// is at this path now.
        case displaced(keptAt: String)
        /// It has more than one name (a hard link): a write to it would change another file too.
        case hardLinked(links: Int)
        /// It is inside a folder a sandboxed app of this user can write (``SandboxReach``), and
        /// what it says would be an instruction (a command, a path, a key): refused.
        case sandboxReach(folder: String)
    }

    /// The file or folder.
    package var path: String
    /// What the caller was doing.
    package var operation: Operation
    /// What was found.
    package var problem: Problem
    /// What the file is, for the words ("suite file", "vault", "key file"); empty: "file".
    package var subject: String

    package init(path: String, operation: Operation, problem: Problem, subject: String = "") {
        self.path = path
        self.operation = operation
        self.problem = problem
        self.subject = subject
    }

    /// The error of the system call that just failed (`errno` now).
    package static func current(_ path: String, _ operation: Operation, subject: String = "") -> FileError {
        FileError(path: path, operation: operation, problem: .system(.current), subject: subject)
    }

    /// Whether the problem is "it does not exist".
    package var isMissing: Bool { problem == .system(.noSuchFile) || problem == .system(.notADirectory) }

    /// Why, without the path: what was found and what to do (for errors that carry the path
    /// themselves): "it is a FIFO (named pipe), not a regular file, …".
    package var reason: String {
        if case .system(let code) = problem {
            return operation == .write || operation == .create || operation == .move ? FileWords.writeReason(code) : code.description
        }
        return "it " + phrase
    }

    /// The reason naming the file: "its lock file /x/.y.lock is a symbolic link (to …), …", for
    /// a message about another file than the one the error is about.
    package var namedReason: String {
        if case .system = problem { return "its \(subjectWord) \(path): \(reason)" }
        return "its \(subjectWord) \(path) " + phrase
    }

    /// What was found, as a predicate, with what to do after it: "is a symbolic link …; replace …".
    private var phrase: String {
        let (found, fix) = finding
        return fix.isEmpty ? found : found + "; " + fix
    }

    /// What was found, as a predicate ("is a symbolic link (to …), and …", "belongs to user
    /// 65534 (nobody), …"), and what to do about it ("" when there is nothing to do but wait):
    /// apart, for a report that lists findings and fixes in columns (`doctor`).
    package var finding: (found: String, fix: String) {
        switch problem {
        case .system(let code):
            return ("cannot be used: \(code)", "")
        case .symbolicLink(let target):
            return ("is a symbolic link (to \(target)), and this \(subjectWord) is never read or written through a link, so that no file elsewhere is touched",
                    "replace the link by the \(subjectWord) itself (rm '\(path)', then put the real one there)")
        case .wrongKind(let found, let expected):
            return ("is \(found), not \(expected), so it is not opened (a FIFO or a device would hang or feed anything)", "move it away (mv '\(path)' '\(path).moved')")
        case .notAdministrators(let owner):
            return ("belongs to user \(owner) (\(FileWords.userName(owner))), not to root, so someone other than an administrator could have written what it says",
                    "if an administrator wrote it, make it root's and writable by root alone (chown root:root '\(path)'; chmod go-w '\(path)'), else remove it")
        case .foreignOwner(let owner, let user):
            return ("belongs to user \(owner) (\(FileWords.userName(owner))), not to this user (\(user), \(FileWords.userName(user))) or root, so another user could have written what it says",
                    "if it is yours, chown it (chown \(FileWords.userName(user)) '\(path)'), else remove it")
        case .tooOpen(let mode, let what, let fix):
            return ("has mode \(String(mode & 0o7777, radix: 8)), so \(what)", fix.replacingOccurrences(of: FileTrust.pathMark, with: path))
        case .tooLarge(let size, let limit):
            return ("is \(FileWords.size(size)), over the \(FileWords.size(Int64(limit))) a \(subjectWord) may hold", "move it away (mv '\(path)' '\(path).moved')")
        case .lockTimedOut(let waited, let holders):
            return ("was still locked after waiting \(waited): held by \(holders)", "")
        case .keepsChanging:
            return ("keeps being changed by another program that does not take its lock", "stop that program and try again")
        case .displaced(let kept):
            return ("was replaced by another program during this write, and its version could not be put back; it is \(kept)",
                    "look at it and move it back by hand if it is the one to keep")
        case .hardLinked(let links):
            return ("has \(links) names (hard links), so writing it would change a file elsewhere too; this \(subjectWord) is written only when it is its own file",
                    "remove it (rm '\(path)'): it is made again")
        case .sandboxReach(let folder):
            return ("is \(SandboxReach.describe(folder)): a sandboxed app could have written it, so this \(subjectWord) is not believed (a file there is read as data, never as a command, a path, a key or a secret)",
                    "keep it outside \(folder): if you wrote it, move it (the docs say where), else remove it")
        }
    }

    /// "cannot read the vault /x/vault.age: it belongs to user 65534 (nobody), …".
    package var description: String {
        "cannot \(operation.rawValue) the \(subjectWord) \(path): \(reason)"
    }

    private var subjectWord: String { subject.isEmpty ? "file" : subject }
}
