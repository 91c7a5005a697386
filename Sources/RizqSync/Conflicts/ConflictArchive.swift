import Foundation
import RizqCore
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
        guard (try? PrivateFolder.ensure(folder, trust: .settings("conflict archive"))) != nil else { return nil }
        let name = PrivateFolder.name(of: path)
        var target = folder + "/" + name
        var number = 1
        while FileStamp.of(target) != nil, number < 1000 {
            number += 1
            target = folder + "/" + name + "." + String(number)
        }
        do {
            try AtomicFile.move(path, to: target, replacing: false, subject: "conflict copy")
            return target
        } catch {
            // Another file system: copy (a regular file of this user's only), then remove the original.
            guard error.problem == .system(Errno(rawValue: EXDEV)),
                let copy = try? PrivateFile.read(path, trust: .settings("conflict copy"), limit: 256 << 20),
                (try? AtomicFile.create(copy.bytes, at: target, subject: "conflict copy")) != nil
            else { return nil }
            guard (try? AtomicFile.remove(path)) != nil else {
                unlink(target)
                return nil
            }
            return target
        }
    }
}
