#if Secrets
import Foundation
import RizqImport

/// Reads Firefox's `localStorage`, each database from a private copy, with the real SQLite
/// library (and values through snappy).
///
/// A Firefox profile keeps it in up to three places:
///
/// | file | what it is |
/// | --- | --- |
/// | `storage/default/<origin>/ls/data.sqlite` | LSNG, one database per origin (`FirefoxLSNGDatabase`); its `database` table names the origin, partitions included (`https://a.com^partitionKey=%28https%2Cb.com%29`) |
/// | `storage/ls-archive.sqlite` | what `webappsstore.sqlite` held when Firefox first ran LSNG, less the origins moved to LSNG since |
/// | `webappsstore.sqlite` | the storage before LSNG (`FirefoxWebappsstoreDatabase`) |
///
/// ``read(profile:in:)`` reads what Firefox itself would show, each origin from one place,
/// never merged: with LSNG (there is a `storage/ls-archive.sqlite`), the LSNG origins and the
/// archived ones not among them; `webappsstore.sqlite` then holds only stale copies and is not
/// read. A profile that never ran LSNG is read from `webappsstore.sqlite` (and any LSNG origin
/// wins over it); a profile whose `prefs.js` turns LSNG off (`dom.storage.next_gen` false) is
/// read from `webappsstore.sqlite` only, as Firefox does.
///
/// Syncthing's conflict copies (`*.sync-conflict-*`) are not Firefox's files: they are not
/// read, and the origin they sit in says so in its warnings. An origin that holds no items
/// is left out.
@_spi(Fuzzing) public struct FirefoxLocalStorageReader: Sendable {
    /// A reader.
    public init() {}

    /// Reads the Firefox profile folder `folder` (or its `storage` or `storage/default` folder).
    /// - Throws: ``ProfileError``, naming the file in the profile.
    public func read(profile folder: String, in copy: PrivateCopy) throws(ProfileError) -> [StoredOrigin] {
        guard ProfilePath.isFolder(folder) else { throw .notFound(path: folder) }
        let layout = Layout(folder)
        if let prefs = layout.prefs, try Self.turnsLSNGOff(prefs, in: copy) {
            guard let webappsstore = layout.webappsstore else { return [] }
            return try read(webappsstore: webappsstore, in: copy)
        }
        var origins: [StoredOrigin] = []
        if let root = layout.lsng { origins = try readLSNGFolder(root, in: copy) }
        // LSNG has run when it left its archive: webappsstore.sqlite is then a stale shadow.
        let legacy = layout.archive ?? layout.webappsstore
        if let legacy {
            var known = Set(origins.map(\.origin))
            for origin in try read(webappsstore: legacy, in: copy) where !known.contains(origin.origin) {
                known.insert(origin.origin)
                origins.append(origin)
            }
        }
        return origins
    }

    /// Reads one origin's LSNG database (`…/ls/data.sqlite`).
    /// - Throws: ``ProfileError``, naming the file.
    public func read(lsngDatabase file: String, in copy: PrivateCopy) throws(ProfileError) -> StoredOrigin {
        let copied = try copy.copySQLite(file)
        let database = try FirefoxLSNGDatabase(copied: copied, source: file)
        var warnings = database.warnings
        let origin: String
        if let named = database.origin {
            origin = named
        } else {
            // The database was made without its row (or the row was removed): the origin folder's
            // own metadata names it too.
            let lsFolder = (file as NSString).deletingLastPathComponent
            let originFolder = (lsFolder as NSString).deletingLastPathComponent
            if let fromMetadata = try Self.metadataOrigin(originFolder, in: copy) {
                origin = fromMetadata
                warnings.append("its database table names no origin; the origin is the one in .metadata-v2")
            } else {
                origin = (originFolder as NSString).lastPathComponent
                warnings.append("neither its database table nor .metadata-v2 names the origin; it is called by its folder name")
            }
        }
        return StoredOrigin(origin: origin, items: database.items, warnings: warnings)
    }

    /// Reads a `webappsstore.sqlite` (or `ls-archive.sqlite`): every origin that holds items.
    /// - Throws: ``ProfileError``, naming the file.
    public func read(webappsstore file: String, in copy: PrivateCopy) throws(ProfileError) -> [StoredOrigin] {
        let copied = try copy.copySQLite(file)
        return try FirefoxWebappsstoreDatabase(copied: copied, source: file).origins.filter { !$0.items.isEmpty }
    }

