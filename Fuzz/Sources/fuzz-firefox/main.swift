// The Firefox readers: the input is a table of rows written with the real SQLite library as an
// LSNG `data.sqlite` (schema 5, or the older `compressed` schema) or a `webappsstore.sqlite`,
// with fuzzed keys, values (BLOB, TEXT or NULL; raw, or snappy-compressed by libsnappy), UTF-16
// lengths, conversion and compression types and origin keys — or the input itself as the
// database file. Every row with a key and a value comes back as an item, and each origin's dump
// goes through a dry run of the importer.
import CFuzzStores
import Foundation
import FuzzSupport
import RizqImport
@_spi(Fuzzing) import RizqProfiles  // the readers and PrivateCopy: public only for the fuzzers

let scratch = Scratch()
nonisolated(unsafe) var round = 0
/// SQLite copies what it is given (SQLITE_TRANSIENT, a macro Swift does not import).
nonisolated(unsafe) let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

enum Layout: UInt8 {
    case lsng, lsngOld, webappsstore, rawFile
}

let schemas: [Layout: String] = [
    .lsng: """
        PRAGMA user_version = 80;
        CREATE TABLE database (origin TEXT, usage INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE data (key TEXT PRIMARY KEY, utf16_length INTEGER, conversion_type INTEGER, compression_type INTEGER, last_access_time INTEGER NOT NULL DEFAULT 0, value BLOB);
        """,
    .lsngOld: """
        PRAGMA user_version = 3;
        CREATE TABLE database (origin TEXT);
        CREATE TABLE data (key TEXT PRIMARY KEY, value TEXT, utf16Length INTEGER, compressed INTEGER, lastAccessTime INTEGER NOT NULL DEFAULT 0);
        """,
    .webappsstore: """
        PRAGMA user_version = 2;
        CREATE TABLE webappsstore2 (originAttributes TEXT, originKey TEXT, scope TEXT, key TEXT, value TEXT);
        CREATE UNIQUE INDEX origin_key_index ON webappsstore2(originAttributes, originKey, key);
        """,
]

let inserts: [Layout: String] = [
    .lsng: "INSERT OR REPLACE INTO data (key, value, utf16_length, conversion_type, compression_type) VALUES (?1, ?2, ?3, ?4, ?5)",
    .lsngOld: "INSERT OR REPLACE INTO data (key, value, utf16Length, compressed) VALUES (?1, ?2, ?3, ?5)",
    .webappsstore: "INSERT OR REPLACE INTO webappsstore2 (key, value, originKey, originAttributes, scope) VALUES (?1, ?2, ?3, ?4, ?5)",
]

let originKeys = ["oi.qzir.ppa.:https:443", "moc.elpmaxe.:http:80", ":file", "..:https", "oi.qzir.ppa.:https"]
let attributes = ["", "^userContextId=1", "^privateBrowsingId=1&firstPartyDomain=x"]

/// libsnappy's raw compression of `bytes`.
func snappy(_ bytes: [UInt8]) -> [UInt8] {
    var length = snappy_max_compressed_length(bytes.count)
    var output = [UInt8](repeating: 0, count: length)
    let status = bytes.withUnsafeBufferPointer { input in
        input.withMemoryRebound(to: CChar.self) { source in
            output.withUnsafeMutableBufferPointer { target in
                target.withMemoryRebound(to: CChar.self) { snappy_compress(source.baseAddress, source.count, $0.baseAddress, &length) }
            }
        }
    }
    return status == SNAPPY_OK ? Array(output.prefix(length)) : bytes
}

/// Binds fuzzed bytes as TEXT, BLOB or NULL.
func bind(_ statement: OpaquePointer, _ index: Int32, _ bytes: [UInt8], as kind: UInt8) {
    switch kind % 4 {
    case 0: sqlite3_bind_null(statement, index)
    case 1: _ = bytes.withUnsafeBufferPointer { sqlite3_bind_text(statement, index, UnsafeRawPointer($0.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self), Int32($0.count), transient) }
    default: _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), transient) }
    }
}

