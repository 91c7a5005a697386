import RizqCore

/// Something about a mounted folder that does not stop it being read, but that its reader should
/// know: chiefly, that what it reads will never change.
///
/// A snapshot carries its warnings (``MountedSnapshot/warnings``); `rizq-prefs get --mounted`
/// and `watch --mounted` print them on stderr.
public enum MountWarning: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The key's file (`key` = `nil`: the folder itself) is a Kubernetes `subPath` mount: a bind
    /// mount of one generation's file, with no `..data` beside it. kubelet never updates it
    /// (kubernetes/kubernetes#50345). Seen in `/proc/self/mountinfo`: the mount's root is
    /// inside a kubelet generation folder (`..2026_11_29_05_55_36.2136083382/…`).
    case frozenSubPath(key: String?, source: String)
    /// The key's file (`key` = `nil`: the folder itself) has been replaced where it came from
    /// while this mount still shows the old one: its link count is 0, or its mount's root ends
    /// in `//deleted`. It will not change until the container restarts.
    case replacedAtSource(key: String?)
    /// The folder is not followed by inotify (a network or FUSE file system, where inotify sees
    /// only this machine's writes; or no inotify watch left): it is read again every second.
    case polled(reason: String)
    /// The last read of the folder failed; the values are those of the read before it.
    case lastReadFailed(reason: String)

    /// One line: what it means and what to do.
    public var description: String {
        switch self {
        case .frozenSubPath(let key, let source):
            let what = key.map { "'\($0)' is" } ?? "this folder is"
            return "\(what) a Kubernetes subPath mount (of \(source)): it will never update, whatever the ConfigMap or Secret becomes; mount the whole volume (no subPath) to see updates, or restart the pod to see a new value"
        case .replacedAtSource(let key):
            let what = key.map { "'\($0)'" } ?? "this folder"
            return "\(what) was replaced where it is mounted from, and this mount still shows the old file: it will not update until the container restarts"
        case .polled(let reason):
            return "not followed by inotify (\(reason)): read again every second"
        case .lastReadFailed(let reason):
            return "the last read failed (\(reason)); these are the values of the read before it"
        }
    }
}
