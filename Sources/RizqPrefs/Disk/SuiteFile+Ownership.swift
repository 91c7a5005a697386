import RizqCore
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
/// user, its write is refused (RizqCore's ``FileReplacement``) rather than silently making the
/// file its own.
extension SuiteFile {
    /// The owner a new version of the suite file must have: that of the version it replaces,
    /// `current` (`nil`: no file yet, then the folder's, for a root process).
    func ownerForReplacement(of current: FileStamp?) -> FileOwner? {
        current?.owner ?? (geteuid() == 0 ? FileOwner.of(location.directory) : nil)
    }

    /// The owner of the suite's other files (the lock file, the change log): the suite file's,
    /// or the folder's when there is no suite file.
    var ownerOfSuiteFiles: FileOwner? {
        FileOwner.of(location.path) ?? FileOwner.of(location.directory)
    }
}
