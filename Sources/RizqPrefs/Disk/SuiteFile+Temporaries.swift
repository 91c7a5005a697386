import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SuiteFile {
    /// Temporary files of a write are `.<suite>.json.tmp-<pid>-<random>` in the suite's folder:
    /// hidden, and named after the process that writes them.
    private var temporaryPrefix: String { "." + location.suiteName + ".json.tmp-" }

    /// Where a write's temporary files start: the folder and the prefix (``FileReplacement``
    /// adds `<pid>-<random>`).
    var temporaryPrefixPath: String { location.directory + "/" + temporaryPrefix }

    /// Removes temporary files that writers killed mid-write left behind (their process is gone):
    /// the suite file's, and the change log's (``ChangeLog``, when it was being compacted).
    func removeStaleTemporaries() {
        let names = PrivateFolder.names(in: location.directory)
        let logPrefix = "." + location.suiteName + ".changes.tmp-"
        for name in names {
            let prefix = name.hasPrefix(temporaryPrefix) ? temporaryPrefix : name.hasPrefix(logPrefix) ? logPrefix : nil
            guard let prefix else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let pidText = rest.split(separator: "-").first, let pid = pid_t(pidText) else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                unlink(location.directory + "/" + name)
            }
        }
    }
}
