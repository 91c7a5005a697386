#if Secrets
import CProfileLibraries

/// An SQLite database opened through Debian's libsqlite3, for reading browser storage.
///
/// Open only private copies (``PrivateCopy``): SQLite rolls back a hot journal and reads a
/// write-ahead log through a `-shm` file it creates, which needs write access to the folder.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Why SQLite refused: its result code and message.
    struct Failure: Error {
        var code: Int32
        var message: String

        /// The file is not a database, or is damaged.
        var isDamage: Bool {
            let primary = code & 0xFF
            return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT
        }
    }

    /// How a column value is stored.
    enum StorageClass {
        case integer, real, text, blob, null
    }

    /// Opens the database file at `path` (which must exist).
    init(path: String) throws(Failure) {
        if let problem = ProfileLibrary.sqlite.loadProblem() { throw Failure(code: SQLITE_CANTOPEN, message: problem) }
        var opened: OpaquePointer?
        let status = rizq_sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: rizq_sqlite3_errmsg($0)) } ?? "cannot open"
            if let opened { rizq_sqlite3_close_v2(opened) }
            throw Failure(code: status, message: message)
        }
        handle = opened
    }

    deinit {
        rizq_sqlite3_close_v2(handle)
    }

    /// The names of its tables, sorted (reading them is the first check that it is a database).
    func tables() throws(Failure) -> [String] {
        var names: [String] = []
        try forEachRow("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { row in
            names.append(row.text(0) ?? "")
        }
        return names
    }

    /// The column names of `table`.
    func columns(of table: String) throws(Failure) -> [String] {
        var names: [String] = []
        try forEachRow("PRAGMA table_info(\"\(table.replacingOccurrences(of: "\"", with: "\"\""))\")") { row in
            names.append(row.text(1) ?? "")
        }
        return names
    }

    /// `PRAGMA user_version`.
    func userVersion() throws(Failure) -> Int {
        var version = 0
        try forEachRow("PRAGMA user_version") { row in version = Int(row.int64(0)) }
        return version
    }

    /// How text is stored: `UTF-8`, `UTF-16le` or `UTF-16be`.
    func textEncoding() throws(Failure) -> String {
        var encoding = "UTF-8"
        try forEachRow("PRAGMA encoding") { row in encoding = row.text(0) ?? encoding }
        return encoding
    }

    /// Runs `sql` (no parameters) and calls `body` with each row.
    func forEachRow(_ sql: String, _ body: (Row) -> Void) throws(Failure) {
        var statement: OpaquePointer?
        var status = rizq_sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status) }
        defer { rizq_sqlite3_finalize(statement) }
        while true {
            status = rizq_sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure(status) }
            body(Row(statement: statement))
        }
    }

    private func failure(_ status: Int32) -> Failure {
        Failure(code: rizq_sqlite3_extended_errcode(handle), message: String(cString: rizq_sqlite3_errmsg(handle)))
    }

    /// One result row, valid only during the callback.
    struct Row {
        let statement: OpaquePointer

        /// How column `index` is stored.
        func storageClass(_ index: Int32) -> StorageClass {
            switch rizq_sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: return .integer
            case SQLITE_FLOAT: return .real
            case SQLITE_TEXT: return .text
            case SQLITE_BLOB: return .blob
            default: return .null
            }
        }

        /// The bytes of column `index` as stored: a blob's bytes, or a text's bytes in the
        /// database's text encoding (not converted, so nothing invalid is replaced).
        func bytes(_ index: Int32) -> [UInt8] {
            let pointer = rizq_sqlite3_column_blob(statement, index)
            let count = Int(rizq_sqlite3_column_bytes(statement, index))
            guard let pointer, count > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: pointer, count: count))
        }

        /// Column `index`'s bytes as UTF-8, exactly as stored in a UTF-8 database (SQLite
        /// converts from a UTF-16 one) and never repaired: a text value with invalid UTF-8 or an
        /// embedded NUL keeps every byte, for ``StoredString`` to judge.
        func utf8Bytes(_ index: Int32) -> [UInt8] {
            guard let pointer = rizq_sqlite3_column_text(statement, index) else { return [] }
            let count = Int(rizq_sqlite3_column_bytes(statement, index))
            return Array(UnsafeBufferPointer(start: pointer, count: count))
        }

        /// Column `index` as UTF-8 text (SQLite converts).
        func text(_ index: Int32) -> String? {
            guard let pointer = rizq_sqlite3_column_text(statement, index) else { return nil }
            return String(cString: pointer)
        }

        /// Column `index` as an integer.
        func int64(_ index: Int32) -> Int64 {
            rizq_sqlite3_column_int64(statement, index)
        }
    }
}
#endif
