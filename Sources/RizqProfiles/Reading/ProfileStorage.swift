#if Secrets
import RizqImport

/// Everything a browser storage holds, read from a private copy: its origins and their items.
///
/// ```swift
/// let location = try ProfileLocator().locate(.browser(.chromium), profile: nil)
/// let storage = try ProfileStorage.read(location)
/// for origin in storage.origins { print(origin.origin, origin.keyCount, origin.storedSize) }
/// let dump = try storage.dump(origin: "https://app.rizq.io")
/// let report = try Importer(options: options).run(dump)
/// ```
///
/// The profile is never opened in place: ``read(_:)`` copies what the reader needs into a
/// private `0700` folder (`PrivateCopy`), reads the copy, and removes it, so that a running
/// browser's lock or write-ahead log is no obstacle and the profile's bytes and modification
/// times stay as they were.
///
/// ## Adding a reader
///
/// Each ``ProfileStoreKind`` is read by one reader, chosen in ``read(_:)``; a reader copies what
/// it needs with the `PrivateCopy` it is given and returns ``StoredOrigin``s (the readers and
/// `PrivateCopy` are `@_spi(Fuzzing)`: public only for the fuzzers in `Fuzz/`):
/// - Chromium and Electron `Local Storage/leveldb`: `ChromiumLocalStorageReader`.
/// - Legacy Chrome/WebKit `*.localstorage`: `WebKitLocalStorageReader`.
/// - Firefox profiles, LSNG `ls/data.sqlite` and `webappsstore.sqlite`:
///   `FirefoxLocalStorageReader`; an `.sqlite` file is routed by its tables in `SQLiteKind`
///   (`webappsstore2`, `data` + `database`); the `firefox` source (profiles.ini) is resolved in
///   ``ProfileLocator/locateFirefox(profile:)``.
/// - Apple property lists are not browser storage: `rizq-prefs import-app --from X.plist` goes to
///   RizqImport's plist importer before RizqProfiles is asked.
public struct ProfileStorage: Sendable {
    /// What was read.
    public var location: ProfileLocation
    /// The kind that was read (an `.sqlite` file resolved to the kind its tables say).
    public var kind: ProfileStoreKind
    /// The origins that hold at least one item, sorted by name.
    public var origins: [StoredOrigin]

    /// A storage's contents from their parts.
    public init(location: ProfileLocation, kind: ProfileStoreKind, origins: [StoredOrigin]) {
        self.location = location
        self.kind = kind
        self.origins = origins.sorted { $0.origin < $1.origin }
    }

    /// Reads `location` from a private copy, removed before this returns.
    /// - Throws: ``ProfileError`` naming the file in the profile.
    public static func read(_ location: ProfileLocation) throws(ProfileError) -> ProfileStorage {
        let copy = try PrivateCopy()
        defer { copy.remove() }
        return try read(location, kind: location.kind, in: copy)
    }

    private static func read(_ location: ProfileLocation, kind: ProfileStoreKind, in copy: PrivateCopy) throws(ProfileError) -> ProfileStorage {
        switch kind {
        case .chromiumLevelDB:
            return ProfileStorage(location: location, kind: kind, origins: try ChromiumLocalStorageReader().read(folder: location.path, in: copy))
        case .webkitSQLite:
            return ProfileStorage(location: location, kind: kind, origins: try WebKitLocalStorageReader().read(path: location.path, in: copy))
        case .sqliteFile:
            let database = try copy.copySQLite(location.path)
            let resolved = try SQLiteKind.of(database, source: location.path)
            return try read(location, kind: resolved, in: copy)
        case .firefoxProfile:
            return ProfileStorage(location: location, kind: kind, origins: try FirefoxLocalStorageReader().read(profile: location.path, in: copy))
        case .firefoxLSNG:
            let origin = try FirefoxLocalStorageReader().read(lsngDatabase: location.path, in: copy)
            return ProfileStorage(location: location, kind: kind, origins: origin.items.isEmpty ? [] : [origin])
        case .firefoxWebappsstore:
            return ProfileStorage(location: location, kind: kind, origins: try FirefoxLocalStorageReader().read(webappsstore: location.path, in: copy))
        }
    }

    /// The source for messages: the profile path.
    public var source: String { location.path }

    /// The origin `name`, or the only one when `name` is `nil`.
    /// - Throws: ``ProfileError/originRequired(source:origins:)`` when there are several and no
    ///   name, ``ProfileError/noLocalStorage(source:)`` when there are none,
    ///   ``ProfileError/originNotFound(source:origin:origins:)``.
    public func origin(_ name: String?) throws(ProfileError) -> StoredOrigin {
        let names = origins.map(\.origin)
        guard let name else {
            guard origins.count == 1, let only = origins.first else {
                if origins.isEmpty { throw .noLocalStorage(source: source) }
                throw .originRequired(source: source, origins: names)
            }
            return only
        }
        if let exact = origins.first(where: { $0.origin == name }) { return exact }
        // `https://a.com/` and `https://a.com` name the same origin.
        let trimmed = name.hasSuffix("/") ? String(name.dropLast()) : name + "/"
        if let close = origins.first(where: { $0.origin == trimmed }) { return close }
        throw .originNotFound(source: source, origin: name, origins: names)
    }

    /// The dump of origin `name` (or of the only one), for `Importer`.
    public func dump(origin name: String?) throws(ProfileError) -> ImportDump {
        try origin(name).dump(format: kind.dumpFormat, source: source)
    }
}
#endif
