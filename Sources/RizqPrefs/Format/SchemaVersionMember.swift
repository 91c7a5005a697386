import RizqJSON
/// How a suite file records the version of its schema: the top-level member
/// `"$schemaVersion"`, a whole number from 0, written as the file's first member.
///
/// ```json
/// {
///   "$schemaVersion": 3,
///   "current_streak": 12
/// }
/// ```
///
/// It is not one of the suite's keys. Reading a file takes it out of the table
/// (``take(from:)``), so that nothing that shows keys — `keys`, `entries`, change streams, the
/// command-line tool — ever sees it; writing puts it back (``EncodedSuite``) with the version
/// the replica holds for the file. A write never changes it; only a schema migration does.
///
/// The name cannot collide with a key written from now on: storing a key of that name is
/// refused (``isReserved(_:)``). A file written before this member existed that holds a key of
/// that name keeps it as an ordinary key unless its value is a whole number from 0 (then it
/// reads as the version) — and a `$` key holding a number is what no app wrote by chance.
enum SchemaVersionMember {
    /// The member's name.
    static let key = "$schemaVersion"

    /// Whether `key` is the member's name. The first byte is compared first: a store's hot
    /// path asks this of every key it stores.
    @inline(__always)
    static func isReserved(_ key: String) -> Bool {
        key.utf8.first == UInt8(ascii: "$") && key == Self.key
    }

    /// The version held by `value`, when it is one: a whole number from 0.
    static func version(in value: PrefValue) -> Int? {
        if case .int(let number) = value, number >= 0 { return number }
        return nil
    }

    /// Takes the member out of a table just read from a file and returns its version; `nil`
    /// when the file has none. A member whose value is not a version stays in the table, as the
    /// ordinary key it was in files written before.
    static func take(from table: inout SuiteTable) -> Int? {
        guard let value = table[key], let version = version(in: value) else { return nil }
        table.removeValue(forKey: key)
        return version
    }

    /// The member's text after the file's `{`, for a file at `version`.
    static func append(_ version: Int, to output: inout [UInt8]) {
        JSONWriter.appendSuiteKey(key, to: &output)
        output.append(contentsOf: String(version).utf8)
    }
}
