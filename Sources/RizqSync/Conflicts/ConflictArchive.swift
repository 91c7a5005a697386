import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where conflict copies go once merged: `<root>/sync/conflicts/`, under their own names (a
/// number added when the name is taken), mode 0700. Kept, not deleted: a person can always look.
struct ConflictArchive: Sendable {
    let paths: SyncPaths

    /// Moves `path` into the archive; returns where it went, or `nil` when it could not be moved
    /// (it is then left where it is, and the next run merges it again — which changes nothing).
    func archive(_ path: String) -> String? {
        let folder = paths.conflictArchive
        var partial = ""
        for component in folder.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0, errno != EEXIST { return nil }
        }
        let name = (path as NSString).lastPathComponent
        var target = folder + "/" + name
        var number = 1
        while FileManager.default.fileExists(atPath: target), number < 1000 {
            number += 1
            target = folder + "/" + name + "." + String(number)
        }
        if rename(path, target) == 0 { return target }
        // Another file system: copy, then remove the original.
        guard (try? FileManager.default.copyItem(atPath: path, toPath: target)) != nil else { return nil }
        guard unlink(path) == 0 else {
            unlink(target)
            return nil
        }
        return target
    }
}
