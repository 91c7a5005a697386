import Foundation

/// Encodes any `Encodable` into a ``PrefValue`` tree, directly, with no JSON text in between:
/// structs become dictionaries, arrays stay arrays, `Date` becomes `.date`, `Data` becomes
/// `.data`, `URL` its absolute string. This is what makes a `@CodableUserDefault` readable in
/// the suite file as nested JSON.
///
/// ```swift
/// let stored = try PrefValueEncoder().encode(UserPreferences(dailyGoal: 3))
/// ```
public struct PrefValueEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The value's tree.
    /// - Throws: `EncodingError.invalidValue` when the value nests deeper than
    ///   ``PrefValue/maximumNesting`` (a recursive tree), or encodes nothing at all.
    public func encode<Value: Encodable>(_ value: Value) throws -> PrefValue {
        try EncodingNode.encode(value, codingPath: [])
    }
}

/// One node under construction. A reference, because containers hand out nested containers
/// that write into it after they return.
private final class EncodingNode {
    enum Content {
        case empty
        case value(PrefValue)
        case array([EncodingNode])
        case object([String: EncodingNode])
    }

    var content: Content = .empty

    var resolved: PrefValue {
        switch content {
        case .empty: return .dictionary([:])
        case .value(let value): return value
        case .array(let items): return .array(items.map(\.resolved))
        case .object(let entries): return .dictionary(entries.mapValues(\.resolved))
        }
    }

    static func encode<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws -> PrefValue {
        // A value this far down sits in a container nested deeper than a suite holds: refused
        // here, before its own encoding recurses further (a recursive tree could go on for
        // thousands of levels).
        guard codingPath.count <= PrefValue.maximumNesting else {
            throw EncodingError.invalidValue(value, .init(codingPath: Array(codingPath.prefix(8)), debugDescription: PrefValue.tooDeepReason))
        }
        if let special = try special(value, codingPath: codingPath) { return special }
        let node = EncodingNode()
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        return node.resolved
    }

    /// Types whose own `Encodable` conformance would lose their meaning in the tree.
    static func special(_ value: some Encodable, codingPath: [any CodingKey]) throws -> PrefValue? {
        switch value {
        case let date as Date: return .date(date)
        case let data as Data: return .data(data)
        case let url as URL: return .string(url.absoluteString)
        case let number as Double: return checked(number, codingPath)
        case let number as Float: return checked(Double(number.description) ?? Double(number), codingPath)
        default: return nil
        }
    }

    /// A number as stored: every `Double` can be (infinities and NaN in their tagged form).
    static func checked(_ number: Double, _ codingPath: [any CodingKey]) -> PrefValue {
        .double(number)
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([:]) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func put(_ child: EncodingNode, _ key: Key) {
        put(child, named: key.stringValue)
    }

    private func put(_ child: EncodingNode, named name: String) {
        guard case .object(var entries) = node.content else { return }
        node.content = .empty  // keeps `entries` uniquely referenced while it changes
        entries[name] = child
        node.content = .object(entries)
    }

    private func put(_ value: PrefValue, _ key: Key) {
        let child = EncodingNode()
        child.content = .value(value)
        put(child, key)
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(EncodingNode.checked(value, codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(EncodingNode.checked(Double(value.description) ?? Double(value), codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(value.prefValue, key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try EncodingNode.encode(value, codingPath: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode()
        child.content = .object([:])
        put(child, key)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode()
        child.content = .array([])
        put(child, key)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        put(child, named: "super")
        return NodeEncoder(node: child, codingPath: codingPath + [IndexKey(stringKey: "super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode()
        put(child, key)
        return NodeEncoder(node: child, codingPath: codingPath + [key])
    }
}

/// A coding key for array positions and for "super".
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String
    init(intValue: Int) {
        self.intValue = intValue
        stringValue = "\(intValue)"
    }
    init(stringKey: String) {
        stringValue = stringKey
    }
    init?(stringValue: String) { self.init(stringKey: stringValue) }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    private func append(_ child: EncodingNode) {
        guard case .array(var items) = node.content else { return }
        node.content = .empty
        items.append(child)
        node.content = .array(items)
    }

    private func append(_ value: PrefValue) {
        let child = EncodingNode()
        child.content = .value(value)
        append(child)
    }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(EncodingNode.checked(value, nextPath)) }
    mutating func encode(_ value: Float) throws { append(EncodingNode.checked(Double(value.description) ?? Double(value), nextPath)) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Int8) throws { append(value.prefValue) }
    mutating func encode(_ value: Int16) throws { append(value.prefValue) }
    mutating func encode(_ value: Int32) throws { append(value.prefValue) }
    mutating func encode(_ value: Int64) throws { append(value.prefValue) }
    mutating func encode(_ value: UInt) throws { append(value.prefValue) }
    mutating func encode(_ value: UInt8) throws { append(value.prefValue) }
    mutating func encode(_ value: UInt16) throws { append(value.prefValue) }
    mutating func encode(_ value: UInt32) throws { append(value.prefValue) }
    mutating func encode(_ value: UInt64) throws { append(value.prefValue) }
    mutating func encode<T: Encodable>(_ value: T) throws { append(try EncodingNode.encode(value, codingPath: nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode()
        child.content = .object([:])
        let path = nextPath
        append(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode()
        child.content = .array([])
        let path = nextPath
        append(child)
        return UnkeyedNodeContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        let path = nextPath
        append(child)
        return NodeEncoder(node: child, codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { node.content = .value(EncodingNode.checked(value, codingPath)) }
    mutating func encode(_ value: Float) throws { node.content = .value(EncodingNode.checked(Double(value.description) ?? Double(value), codingPath)) }
    mutating func encode(_ value: Int) throws { node.content = .value(.int(value)) }
    mutating func encode(_ value: Int8) throws { node.content = .value(value.prefValue) }
    mutating func encode(_ value: Int16) throws { node.content = .value(value.prefValue) }
    mutating func encode(_ value: Int32) throws { node.content = .value(value.prefValue) }
    mutating func encode(_ value: Int64) throws { node.content = .value(value.prefValue) }
    mutating func encode(_ value: UInt) throws { node.content = .value(value.prefValue) }
    mutating func encode(_ value: UInt8) throws { node.content = .value(value.prefValue) }
    mutating func encode(_ value: UInt16) throws { node.content = .value(value.prefValue) }
    mutating func encode(_ value: UInt32) throws { node.content = .value(value.prefValue) }
    mutating func encode(_ value: UInt64) throws { node.content = .value(value.prefValue) }
    mutating func encode<T: Encodable>(_ value: T) throws { node.content = .value(try EncodingNode.encode(value, codingPath: codingPath)) }
}
