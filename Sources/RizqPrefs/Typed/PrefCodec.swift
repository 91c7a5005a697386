import Foundation
import Logging
import Synchronization

/// How a typed key turns its `Value` into a stored value and back.
struct PrefCodec<Value: Sendable>: Sendable {
    /// `nil`: remove the key.
    let encode: @Sendable (Value) throws -> PrefValue?
    /// Throws (with a reason for the log) when the stored value is not a `Value`.
    let decode: @Sendable (PrefValue) throws -> Value
    /// Decoding is costly enough (Codable) to remember the last result.
    let caches: Bool

    static func native() -> PrefCodec where Value: UserDefaultValue {
        PrefCodec(
            encode: { $0.storedValue },
            decode: { stored in
                guard let value = Value.fromStored(stored) else { throw WrongType(found: stored.kindName, expected: "\(Value.self)") }
                return value
            },
            caches: false)
    }

    /// An enum (or any `RawRepresentable`) stored as its raw value, with no declaration.
    static func rawRepresentable() -> PrefCodec where Value: RawRepresentable, Value.RawValue: UserDefaultValue {
        PrefCodec(
            encode: { $0.rawValue.storedValue },
            decode: { stored in
                guard let value = Value.RawValue.fromStored(stored).flatMap(Value.init(rawValue:)) else {
                    throw WrongType(found: stored.kindName, expected: "\(Value.self)")
                }
                return value
            },
            caches: false)
    }

    /// For a type a suite cannot hold: every write is refused, every read is the default.
    static func refusing() -> PrefCodec {
        PrefCodec(
            encode: { _ in throw WrongType(found: "\(Value.self)", expected: "a type a suite can hold") },
            decode: { stored in throw WrongType(found: stored.kindName, expected: "\(Value.self), which a suite cannot hold") },
            caches: false)
    }

    static func codable() -> PrefCodec where Value: Codable {
        PrefCodec(
            encode: { value in
                let stored = try PrefValueEncoder().encode(value)
                return stored == .null ? nil : stored
            },
            decode: { stored in
                do {
                    return try PrefValueDecoder().decode(Value.self, from: stored)
                } catch {
                    // The usual UserDefaults idiom: JSONEncoder's output stored by hand, as Data
                    // or as a String. Read with JSONDecoder's defaults, the ones it was written with.
                    if let decoded = Self.decodeJSONText(stored, as: Value.self) { return decoded }
                    throw error
                }
            },
            caches: true)
    }

    /// `stored` as `JSONEncoder` output — `Data`, or the same text as a `String` — decoded by
    /// `JSONDecoder`; `nil` when it is neither, or does not decode as `Value`.
    static func decodeJSONText<Decoded: Decodable>(_ stored: PrefValue, as type: Decoded.Type) -> Decoded? {
        let text: Data
        switch stored {
        case .data(let bytes): text = bytes
        case .string(let string): text = Data(string.utf8)
        default: return nil
        }
        return try? JSONDecoder().decode(Decoded.self, from: text)
    }

    struct WrongType: Error, CustomStringConvertible {
        var found: String
        var expected: String
        var description: String { "found a \(found), expected \(expected)" }
    }
}

/// One warning per suite and key when a stored value does not read as the expected type, so
/// that a hot getter does not flood the log.
enum TypedReadWarnings {
    private static let warned = Mutex<Set<String>>([])

    static func warnOnce(suite: String, key: String, reason: String) {
        let first = warned.withLock { $0.insert(suite + "\u{0}" + key).inserted }
        guard first else { return }
        Logger.rizqPrefs.warning(
            "stored value of key '\(key)' does not read as the expected type (\(reason)); using the default and leaving the stored value as it is until the app writes a new one",
            metadata: ["suite": "\(suite)"])
    }
}
