#if Secrets
import RizqImport

/// The kinds of browser storage, each read by its own reader (see ``ProfileStorage/read(_:)``).
public enum ProfileStoreKind: String, Sendable, CaseIterable {
    /// A Chromium-family or Electron `Local Storage/leveldb` folder.
    case chromiumLevelDB = "chromium-leveldb"
    /// A legacy Chrome/WebKit `*.localstorage` SQLite file, or a `Local Storage` folder of them.
    case webkitSQLite = "webkit-localstorage"
    /// An SQLite file whose tables say which kind it is (`ItemTable`, `webappsstore2`, `data`).
    case sqliteFile = "sqlite"
    /// A Firefox profile folder (`storage/default/*/ls/data.sqlite`, `webappsstore.sqlite`).
    case firefoxProfile = "firefox-profile"
    /// One Firefox origin's `ls/data.sqlite` (LSNG).
    case firefoxLSNG = "firefox-lsng"
    /// Firefox's legacy `webappsstore.sqlite`.
    case firefoxWebappsstore = "firefox-webappsstore"

    /// The dump format the importer records for this kind.
    public var dumpFormat: ImportDump.Format {
        switch self {
        case .chromiumLevelDB: return .chromiumLevelDB
        case .webkitSQLite, .sqliteFile: return .webkitSQLite
        case .firefoxProfile, .firefoxLSNG: return .firefoxLSNG
        case .firefoxWebappsstore: return .firefoxWebappsstore
        }
    }
}
#endif
