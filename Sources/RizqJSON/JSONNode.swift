/// A JSON value as it is written, with what ``PrefValue`` leaves out: object members in input
/// order, every occurrence of a repeated key, where each value sits in the input, and numbers
/// as their text. Tags such as `{"$date": …}` are plain objects here.
///
/// ``JSONReader/parseDocument(_:loneSurrogates:)`` makes them:
///
/// ```swift
/// let bytes = Array(#"{"b": 1.50, "a": [true], "b": 2}"#.utf8)
/// let root = try JSONReader.parseDocument(bytes).root
/// root.members?.map(\.key)                   // ["b", "a", "b"]
/// root["b"]?.kind                            // .number("2"): the last "b" wins
/// root.members?[0].value.kind                // .number("1.50"), as written
/// root["a"].map { String(decoding: bytes[$0.range], as: UTF8.self) }   // "[true]"
/// ```
public struct JSONNode: Sendable, Equatable {
    /// One object member. A key that occurs several times gives one member per occurrence.
    public struct Member: Sendable, Equatable {
        /// The key, escapes undone.
        @usableFromInline package var key: String
        /// Byte offset of the key's opening quote in the input.
        @usableFromInline package var keyOffset: Int
        /// The member's value.
        @usableFromInline package var value: JSONNode

        /// A member; `keyOffset` is the byte offset of the key's opening quote.
        @usableFromInline package init(key: String, keyOffset: Int, value: JSONNode) {
            self.key = key
            self.keyOffset = keyOffset
            self.value = value
        }
    }

    /// What the value is.
    public enum Kind: Sendable, Equatable {
        /// Members in input order.
        case object([Member])
        /// Elements in input order.
        case array([JSONNode])
        /// A string, escapes undone.
        case string(String)
        /// A number's text exactly as written (JSON's number grammar already checked), so that
        /// neither `1.50` nor a 30-digit integer loses anything.
        case number(String)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
    }

    /// What the value is.
    @usableFromInline package var kind: Kind
    /// The bytes of the input the value was read from: from its first byte (`{`, `[`, a quote,
    /// a digit, …) to just after its last.
    @usableFromInline package var range: Range<Int>

    /// A value read from `range` of some input.
    @usableFromInline package init(kind: Kind, range: Range<Int>) {
        self.kind = kind
        self.range = range
    }

    /// The text of a string, or `nil` for any other kind.
    @usableFromInline package var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    /// The members of an object, or `nil` for any other kind.
    @usableFromInline package var members: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// The elements of an array, or `nil` for any other kind.
    @usableFromInline package var elements: [JSONNode]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    /// The value of `key` in an object: its last occurrence, as in JavaScript. `nil` when the
    /// key is absent or this is not an object.
    @usableFromInline package subscript(key: String) -> JSONNode? {
        members?.last { $0.key == key }?.value
    }
}
