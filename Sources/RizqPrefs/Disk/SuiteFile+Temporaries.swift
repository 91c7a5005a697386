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
        AtomicFile.removeAbandonedTemporaries(in: location.directory, prefixes: [temporaryPrefix, "." + location.suiteName + ".changes.tmp-"])
    }
}
