#if Secrets
import Foundation

/// One value of a property list as the file holds it, before it becomes a suite value: the
/// dictionary keeps the file's order, and what a suite cannot hold (a keyed-archiver UID, a
/// string that is not valid Unicode, NaN) is kept as what it is, so that the importer can name
/// the key instead of the reader failing the whole file or replacing it silently.
indirect enum PropertyListNode: Sendable, Equatable {
    /// One key and its value, in file order.
    struct Member: Sendable, Equatable {
        /// The key, or for a key that is not valid Unicode its ``StoredString/displayText``.
        var key: String
        var value: PropertyListNode
        /// The key as stored, when it is not valid Unicode.
        var undecodableKey: StoredString?
    }

    case string(String)
    /// A string that is not valid Unicode (half a UTF-16 surrogate pair, a byte above 0x7F in a
    /// string marked ASCII), kept as stored.
    case undecodableString(StoredString)
    /// An integer in the signed 64-bit range.
    case integer(Int64)
    /// An integer above `Int64.max` (binary plists hold them in 16 bytes, XML as digits).
    case unsignedInteger(UInt64)
    /// `<real>` or a binary 4- or 8-byte real; may be non-finite.
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListNode])
    case dictionary([Member])
    /// A value no preferences file holds as such: a keyed-archiver UID, a set, a null marker, an
    /// integer wider than 64 bits. `what` says which, for the report.
    case unsupported(what: String)

    /// "a string", "an integer", …, for messages.
    var kindDescription: String {
        switch self {
        case .string, .undecodableString: return "a string"
        case .integer, .unsignedInteger: return "an integer"
        case .real: return "a real number"
        case .bool: return "a boolean"
        case .date: return "a date"
        case .data: return "data"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        case .unsupported(let what): return what
        }
    }
}
#endif
