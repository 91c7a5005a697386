/// The codec for a `Value` known only at run time: what an app's one-line key-enum initializer
/// (``PreferenceWrapper``) reaches, since its `Value` is unconstrained there. The same choice
/// the compiler makes for ``UserDefault``'s checked initializers, made once per property.
extension PrefCodec {
    /// A stored type (``UserDefaultValue``), else a `RawRepresentable` over one (or an optional
    /// of it), else `Codable`; `nil` when `Value` is none of these.
    static func dynamic() -> PrefCodec? {
        if let native = Value.self as? any UserDefaultValue.Type { return native.openNative() }
        if let raw = Value.self as? any RawRepresentable.Type { return raw.openRaw() }
        if let optional = Value.self as? any OptionalType.Type, let raw = optional.wrappedType as? any RawRepresentable.Type {
            return raw.openOptionalRaw()
        }
        if let codable = Value.self as? any Codable.Type { return codable.openCodable() }
        return nil
    }

    fileprivate static func wrongType(_ stored: PrefValue) -> WrongType {
        WrongType(found: stored.kindName, expected: "\(Value.self)")
    }
}

/// `Optional`, whatever it wraps, so that its wrapped type can be looked at.
private protocol OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}

extension UserDefaultValue {
    fileprivate static func openNative<Value: Sendable>() -> PrefCodec<Value>? {
        // `Self` is `Value` here; the cast only tells the compiler so.
        PrefCodec<Self>.native() as? PrefCodec<Value>
    }
}

extension RawRepresentable {
    fileprivate static func openRaw<Value: Sendable>() -> PrefCodec<Value>? {
        guard let raw = RawValue.self as? any UserDefaultValue.Type else { return nil }
        return raw.rawCodec(for: Self.self, optional: false)
    }

    fileprivate static func openOptionalRaw<Value: Sendable>() -> PrefCodec<Value>? {
        guard let raw = RawValue.self as? any UserDefaultValue.Type else { return nil }
        return raw.rawCodec(for: Self.self, optional: true)
    }
}

extension UserDefaultValue {
    /// A codec for `Value`, which is `Enum` (or `Enum?` when `optional`), whose raw value is `Self`.
    fileprivate static func rawCodec<Enum: RawRepresentable, Value: Sendable>(for _: Enum.Type, optional: Bool) -> PrefCodec<Value> {
        PrefCodec(bridge: RawBridge<Enum, Self, Value>(optional: optional), caches: false)
    }
}

extension Decodable where Self: Encodable {
    fileprivate static func openCodable<Value: Sendable>() -> PrefCodec<Value>? {
        PrefCodec(bridge: CodableBridge<Self, Value>(), caches: true)
    }
}

/// A conversion chosen at run time. The codec's closures hold it as an existential, so that they
/// capture no metatype of the types it was built from.
private protocol ValueBridge<Value>: Sendable {
    associatedtype Value: Sendable
    func encode(_ value: Value) throws -> PrefValue?
    func decode(_ stored: PrefValue) throws -> Value
}

extension PrefCodec {
    fileprivate init(bridge: any ValueBridge<Value>, caches: Bool) {
        self.init(encode: { try bridge.encode($0) }, decode: { try bridge.decode($0) }, caches: caches)
    }
}

/// Converts between `Value` and stored values through `Enum`, whose raw value is a `Raw`. Holds
/// no state: unchecked-`Sendable` only because the metatypes it is generic over are not known to
/// be (their values are never shared).
private final class RawBridge<Enum: RawRepresentable, Raw: UserDefaultValue, Value: Sendable>: ValueBridge, @unchecked Sendable {
    let optional: Bool

    init(optional: Bool) { self.optional = optional }

    func encode(_ value: Value) throws -> PrefValue? {
        // For `Enum?`, a `nil` does not cast to `Enum`: it removes the key.
        guard let item = value as? Enum else {
            if optional { return nil }
            throw PrefCodec<Value>.WrongType(found: "\(type(of: value))", expected: "\(Enum.self)")
        }
        return (item.rawValue as? Raw)?.storedValue
    }

    func decode(_ stored: PrefValue) throws -> Value {
        guard let raw = Raw.fromStored(stored).flatMap({ $0 as? Enum.RawValue }), let item = Enum(rawValue: raw), let value = item as? Value else {
            throw PrefCodec<Value>.wrongType(stored)
        }
        return value
    }
}

/// Converts between `Value` and stored values through `Item`'s `Codable` form (see ``RawBridge``).
private final class CodableBridge<Item: Codable, Value: Sendable>: ValueBridge, @unchecked Sendable {
    func encode(_ value: Value) throws -> PrefValue? {
        guard let item = value as? Item else { throw PrefCodec<Value>.WrongType(found: "\(type(of: value))", expected: "\(Item.self)") }
        let stored = try PrefValueEncoder().encode(item)
        return stored == .null ? nil : stored
    }

    func decode(_ stored: PrefValue) throws -> Value {
        guard let value = try PrefValueDecoder().decode(Item.self, from: stored) as? Value else { throw PrefCodec<Value>.wrongType(stored) }
        return value
    }
}
