import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a file or folder must be before this package believes what it says: the rule a caller
/// names when it opens one (``PrivateFile/open(_:trust:)``, ``PrivateFolder/check(_:trust:)``),
/// the same on the read path as on the write path.
///
/// A file is trusted because of who could have written it, never because of where it is (the
/// way ssh's `StrictModes` judges `authorized_keys`):
///
/// | rule | owner | mode refused | links |
/// | --- | --- | --- | --- |
/// | ``settings(_:)`` (suites, caches, sync state, journals) | this user or root; a root process: anyone (it keeps users' files theirs) | writable by others | never |
/// | ``configuration(_:)`` (a file that can name a command to run) | this user or root | writable by the group or others | never |
/// | ``secret(_:)`` (the vault, key and passphrase files, plain-text secrets) | this user or root | writable or readable by the group or others | never |
/// | ``hostProvided(_:)`` (credential folders: systemd, Docker, Kubernetes) | this user or root | writable by the group or others | followed, the target judged |
/// | ``input(_:)`` (a file the user names on the command line) | anyone | — | followed |
/// | ``administrator(_:)`` (an administrator's layer of preferences under `$XDG_CONFIG_DIRS`) | root | writable by the group or others | followed, every folder on the way judged (``TrustedPath``) |
///
/// The rules of files whose words are instructions or secrets (``configuration(_:)``,
/// ``secret(_:)``, ``hostProvided(_:)``) also refuse a file inside a folder a sandboxed app of
/// this user can write (``SandboxReach``): owned by this user, it may still be a sandbox's.
/// A secret's folder is refused writable by others even with the sticky bit.
///
/// Every rule refuses anything but a regular file (or a folder, for folders): a FIFO, socket or
/// device is never opened for reading, because a read from one can hang or never end. A folder
/// writable by others is accepted only with the sticky bit (`/tmp`, a Kubernetes volume's
/// mount point), where no one can replace another user's file: each file is then judged by
/// its own owner.
package struct FileTrust: Sendable, Equatable {
    /// Who may own it.
    package enum Owners: Sendable, Equatable {
        /// This process's effective user or root.
        case userOrRoot
        /// This process's effective user or root; a root process accepts any owner (a root
        /// service given a user's folder writes the user's files and keeps them the user's).
        case userOrRootOrAnyForRoot
        /// Anyone: the user named the file.
        case anyone
        /// Root only: an administrator's file, which no user (nor a sandboxed app running as
        /// one) may have written, whoever runs.
        case root
        /// Root, as a sandbox sees the host's files (`/run/host/etc` in a Flatpak): root, or the
        /// kernel's overflow user (`/proc/sys/kernel/overflowuid`, 65534), which is how a user
        /// namespace shows an owner it does not map — the host's root among them. No process in
        /// the sandbox can own a file as that user.
        case rootSeenFromSandbox
    }

    /// What the file is, for messages: "suite file", "vault", "key file".
    package var subject: String
    /// Who may own it.
    package var owners: Owners
    /// Refuse it when the group may write it.
    package var refusesGroupWrite: Bool
    /// Refuse it when other users may write it.
    package var refusesOtherWrite: Bool
    /// Refuse it when the group or other users may read it.
    package var refusesOthersRead: Bool
    /// Whether a final symbolic link is followed (and the file it names judged).
    package var followsLinks: Bool
    /// Refuse it inside a folder a sandboxed app of this user can write (``SandboxReach``):
    /// its words would be a sandbox's instructions to the host.
    package var refusesSandboxReach: Bool
    /// Accept a folder others may write when it has the sticky bit (`/tmp`, a volume's mount
    /// point): each file in it is then judged by its own owner.
    package var acceptsStickyFolders: Bool

    package init(
        subject: String, owners: Owners, refusesGroupWrite: Bool, refusesOtherWrite: Bool, refusesOthersRead: Bool, followsLinks: Bool,
        refusesSandboxReach: Bool = false, acceptsStickyFolders: Bool = true
    ) {
        self.subject = subject
        self.owners = owners
        self.refusesGroupWrite = refusesGroupWrite
        self.refusesOtherWrite = refusesOtherWrite
        self.refusesOthersRead = refusesOthersRead
        self.followsLinks = followsLinks
        self.refusesSandboxReach = refusesSandboxReach
        self.acceptsStickyFolders = acceptsStickyFolders
    }

    /// Preferences and state: suites, change logs, fleet caches, device-sync state and replicas,
    /// journals, markers.
    package static func settings(_ subject: String) -> FileTrust {
        FileTrust(subject: subject, owners: .userOrRootOrAnyForRoot, refusesGroupWrite: false, refusesOtherWrite: true, refusesOthersRead: false, followsLinks: false)
    }

    /// A file whose words can run a command or choose where secrets go (the secrets config file).
    package static func configuration(_ subject: String) -> FileTrust {
        FileTrust(
            subject: subject, owners: .userOrRoot, refusesGroupWrite: true, refusesOtherWrite: true, refusesOthersRead: false, followsLinks: false,
            refusesSandboxReach: true)
    }

    /// A secret, a key or a passphrase: nobody else may read or write it.
    package static func secret(_ subject: String) -> FileTrust {
        FileTrust(
            subject: subject, owners: .userOrRoot, refusesGroupWrite: true, refusesOtherWrite: true, refusesOthersRead: true, followsLinks: false,
            refusesSandboxReach: true, acceptsStickyFolders: false)
    }

    /// A secret the host delivers (systemd's credentials, Docker's and Kubernetes' secrets):
    /// owned by this user or root and written by nobody else; readable by others as the host
    /// chose (Docker's are 0444); links followed (Kubernetes' keys are links into `..data`).
    package static func hostProvided(_ subject: String) -> FileTrust {
        FileTrust(
            subject: subject, owners: .userOrRoot, refusesGroupWrite: true, refusesOtherWrite: true, refusesOthersRead: false, followsLinks: true,
            refusesSandboxReach: true)
    }

    /// An administrator's file (a layer of managed values or defaults, an installed schema):
    /// owned by root and written by nobody else, in folders owned by root and written by nobody
    /// else, all the way from `/` (``TrustedPath`` judges every folder on the way, and follows
    /// links only through such folders). A user's own file never passes, even one of mode 0644:
    /// a user, or a sandboxed app running as the user, must not set what an administrator sets.
    ///
    /// `seenFromSandbox`: the host's files as a Flatpak sandbox sees them (under `/run/host`),
    /// where the host's root shows as the overflow user (``Owners/rootSeenFromSandbox``).
    package static func administrator(_ subject: String, seenFromSandbox: Bool = false) -> FileTrust {
        FileTrust(
            subject: subject, owners: seenFromSandbox ? .rootSeenFromSandbox : .root, refusesGroupWrite: true, refusesOtherWrite: true,
            refusesOthersRead: false, followsLinks: true)
    }

    /// The user a user namespace shows for an owner it does not map (`/proc/sys/kernel/overflowuid`).
    package static let overflowUser: UInt32 = {
        guard let text = try? PrivateFile.read("/proc/sys/kernel/overflowuid", trust: .input("overflow user"), limit: 32)?.bytes,
            let user = UInt32(String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { return 65534 }
        return user
    }()

    /// A file the user named: read as it is, wherever it is.
    package static func input(_ subject: String) -> FileTrust {
        FileTrust(subject: subject, owners: .anyone, refusesGroupWrite: false, refusesOtherWrite: false, refusesOthersRead: false, followsLinks: true)
    }

    /// The same rule, following a final link (a user's key file may be one) or not.
    package func following(_ links: Bool) -> FileTrust {
        var copy = self
        copy.followsLinks = links
        return copy
    }

    /// The rule's problem with a file of `info` (from `fstat` of the open descriptor), or `nil`.
    /// `expectsFolder` judges a folder rather than a regular file.
    package func problem(with info: stat, expectsFolder: Bool = false) -> FileError.Problem? {
        let kind = info.st_mode & S_IFMT
        let expected: mode_t = expectsFolder ? S_IFDIR : S_IFREG
        guard kind == expected else {
            return .wrongKind(found: FileWords.kindName(info.st_mode), expected: expectsFolder ? "a folder" : "a regular file")
        }
        let user = geteuid()
        switch owners {
        case .anyone:
            return nil
        case .userOrRoot:
            if info.st_uid != user && info.st_uid != 0 { return .foreignOwner(owner: info.st_uid, user: user) }
        case .userOrRootOrAnyForRoot:
            if user != 0, info.st_uid != user, info.st_uid != 0 { return .foreignOwner(owner: info.st_uid, user: user) }
        case .root:
            if info.st_uid != 0 { return .notAdministrators(owner: info.st_uid) }
        case .rootSeenFromSandbox:
            if info.st_uid != 0, info.st_uid != Self.overflowUser { return .notAdministrators(owner: info.st_uid) }
        }
        let mode = UInt32(info.st_mode)
        let sticky = expectsFolder && acceptsStickyFolders && info.st_mode & S_ISVTX != 0
        if refusesOtherWrite, info.st_mode & S_IWOTH != 0, !sticky {
            return .tooOpen(mode: mode, what: "any user can write it", fix: "make it yours alone (chmod o-w '%PATH%')")
        }
        if refusesGroupWrite, info.st_mode & S_IWGRP != 0, !sticky {
            return .tooOpen(mode: mode, what: "its group can write it", fix: "make it yours alone (chmod g-w,o-w '%PATH%')")
        }
        if refusesOthersRead, !expectsFolder, info.st_mode & (S_IRGRP | S_IROTH) != 0 {
            return .tooOpen(mode: mode, what: "other users can read it", fix: "make it private (chmod 600 '%PATH%')")
        }
        return nil
    }

    /// ``problem(with:expectsFolder:)`` as the error for `path`.
    package func check(_ info: stat, path: String, operation: FileError.Operation, expectsFolder: Bool = false) throws(FileError) {
        guard let problem = problem(with: info, expectsFolder: expectsFolder) else { return }
        throw FileError(path: path, operation: operation, problem: problem, subject: subject)
    }

    /// The rule's problem with where the file or folder is: inside a folder a sandboxed app can
    /// write (only for rules that ``refusesSandboxReach``), or `nil`. `descriptor`: the open file
    /// (judged by the path the kernel knows it by), else `path` itself.
    package func placeProblem(path: String, descriptor: Int32? = nil, info: stat) -> FileError.Problem? {
        guard refusesSandboxReach else { return nil }
        let reach = SandboxReach.current
        let folder = descriptor.flatMap { reach.folder(holdingDescriptor: $0, info: info) } ?? reach.folder(holding: path)
        return folder.map { .sandboxReach(folder: $0) }
    }

    /// Where a fix names the file's path (``FileError`` puts the path in).
    static let pathMark = "%PATH%"
}
