#if Secrets
import RizqPrefs
import RizqJSON

/// How the importer reads JSON from a web app: dumps, plans, and values that hold JSON.
extension JSONNode {
    /// Parses JSON as a web app wrote it (a dump, or a plan written alongside one). A lone
    /// UTF-16 surrogate escape (which JavaScript strings can hold and `JSON.stringify` writes as
    /// `\udXXX`) becomes U+FFFD and is counted, instead of failing the whole dump.
    static func parseWebJSONDocument(_ bytes: [UInt8]) throws(JSONReader.Failure) -> JSONDocument {
        try JSONReader.parseDocument(bytes, loneSurrogates: .replace)
    }

    /// The value of JSON text held in a string, read like ``parseWebJSONDocument(_:)``.
    static func parseWebJSON(_ text: String) throws(JSONReader.Failure) -> JSONNode {
        try JSONReader.parseDocument(text, loneSurrogates: .replace).root
    }

    /// "an object", "an array", "a string", …, for messages.
    var kindDescription: String {
        switch kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }

    /// The value as a suite value: members in order with the last occurrence winning, numbers as
    /// `.int` when integral and in range, else `.double`. A web app's JSON means what it says,
    /// so `{"$date": …}` stays an object. `nil` when a number does not fit a finite double
    /// (`1e400`), which a suite cannot hold.
    var prefValue: PrefValue? {
        switch kind {
        case .object(let members):
            var entries: [String: PrefValue] = [:]
            entries.reserveCapacity(members.count)
            for member in members {
                guard let value = member.value.prefValue else { return nil }
                entries[member.key] = value
            }
            return .dictionary(entries)
        case .array(let elements):
            var values: [PrefValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = element.prefValue else { return nil }
                values.append(value)
            }
            return .array(values)
        case .string(let text):
            return .string(text)
        case .number(let text):
            return Self.number(text)
        case .bool(let flag):
            return .bool(flag)
        case .null:
            return .null
        }
    }

    static func number(_ text: String) -> PrefValue? {
        let integral = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
        if integral {
            if let value = Int(text) { return .int(value) }
            if let value = UInt64(text) { return .unsigned(value) }
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return .double(value)
    }
}
#endif
