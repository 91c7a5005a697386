#if Secrets
import RizqImport

/// One origin's LSNG database, `storage/default/<origin>/ls/data.sqlite`, read from a private
/// copy: the origin from its `database` table, the items from its `data` table.
///
/// | schema | `data` columns |
/// | --- | --- |
/// | 5 (`user_version` 80) | `key TEXT`, `utf16_length`, `conversion_type`, `compression_type`, `last_access_time`, `value BLOB` |
/// | 1–4 | `key TEXT`, `value`, `compressed` (and from 3 on `utf16Length`): UTF-8, snappy when `compressed` is 1 |
///
/// Keys are SQLite text (Firefox binds them as UTF-16, SQLite stores UTF-8); values are
/// decoded by ``FirefoxLSNGValue``. Rows are read in the table's order, as Firefox loads them.
struct FirefoxLSNGDatabase {
    /// The origin the `database` table names (`nil` when it names none).
    var origin: String?
    /// The items, in the table's order.
    var items: [StoredItem] = []
    /// What was odd (never a value).
    var warnings: [String] = []

    /// Reads the database at `copied`, a private copy of the profile's file `source`.
    /// - Throws: ``ProfileError/wrongSchema(path:tables:)`` for an SQLite file that is not an
    ///   LSNG database, ``ProfileError/damaged(path:reason:)`` for a damaged one.
    init(copied: String, source: String) throws(ProfileError) {
        do {
            let database = try SQLiteDatabase(path: copied)
            let tables = try database.tables()
            guard tables.contains("data"), tables.contains("database") else { throw ProfileError.wrongSchema(path: source, tables: tables) }
            let columns = Set(try database.columns(of: "data"))
            let query: String
            if columns.isSuperset(of: ["key", "value", "conversion_type", "compression_type", "utf16_length"]) {
                query = "SELECT key, value, conversion_type, compression_type, utf16_length FROM data"
            } else if columns.isSuperset(of: ["key", "value", "compressed"]) {
                let length = columns.contains("utf16Length") ? "utf16Length" : "NULL"
                query = "SELECT key, value, \(FirefoxLSNGValue.utf8Conversion), compressed, \(length) FROM data"
            } else {
                throw ProfileError.wrongSchema(path: source, tables: tables)
            }
            try database.forEachRow("SELECT origin FROM database") { row in
                if origin == nil, let text = row.text(0), !text.isEmpty { origin = text }
            }
            var nulls = 0
            var lengthMismatches: [String] = []
            try database.forEachRow(query) { row in
                guard row.storageClass(0) != .null, row.storageClass(1) != .null else {
                    nulls += 1
                    return
                }
                let key = StoredString(utf8: row.utf8Bytes(0))
                // A BLOB but for the empty string, which Firefox binds as TEXT ''.
                let stored = row.storageClass(1) == .blob ? row.bytes(1) : row.utf8Bytes(1)
                let value = FirefoxLSNGValue.decode(stored, conversion: row.int64(2), compression: row.int64(3))
                if row.storageClass(4) != .null, let length = FirefoxLSNGValue.utf16Length(value), Int64(length) != row.int64(4) {
                    lengthMismatches.append(key.displayText)
                }
                items.append(StoredItem(key: key, value: value))
            }
            if nulls > 0 { warnings.append("\(nulls) row(s) with a NULL key or value were left out") }
            if !lengthMismatches.isEmpty {
                warnings.append("the value of \(lengthMismatches.joined(separator: ", ")) is not as long as Firefox recorded (utf16_length); it is read as stored")
            }
        } catch {
            throw .sqlite(error, file: source)
        }
    }
}
#endif
