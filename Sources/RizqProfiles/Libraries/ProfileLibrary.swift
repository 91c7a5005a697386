#if Secrets
import CProfileLibraries

/// The C libraries the profile readers use, loaded at their first use (`CProfileLibraries`): a
/// program built with RizqProfiles loads none of them until it reads a profile, and runs where
/// they are not installed.
enum ProfileLibrary {
    case leveldb, sqlite, snappy

    /// The Debian package that installs the library at run time.
    var package: String {
        switch self {
        case .leveldb: return "libleveldb1d"
        case .sqlite: return "libsqlite3-0"
        case .snappy: return "libsnappy1v5"
        }
    }

    /// Loads the library (once per process); `nil` when it is there, else why not, in words
    /// that say what to install.
    func loadProblem() -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let loaded: Bool
        switch self {
        case .leveldb: loaded = rizq_leveldb_load(&buffer, buffer.count)
        case .sqlite: loaded = rizq_sqlite_load(&buffer, buffer.count)
        case .snappy: loaded = rizq_snappy_load(&buffer, buffer.count)
        }
        guard !loaded else { return nil }
        let detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "the library to read it cannot be loaded (\(detail)); install it with `apt-get install \(package)`"
    }
}
#endif