    // MARK: Profile layout

    /// Where a profile (or its `storage`, or `storage/default`, folder) keeps each storage.
    struct Layout {
        var lsng: String?
        var archive: String?
        var webappsstore: String?
        var prefs: String?

        init(_ folder: String) {
            func file(_ path: String) -> String? { ProfilePath.exists(path) && !ProfilePath.isFolder(path) ? path : nil }
            if ProfilePath.isFolder(folder + "/storage") || file(folder + "/webappsstore.sqlite") != nil || file(folder + "/prefs.js") != nil {
                lsng = ProfilePath.isFolder(folder + "/storage/default") ? folder + "/storage/default" : nil
                archive = file(folder + "/storage/ls-archive.sqlite")
                webappsstore = file(folder + "/webappsstore.sqlite")
                prefs = file(folder + "/prefs.js")
            } else if ProfilePath.isFolder(folder + "/default") {
                lsng = folder + "/default"
                archive = file(folder + "/ls-archive.sqlite")
            } else {
                lsng = folder
            }
        }

        /// Whether `folder` holds Firefox storage that ``read(profile:in:)`` reads.
        static func holdsStorage(_ folder: String) -> Bool {
            let layout = Layout(folder)
            if layout.archive != nil || layout.webappsstore != nil { return true }
            guard let lsng = layout.lsng else { return false }
            return !FirefoxLocalStorageReader.originFolders(in: lsng).isEmpty
        }
    }

    /// The origin folders of an LSNG root that hold an `ls/data.sqlite`, sorted; Syncthing's
    /// conflict copies of whole folders are not origins.
    static func originFolders(in root: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries.filter { name in
            !isSyncConflict(name) && ProfilePath.exists(root + "/" + name + "/ls/data.sqlite")
        }.sorted()
    }

    /// Whether `name` is a Syncthing conflict copy (`data.sync-conflict-20220604-113252-6ZIAFW5.sqlite`).
    static func isSyncConflict(_ name: String) -> Bool {
        name.contains(".sync-conflict-")
    }

    private func readLSNGFolder(_ root: String, in copy: PrivateCopy) throws(ProfileError) -> [StoredOrigin] {
        var origins: [StoredOrigin] = []
        var index: [String: Int] = [:]
        for name in Self.originFolders(in: root) {
            let lsFolder = root + "/" + name + "/ls"
            var origin = try read(lsngDatabase: lsFolder + "/data.sqlite", in: copy)
            let conflicts = ((try? FileManager.default.contentsOfDirectory(atPath: lsFolder)) ?? []).filter(Self.isSyncConflict).sorted()
            for conflict in conflicts {
                origin.warnings.append("ls/\(conflict) is a Syncthing conflict copy, not Firefox's database; it was not read")
            }
            guard !origin.items.isEmpty else { continue }
            if let first = index[origin.origin] {
                origins[first].warnings.append("the folder \(name) names this origin too; it was not read")
                continue
            }
            index[origin.origin] = origins.count
            origins.append(origin)
        }
        return origins
    }

    /// Whether the profile's `prefs.js` turns LSNG off (`user_pref("dom.storage.next_gen", false);`).
    private static func turnsLSNGOff(_ prefs: String, in copy: PrivateCopy) throws(ProfileError) -> Bool {
        let folder = (prefs as NSString).deletingLastPathComponent
        let copied = try copy.copyFolder(folder, as: "prefs-" + UUID().uuidString, skip: { $0 != "prefs.js" }, stable: { _ in true })
        guard let data = FileManager.default.contents(atPath: copied + "/prefs.js") else { return false }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).contains { line in
            let compact = line.filter { !$0.isWhitespace }
            return compact.hasPrefix("user_pref(\"dom.storage.next_gen\",false)")
        }
    }

    private static func metadataOrigin(_ originFolder: String, in copy: PrivateCopy) throws(ProfileError) -> String? {
        guard ProfilePath.exists(originFolder + "/.metadata-v2") else { return nil }
        let copied = try copy.copyFolder(originFolder, as: "metadata-" + UUID().uuidString, skip: { $0 != ".metadata-v2" }, stable: { _ in true })
        guard let data = FileManager.default.contents(atPath: copied + "/.metadata-v2") else { return nil }
        return FirefoxOriginMetadata.origin([UInt8](data))
    }
}
#endif
