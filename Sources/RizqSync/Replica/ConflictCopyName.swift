/// The names a folder-sync engine gives the losing version of a file both sides changed.
///
/// Syncthing (`lib/model/folder_sendrecv.go`, `conflictName`): `<base>.sync-conflict-<YYYYMMDD>-<HHMMSS>-<7-character device id><ext>`,
/// e.g. `com.example.notes.sync-conflict-20261126-103132-PPR2SPG.json`; the extension stays
/// last. Nextcloud and Dropbox name theirs `<base> (conflicted copy …)<ext>` and
/// `<base> (… conflicted copy …)<ext>`.
package enum ConflictCopyName {
    /// Whether `name` is a conflict copy.
    package static func isConflictCopy(_ name: String) -> Bool {
        name.contains(".sync-conflict-") || name.contains("conflicted copy")
    }

    /// The name of the file `name` is a conflict copy of: `suite.sync-conflict-….json` →
    /// `suite.json`; `nil` when it is not a conflict copy.
    static func original(of name: String) -> String? {
        if let range = name.range(of: ".sync-conflict-") {
            let base = name[..<range.lowerBound]
            let rest = name[range.upperBound...]
            let ext = rest.lastIndex(of: ".").map { String(rest[$0...]) } ?? ""
            return base + ext
        }
        if let range = name.range(of: " (") , name.contains("conflicted copy"), let close = name[range.upperBound...].firstIndex(of: ")") {
            return String(name[..<range.lowerBound]) + String(name[name.index(after: close)...])
        }
        return nil
    }
}
