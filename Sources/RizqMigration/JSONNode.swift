import RizqPrefs

/// A parsed JSON value that keeps what a dump reader needs and `PrefValue` drops: the order of
/// object members, repeated keys, where each value sits in the input, and numbers as written.
struct JSONNode: Sendable {
    /// One object member, in input order (a repeated key appears once per occurrence).
    struct Member: Sendable {
        var key: String
        /// Byte offset of the key's opening quote.
        var keyOffset: Int
        var value: JSONNode
    }

    enum Kind: Sendable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        /// The number's text exactly as written (JSON grammar already checked).
        case number(String)
        case bool(Bool)
        case null
    }

    var kind: Kind
    /// The bytes of the input this value was parsed from.
    var range: Range<Int>

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

    var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    var members: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    var elements: [JSONNode]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    /// The last value of `key` in an object (the last occurrence wins, as in JavaScript).
    subscript(key: String) -> JSONNode? {
        members?.last { $0.key == key }?.value
    }

    /// The value as a suite value: members in order with the last occurrence winning, numbers as
    /// `.int` when integral and in range, else `.double`. `nil` when a number does not fit a
    /// finite double (`1e400`), which a suite cannot hold.
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
