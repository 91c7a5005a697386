#if Secrets
import Foundation
import RizqJSON
import RizqPrefs

extension PropertyListNode {
    /// Why a property list value cannot become a suite value; never holds the value.
    struct Unstorable: Error {
        /// What it is, e.g. "a keyed-archiver UID (…)".
        var what: String
        /// Where inside the top-level value it is, e.g. "/a/0"; empty for the value itself.
        var path: String

        /// "its value is …, which a suite cannot hold" or "its value holds … at /a/0, …".
        var reason: String {
            (path.isEmpty ? "its value is \(what)" : "its value holds \(what) at \(path)") + ", which a suite cannot hold"
        }
    }

    /// The suite value: dictionaries and arrays nested, dates, data and the integer/real
    /// distinction kept. `path` names where this value is, for the reason of a failure.
    /// - Throws: ``Unstorable`` for what a suite cannot hold: a value a preferences file never
    ///   holds, a string or key that is not valid Unicode, NaN or an infinity, a date the suite
    ///   file cannot write.
    func prefValue(path: String = "") throws(Unstorable) -> PrefValue {
        switch self {
        case .string(let text): return .string(text)
        case .undecodableString(let stored):
            throw Unstorable(what: "a string that is not valid Unicode (\(stored.problem ?? "as stored"))", path: path)
        case .integer(let value): return .int(Int(value))
        case .unsignedInteger(let value): return .unsigned(value)
        case .bool(let value): return .bool(value)
        case .data(let data): return .data(data)
        case .real(let value):
            guard value.isFinite else { throw Unstorable(what: "the real number \(value) (JSON has no such number)", path: path) }
            return .double(value)
        case .date(let date):
            guard Self.suiteHolds(date) else {
                throw Unstorable(what: "a date outside the years a suite file writes (\(date.timeIntervalSince1970) seconds from 1970)", path: path)
            }
            return .date(date)
        case .array(let elements):
            var values: [PrefValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() { values.append(try element.prefValue(path: path + "/\(index)")) }
            return .array(values)
        case .dictionary(let members):
            var values: [String: PrefValue] = [:]
            values.reserveCapacity(members.count)
            for member in members {
                let memberPath = path + "/" + member.key
                if let key = member.undecodableKey { throw Unstorable(what: "a key that is not valid Unicode (\(key.problem ?? "as stored"))", path: memberPath) }
                values[member.key] = try member.value.prefValue(path: memberPath)
            }
            return .dictionary(values)
        case .unsupported(let what):
            throw Unstorable(what: what, path: path)
        }
    }

    /// Whether the suite file writes `date` as a date that reads back as one (its tagged form
    /// has a four-digit year).
    private static func suiteHolds(_ date: Date) -> Bool {
        guard let text = try? JSONWriter.string(.date(date)), case .date? = try? JSONReader.parse(text) else { return false }
        return true
    }
}
#endif
