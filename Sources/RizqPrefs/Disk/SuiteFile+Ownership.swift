#if canImport(Glibc)
import Glibc
#endif

/// Who owns what a write makes: a root process writing a user's suite (`sudo -E`, a root
/// service given the user's `RIZQ_PREFS_HOME`) keeps the suite file, its lock file, its change
/// log and its folders the user's — each new file or folder takes the owner of the file it
/// replaces, or of the folder it is made in. Without this, the first root write made the suite
/// `root:root` and mode 0600, and the user's own app then failed with "Permission denied".
///
/// A process that is not root cannot give a file away: where the suite file belongs to another
/// user, its write is refused (``ownerProblem(_:)``) rather than silently making the file its own.
extension SuiteFile {
    /// Gives `descriptor` — a file this process has just made in the suite's folder — the owner
    /// `owner` (`nil`: the folder's owner), when this process is root and it is not so already.
    /// Returns `false` when the owner could not be given.
    @discardableResult
    func giveOwner(_ owner: FileOwner?, to descriptor: Int32) -> Bool {
        guard geteuid() == 0, let owner = owner ?? Self.owner(of: location.directory) else { return true }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        if info.st_uid == owner.user, info.st_gid == owner.group { return true }
        return fchown(descriptor, owner.user, owner.group) == 0
    }

    /// ``giveOwner(_:to:)`` for a file of the suite other than the suite file itself (the lock
    /// file, the change log): the suite file's owner, or the folder's when there is no suite file.
    func keepOwner(of descriptor: Int32, created: Bool) {
        guard geteuid() == 0 else { return }
        giveOwner(Self.owner(of: location.path) ?? Self.owner(of: location.directory), to: descriptor)
    }

    /// The owner a new version of the suite file must have: that of the version it replaces,
    /// `current` (`nil`: no file yet, then the folder's).
    func ownerForReplacement(of current: FileStamp?) -> FileOwner? {
        current?.owner ?? (geteuid() == 0 ? Self.owner(of: location.directory) : nil)
    }

    /// Makes the temporary file `descriptor` belong to `owner` (the owner of the file it will
    /// replace); throws, naming both users, when this process cannot (it is not root, and the
    /// suite file belongs to another user). Costs nothing when the file is already this user's.
    func matchOwner(_ owner: FileOwner?, of descriptor: Int32) throws(SuiteStoreError) {
        guard let owner, owner.user != geteuid() || owner.group != getegid() else { return }
        if fchown(descriptor, owner.user, owner.group) == 0 { return }
        if owner.user != geteuid() {
            throw .writeFailed(path: location.path, reason: Self.ownerProblem(owner))
        }
        // Only the group differs, and this user is not in it: the file keeps this user's group.
    }

    /// Why a process that is not root does not replace another user's suite file.
    static func ownerProblem(_ owner: FileOwner) -> String {
        "it belongs to user \(owner.user) (\(userName(owner.user))) and this process runs as user \(geteuid()) (\(userName(geteuid()))); writing it would make the file this user's and leave its owner's apps unable to read it; run as its owner (or as root, which keeps the owner), or give it to this user first (chown)"
    }

    /// Root only: gives a folder this process has just created the owner of its parent.
    func giveParentsOwner(toFolder path: String) {
        guard geteuid() == 0 else { return }
        let parent = path.split(separator: "/", omittingEmptySubsequences: true).dropLast().reduce("") { $0 + "/" + $1 }
        guard let owner = Self.owner(of: parent.isEmpty ? "/" : parent), owner.user != 0 || owner.group != 0 else { return }
        _ = lchown(path, owner.user, owner.group)
    }

    static func owner(of path: String) -> FileOwner? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileOwner(user: info.st_uid, group: info.st_gid)
    }

    private static func userName(_ user: uid_t) -> String {
        guard let entry = getpwuid(user), let name = entry.pointee.pw_name else { return "no name" }
        return String(cString: name)
    }
}
