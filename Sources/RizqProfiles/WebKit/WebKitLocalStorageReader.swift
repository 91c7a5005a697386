#if Secrets
import Foundation
import RizqImport

/// Reads legacy Chrome (up to version 60), old Electron and WebKit `*.localstorage` files:
/// SQLite databases with one table, `ItemTable (key TEXT, value BLOB)`, one file per origin.
///
/// Values are the string's raw UTF-16LE code units (a lone surrogate stays as it was stored,
/// and is reported, never replaced); keys are SQLite text in the database's encoding. The
/// origin comes from the file name (`WebKitOriginName`).
package struct WebKitLocalStorageReader: Sendable {
    /// A reader.
    package init() {}

    /// Reads `path`: one `*.localstorage` file, or a folder of them (a profile's
    /// `Local Storage`), each from a private copy made in `copy`.
    /// - Throws: ``ProfileError``, naming the file.
    package func read(path: String, in copy: PrivateCopy) throws(ProfileError) -> [StoredOrigin] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .notFound(path: path) }
        if !isFolder.boolValue { return [try readFile(path, in: copy)] }
        let files = Self.files(in: path)
        guard !files.isEmpty else {
            throw .notAProfile(path: path, reason: "the folder holds no *.localstorage files")
        }
        var origins: [StoredOrigin] = []
        for file in files {
            let origin = try readFile(path + "/" + file, in: copy)
            if !origin.items.isEmpty { origins.append(origin) }
        }
        return origins
    }

    /// The `*.localstorage` files in `folder`, sorted.
    static func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".localstorage") }.sorted()
    }

    /// Reads one file.
    package func readFile(_ file: String, in copy: PrivateCopy) throws(ProfileError) -> StoredOrigin {
        let copied = try copy.copySQLite(file)
        var warnings: [String] = []
        let name = (file as NSString).lastPathComponent
        let origin: String
        if let parsed = WebKitOriginName.origin(fileName: name) {
            origin = parsed
        } else {
            origin = (name as NSString).deletingPathExtension
            warnings.append("the file name \(name) does not say the origin (expected <scheme>_<host>_<port>.localstorage); the origin is called \(origin)")
        }
        var items: [StoredItem] = []
        do {
            let database = try SQLiteDatabase(path: copied)
            let tables = try database.tables()
            guard tables.contains("ItemTable") else { throw ProfileError.wrongSchema(path: file, tables: tables) }
            let encoding = try database.textEncoding()
            var nulls = 0
            try database.forEachRow("SELECT key, value FROM ItemTable") { row in
                guard row.storageClass(0) != .null, row.storageClass(1) != .null else {
                    nulls += 1
                    return
                }
                items.append(StoredItem(key: Self.string(row, 0, encoding: encoding), value: Self.string(row, 1, encoding: encoding)))
            }
            if nulls > 0 { warnings.append("\(nulls) row(s) with a NULL key or value were left out") }
        } catch let error as ProfileError {
            throw error
        } catch let error as SQLiteDatabase.Failure {
            throw error.profileError(file)
        } catch {
            throw .unreadable(path: file, reason: "\(error)")
        }
        return StoredOrigin(origin: origin, items: items, warnings: warnings)
    }

    /// Column `index` as stored: a blob is UTF-16LE code units; text is in the database's
    /// encoding; a number is its text.
    private static func string(_ row: SQLiteDatabase.Row, _ index: Int32, encoding: String) -> StoredString {
        switch row.storageClass(index) {
        case .blob:
            return StoredString(utf16LE: row.bytes(index))
        case .text:
            let bytes = row.bytes(index)
            switch encoding {
            case "UTF-16le": return StoredString(utf16LE: bytes)
            case "UTF-16be": return StoredString(utf16LE: Self.swapped(bytes))
            default: return StoredString(utf8: bytes)
            }
        case .integer, .real, .null:
            return StoredString(row.text(index) ?? "")
        }
    }

    private static func swapped(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var index = 0
        while index + 1 < result.count {
            result.swapAt(index, index + 1)
            index += 2
        }
        return result
    }
}
#endif
