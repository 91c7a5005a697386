import CSnappy
import Foundation
import XCTest
@testable import RizqProfiles

/// Writes Firefox storage as Firefox writes it, with the real SQLite and snappy libraries: for
/// what the corpus lacks (UTF-16 values, other schemas, damaged files, whole profiles).
enum FirefoxFixture {
    /// How a row's value is stored.
    enum Stored {
        /// A BLOB (every value Firefox writes but the empty string).
        case blob([UInt8])
        /// TEXT (Firefox binds the empty string as TEXT '').
        case text(String)
    }

    /// One row of an LSNG `data` table.
    struct Row {
        var key: String
        var value: Stored
        var conversion: Int
        var compression: Int
        var utf16Length: Int

        /// A string as Firefox stores it: UTF-8 when it is valid Unicode, snappy-compressed when
        /// that is over 16 bytes and gets smaller, the empty string as TEXT ''.
        static func text(_ key: String, _ value: String) -> Row {
            let utf8 = Array(value.utf8)
            if utf8.isEmpty { return Row(key: key, value: .text(""), conversion: 1, compression: 0, utf16Length: 0) }
            let compressed = FirefoxFixture.snappy(utf8)
            let smaller = utf8.count > 16 && compressed.count < utf8.count
            return Row(key: key, value: .blob(smaller ? compressed : utf8), conversion: 1, compression: smaller ? 1 : 0, utf16Length: value.utf16.count)
        }

        /// UTF-16 code units, as Firefox stores a string with a lone surrogate (conversion 0).
        static func units(_ key: String, _ units: [UInt16], compress: Bool = false) -> Row {
            let bytes = FirefoxFixture.utf16LE(units)
            return Row(key: key, value: .blob(compress ? FirefoxFixture.snappy(bytes) : bytes), conversion: 0, compression: compress ? 1 : 0, utf16Length: units.count)
        }
    }

    /// Raw snappy (Firefox's `SnappyCompress`), through libsnappy.
    static func snappy(_ bytes: [UInt8]) -> [UInt8] {
        var length = snappy_max_compressed_length(bytes.count)
        var output = [UInt8](repeating: 0, count: length)
        let status = bytes.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { source in
                output.withUnsafeMutableBufferPointer { target in
                    target.withMemoryRebound(to: CChar.self) { snappy_compress(source.baseAddress, source.count, $0.baseAddress, &length) }
                }
            }
        }
        XCTAssertEqual(status, SNAPPY_OK)
        return Array(output.prefix(length))
    }

    static func utf16LE(_ units: [UInt16]) -> [UInt8] {
        units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02X", $0) }.joined()
    }

    static func sqlText(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Makes `originFolder/ls/data.sqlite` (schema 5) naming `origin` (none when `nil`) with `rows`.
    @discardableResult
    static func makeLSNG(_ originFolder: String, origin: String?, rows: [Row]) throws -> String {
        try FileManager.default.createDirectory(atPath: originFolder + "/ls", withIntermediateDirectories: true)
        let path = originFolder + "/ls/data.sqlite"
        var sql = """
            PRAGMA user_version = 80;
            CREATE TABLE database (origin TEXT NOT NULL, usage INTEGER NOT NULL DEFAULT 0, last_vacuum_time INTEGER NOT NULL DEFAULT 0, last_analyze_time INTEGER NOT NULL DEFAULT 0, last_vacuum_size INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE data (key TEXT PRIMARY KEY, utf16_length INTEGER NOT NULL, conversion_type INTEGER NOT NULL, compression_type INTEGER NOT NULL, last_access_time INTEGER NOT NULL DEFAULT 0, value BLOB NOT NULL);

            """
        if let origin { sql += "INSERT INTO database (origin) VALUES (\(sqlText(origin)));\n" }
        for row in rows {
            let value: String
            switch row.value {
            case .blob(let bytes): value = "X'\(hex(bytes))'"
            case .text(let text): value = sqlText(text)
            }
            sql += "INSERT INTO data (key, utf16_length, conversion_type, compression_type, value) VALUES (\(sqlText(row.key)), \(row.utf16Length), \(row.conversion), \(row.compression), \(value));\n"
        }
        try sqlite(path, sql)
        return path
    }

    /// Makes a `webappsstore.sqlite` (schema 2) at `path` with `(originAttributes, originKey, key, value)` rows.
    static func makeWebappsstore(_ path: String, rows: [(String, String, String, String)]) throws {
        var sql = """
            PRAGMA user_version = 2;
            CREATE TABLE webappsstore2 (originAttributes TEXT, originKey TEXT, scope TEXT, key TEXT, value TEXT);
            CREATE UNIQUE INDEX origin_key_index ON webappsstore2(originAttributes, originKey, key);

            """
        for (attributes, originKey, key, value) in rows {
            sql += "INSERT INTO webappsstore2 VALUES (\(sqlText(attributes)), \(sqlText(originKey)), \(sqlText(attributes + ":" + originKey)), \(sqlText(key)), \(sqlText(value)));\n"
        }
        try sqlite(path, sql)
    }
}