/// Makes the database at `path` from the input's rows; false when SQLite refused.
func write(_ path: String, _ layout: Layout, _ reader: inout FuzzedValue) -> Bool {
    var database: OpaquePointer?
    guard sqlite3_open(path, &database) == SQLITE_OK, let database else { return false }
    defer { sqlite3_close(database) }
    guard let schema = schemas[layout], let insert = inserts[layout], sqlite3_exec(database, schema, nil, nil, nil) == SQLITE_OK else { return false }
    if layout != .webappsstore {
        let origin = reader.byte() & 1 == 0 ? "https://app.rizq.io" : reader.string()
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "INSERT INTO database (origin) VALUES (?1)", -1, &statement, nil) == SQLITE_OK, let statement else { return false }
        bind(statement, 1, Array(origin.utf8), as: reader.byte())
        sqlite3_step(statement)
        sqlite3_finalize(statement)
    }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(database, insert, -1, &statement, nil) == SQLITE_OK, let statement else { return false }
    defer { sqlite3_finalize(statement) }
    var rows = 0
    while !reader.isAtEnd, rows < 40 {
        rows += 1
        let flags = reader.byte()
        var value = reader.bytes(upTo: 700)
        if flags & 0x10 != 0 { value = snappy(value) }
        bind(statement, 1, reader.bytes(upTo: 48), as: flags & 0x20 == 0 ? 1 : reader.byte())
        bind(statement, 2, value, as: flags & 0x40 == 0 ? 2 : reader.byte())
        if layout == .webappsstore {
            let originKey = flags & 1 == 0 ? Array(originKeys[Int(flags >> 1) % originKeys.count].utf8) : reader.bytes(upTo: 40)
            let attribute = Array(attributes[Int(flags >> 2) % attributes.count].utf8)
            bind(statement, 3, originKey, as: 1)
            bind(statement, 4, attribute, as: 1)
            bind(statement, 5, attribute + [UInt8(ascii: ":")] + originKey, as: 1)
        } else {
            // The UTF-16 length; the conversion (1: UTF-8, 0: UTF-16) and compression (1:
            // snappy) types, or any number.
            sqlite3_bind_int64(statement, 3, Int64(truncatingIfNeeded: flags & 0x80 == 0 ? UInt64(reader.byte()) : reader.uint64()))
            sqlite3_bind_int64(statement, 4, flags & 0x08 == 0 ? Int64(flags & 1) : Int64(truncatingIfNeeded: reader.uint64()))
            sqlite3_bind_int64(statement, 5, flags & 0x04 == 0 ? Int64(flags >> 4 & 1) : Int64(truncatingIfNeeded: reader.uint64()))
        }
        sqlite3_step(statement)
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }
    return true
}

/// The rows with a key and a value: the items the reader must return.
func itemRows(_ path: String, _ layout: Layout) -> Int {
    var database: OpaquePointer?
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let database else { return -1 }
    defer { sqlite3_close(database) }
    let table = layout == .webappsstore ? "webappsstore2" : "data"
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(database, "SELECT count(*) FROM \(table) WHERE key IS NOT NULL AND value IS NOT NULL", -1, &statement, nil) == SQLITE_OK, let statement else { return -1 }
    defer { sqlite3_finalize(statement) }
    return sqlite3_step(statement) == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : -1
}

runFuzzer { input in
    round += 1
    let folder = scratch.root + "/firefox-\(round)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try? FileManager.default.createDirectory(atPath: folder + "/ls", withIntermediateDirectories: true)
    var reader = FuzzedValue(input)
    let layout = Layout(rawValue: reader.byte() % 4) ?? .rawFile
    let path = folder + (layout == .webappsstore ? "/webappsstore.sqlite" : "/ls/data.sqlite")
    if layout == .rawFile {
        require(FileManager.default.createFile(atPath: path, contents: Data(input.dropFirst())), "cannot write \(path)")
    } else {
        guard write(path, layout, &reader) else { return }
    }
    guard let copy = try? PrivateCopy() else { return require(false, "no private copy folder") }
    defer { copy.remove() }
    let read: [StoredOrigin]
    do {
        read = layout == .webappsstore
            ? try FirefoxLocalStorageReader().read(webappsstore: path, in: copy)
            : [try FirefoxLocalStorageReader().read(lsngDatabase: path, in: copy)]
    } catch {
        // A file SQLite wrote reads; a file of fuzzed bytes may be refused (with a ProfileError).
        return require(layout == .rawFile, "a database SQLite wrote does not read: \(error)")
    }
    if layout != .rawFile {
        let expected = itemRows(path, layout)
        let items = read.reduce(0) { $0 + $1.items.count }
        require(items == expected, "\(expected) rows with a key and a value, \(items) items read")
    }
    for origin in read {
        dryRunImport(origin.dump(format: layout == .webappsstore ? .firefoxWebappsstore : .firefoxLSNG, source: path), root: scratch.root)
    }
}
