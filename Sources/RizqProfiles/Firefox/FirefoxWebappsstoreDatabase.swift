#if Secrets
import RizqImport

/// Firefox's legacy `localStorage` database, `webappsstore.sqlite` (and `storage/ls-archive.sqlite`,
/// the copy of it Firefox keeps since LSNG), read from a private copy: one table,
/// `webappsstore2`, one row per item of every origin.
///
/// | schema (`user_version`) | columns |
/// | --- | --- |
/// | 1, 2 (2016 on) | `originAttributes`, `originKey`, `scope` (kept for downgrades), `key`, `value` |
/// | 0 | `scope`, `key`, `value`, `secure`, `owner` |
///
/// The origin comes from ``FirefoxOriginKey``; keys and values are SQLite text (UTF-8).
struct FirefoxWebappsstoreDatabase {
    /// The origins, in the order of their first row, each with its rows in table order.
    var origins: [StoredOrigin] = []

    /// Reads the database at `copied`, a private copy of the profile's file `source`.
    /// - Throws: ``ProfileError/wrongSchema(path:tables:)`` for an SQLite file that is not a
    ///   `webappsstore.sqlite`, ``ProfileError/damaged(path:reason:)`` for a damaged one.
    init(copied: String, source: String) throws(ProfileError) {
        var order: [String] = []
        var items: [String: [StoredItem]] = [:]
        var warnings: [String: [String]] = [:]
        do {
            let database = try SQLiteDatabase(path: copied)
            let tables = try database.tables()
            guard tables.contains("webappsstore2") else { throw ProfileError.wrongSchema(path: source, tables: tables) }
            let columns = Set(try database.columns(of: "webappsstore2"))
            let schema0: Bool
            if columns.isSuperset(of: ["originAttributes", "originKey", "key", "value"]) {
                schema0 = false
            } else if columns.isSuperset(of: ["scope", "key", "value"]) {
                schema0 = true
            } else {
                throw ProfileError.wrongSchema(path: source, tables: tables)
            }
            let query = schema0
                ? "SELECT '', scope, key, value FROM webappsstore2"
                : "SELECT originAttributes, originKey, key, value FROM webappsstore2"
            var nulls: [String: Int] = [:]
            try database.forEachRow(query) { row in
                let attributes = row.text(0) ?? ""
                let originKey = row.text(1) ?? ""
                let decoded = schema0
                    ? FirefoxOriginKey.origin(scope: originKey)
                    : FirefoxOriginKey.origin(originKey: originKey, attributes: attributes)
                let origin = decoded ?? originKey + attributes
                guard row.storageClass(2) != .null, row.storageClass(3) != .null else {
                    nulls[origin, default: 0] += 1
                    return
                }
                if items[origin] == nil {
                    order.append(origin)
                    if decoded == nil {
                        warnings[origin, default: []].append("the origin key '\(originKey)' is not one Firefox writes; the origin is called by it")
                    }
                }
                items[origin, default: []].append(StoredItem(key: StoredString(utf8: row.utf8Bytes(2)), value: StoredString(utf8: row.utf8Bytes(3))))
            }
            for (origin, count) in nulls where items[origin] != nil {
                warnings[origin, default: []].append("\(count) row(s) with a NULL key or value were left out")
            }
        } catch {
            throw .sqlite(error, file: source)
        }
        origins = order.map { StoredOrigin(origin: $0, items: items[$0] ?? [], warnings: warnings[$0] ?? []) }
    }
}
#endif
