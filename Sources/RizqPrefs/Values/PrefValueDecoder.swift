import Foundation

/// Decodes any `Decodable` from a ``PrefValue`` tree, the inverse of ``PrefValueEncoder``.
///
/// Lenient only where a hand edit or an older version of the value makes it natural: a `Date`
/// also reads from ISO 8601 text, `Data` from base64 text, a `Double` from an integer. Anything
/// else of the wrong type is a `DecodingError`, so a `@CodableUserDefault` whose shape changed
/// falls back to its default instead of guessing.
public struct PrefValueDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `type` from `value`.
    /// - Throws: `DecodingError` naming the coding path of the first mismatch.
    public func decode<Value: Decodable>(_ type: Value.Type, from value: PrefValue) throws -> Value {
        try NodeDecoder(value: value, codingPath: []).decodeValue(type)
    }
}

private struct NodeDecoder: Decoder {
    let value: PrefValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let entries) = value else { throw mismatch([String: PrefValue].self) }
        return KeyedDecodingContainer(KeyedNodeDecoder<Key>(entries: entries, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([PrefValue].self) }
        return UnkeyedNodeDecoder(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ expected: Any.Type) -> DecodingError {
        .typeMismatch(expected, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindName)"))
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let special = try decodeSpecial(type) { return special }
        return try T(from: self)
    }

    /// The types ``PrefValueEncoder`` stores natively.
    private func decodeSpecial<T>(_ type: T.Type) throws -> T? {
        if type == Date.self {
            switch value {
            case .date(let date): return date as? T
            case .string(let text):
                guard let date = ISO8601Micro.parse(text) else { throw mismatch(Date.self) }
                return date as? T
            default: throw mismatch(Date.self)
            }
        }
        if type == Data.self {
            switch value {
            case .data(let data): return data as? T
            case .string(let text):
                guard let data = Data(base64Encoded: text) else { throw mismatch(Data.self) }
                return data as? T
            default: throw mismatch(Data.self)
            }
        }
        if type == URL.self {
            guard case .string(let text) = value, let url = URL.fromStoredText(text) else { throw mismatch(URL.self) }
            return url as? T
        }
        return nil
    }

    func convert<T: PrefValueConvertible>(_ type: T.Type) throws -> T {
        guard let converted = T(prefValue: value) else {
            if case .null = value {
                throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "found null"))
            }
            throw mismatch(type)
        }
        return converted
    }
}

extension NodeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try convert(type) }
    func decode(_ type: String.Type) throws -> String { try convert(type) }
    func decode(_ type: Double.Type) throws -> Double { try convert(type) }
    func decode(_ type: Float.Type) throws -> Float { try convert(type) }
    func decode(_ type: Int.Type) throws -> Int { try convert(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try convert(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try convert(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try convert(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try convert(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try convert(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try convert(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try convert(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try convert(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try convert(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

private struct KeyedNodeDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let entries: [String: PrefValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    private func child(_ key: Key) throws -> NodeDecoder {
        guard let value = entries[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for key '\(key.stringValue)'"))
        }
        return NodeDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).convert(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).convert(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).convert(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).convert(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).convert(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).convert(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).convert(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).convert(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).convert(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).convert(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).convert(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).convert(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).convert(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).convert(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        NodeDecoder(value: entries["super"] ?? .null, codingPath: codingPath + [IndexKey(stringKey: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        NodeDecoder(value: entries[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeDecoder: UnkeyedDecodingContainer {
    let items: [PrefValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [PrefValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next<T>(_ type: T.Type) throws -> NodeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [IndexKey(intValue: currentIndex)], debugDescription: "the array has only \(items.count) elements"))
        }
        defer { currentIndex += 1 }
        return NodeDecoder(value: items[currentIndex], codingPath: codingPath + [IndexKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).convert(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).convert(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).convert(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).convert(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).convert(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).convert(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).convert(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).convert(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).convert(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).convert(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).convert(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).convert(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).convert(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).convert(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: PrefValue].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([PrefValue].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(PrefValue.self)
    }
}
