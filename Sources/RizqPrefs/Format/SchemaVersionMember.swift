import RizqJSON
/// How a suite file records the version of its schema: the top-level member
/// `"$schemaVersion"`, a whole number from 0, written as the file's first member, and after it
/// `"$schemaApp"`, the app whose schema migrated the file to that version.
///
/// ```json
/// {
///   "$schemaVersion": 3,
///   "$schemaApp": "com.rizq.app",
///   "current_streak": 12
/// }
/// ```
///
/// It is not one of the suite's keys. Reading a file takes it out of the table
/// (``take(from:)``), so that nothing that shows keys — `keys`, `entries`, change streams, the
/// command-line tool — ever sees it; writing puts it back (``EncodedSuite``) with the version
/// the memory holds for the file. A write never changes it; only a schema migration does.
///
/// The name cannot collide with a key written from now on: storing a key of that name is
/// refused (``isReserved(_:)``). A file written before this member existed that holds a key of
/// that name keeps it as an ordinary key unless its value is a whole number from 0 (then it
/// reads as the version) — and a `$` key holding a number is what no app wrote by chance.
enum SchemaVersionMember {
    /// The member's name.
    static let key = "$schemaVersion"
    /// The member that records which app's schema migrated the file to its version (its app
    /// id), written after the version: `"$schemaApp": "com.example.app"`. A second app whose
    /// own schema does not run on the file is told so from it (``Migrator``). Files of
    /// earlier releases have none.
    static let appKey = "$schemaApp"

    /// Whether `key` is one of the members' names. The first byte is compared first: a store's
    /// hot path asks this of every key it stores.
    @inline(__always)
    static func isReserved(_ key: String) -> Bool {
        key.utf8.first == UInt8(ascii: "$") && (key == Self.key || key == Self.appKey)
    }

    /// The version held by `value`, when it is one: a whole number from 0.
    static func version(in value: PrefValue) -> Int? {
        if case .int(let number) = value, number >= 0 { return number }
        return nil
    }

    /// Takes the members out of a table just read from a file and returns what they record;
    /// `nil` when the file has no version. A version member whose value is not a version stays
    /// in the table, as the ordinary key it was in files written before; so does an app member
    /// without a version, or whose value is not text.
    static func take(from table: inout SuiteTable) -> MigrationMark? {
        guard let value = table[key], let version = version(in: value) else { return nil }
        table.removeValue(forKey: key)
        var app: String?
        if case .string(let text)? = table[appKey] {
            app = text
            table.removeValue(forKey: appKey)
        }
        return MigrationMark(version: version, app: app)
    }

    /// The members' text after the file's `{`, for a file at `mark`.
    static func append(_ mark: MigrationMark, to output: inout [UInt8]) {
        JSONWriter.appendSuiteKey(key, to: &output)
        output.append(contentsOf: String(mark.version).utf8)
        if let app = mark.app {
            output.append(UInt8(ascii: ","))
            JSONWriter.appendSuiteKey(appKey, to: &output)
            JSONWriter.writeString(app, into: &output)
        }
    }
}

/// What a suite file records of its schema (``SchemaVersionMember``): the version of its data,
/// and the app whose schema migrated it there (`nil` in files of earlier releases). Never one of
/// the suite's keys; a write carries it over unchanged, only a migration sets it.
struct MigrationMark: Equatable, Sendable {
    var version: Int
    var app: String?
}
