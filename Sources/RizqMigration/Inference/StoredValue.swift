import RizqPrefs

/// A `localStorage` value and the JSON it holds, parsed at most once however many rules look
/// into it: credential detection, inference and a plan's `json` type each used to parse a
/// redux-persist blob of their own.
final class StoredValue {
    /// The value, as `localStorage.getItem` returned it.
    let text: String

    init(_ text: String) {
        self.text = text
    }

    /// The JSON value of ``text`` when, after JSON white space, it starts with `{`, `[` or `"`;
    /// `nil` when it does not, or is not JSON. Parsed on first use.
    private(set) lazy var json: JSONNode? = {
        guard let first = Self.firstByte(text),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
        else { return nil }
        return try? JSONNode.parseWebJSON(text)
    }()

    /// The first byte of `text` that is not JSON white space (space, tab, line feed, carriage
    /// return), or `nil`.
    static func firstByte(_ text: String) -> UInt8? {
        text.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }
    }
}
