#if Secrets
/// A `localStorage` key or value as a browser stored it on disk: text, or code units that are
/// not valid Unicode, kept exactly as they were.
///
/// JavaScript strings are sequences of UTF-16 code units, and nothing stops a web app from
/// storing half of a surrogate pair (a string cut in the middle of an emoji). Browsers write such
/// strings as they are; a reader that decodes them with replacement characters changes the data
/// without saying so. A `StoredString` keeps the stored bytes and says why they are not text, so
/// that the importer can name the key in its report and a plan can decide what happens to it
/// (``ImportPlan/UndecodableAction``).
///
/// ```swift
/// let value = StoredString(utf16LE: [0x3D, 0xD8])      // a lone high surrogate
/// value.text                                           // nil
/// value.problem                                        // "a lone UTF-16 surrogate (0xD83D) at code unit 0"
/// value.displayText                                    // "\uD83D"
/// ```
public struct StoredString: Sendable, Hashable {
    /// How the stored bytes encode the string.
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// One byte per code point, U+0000 to U+00FF (ISO-8859-1 proper, not Windows-1252).
        case latin1 = "Latin-1"
        /// Little-endian UTF-16 code units.
        case utf16LE = "UTF-16LE"
        /// UTF-8.
        case utf8 = "UTF-8"
        /// An encoding the reader does not know (e.g. an unknown format byte).
        case unknown
    }

    /// The bytes as stored, without a format byte.
    public let bytes: [UInt8]
    /// How ``bytes`` encode the string.
    public let encoding: Encoding
    /// The string, when ``bytes`` are valid in ``encoding``; `nil` otherwise.
    public let text: String?
    /// Why ``bytes`` are not a string (`nil` when ``text`` is set). Never holds the value.
    public let problem: String?

    /// A string that is valid text.
    public init(_ text: String) {
        self.bytes = Array(text.utf8)
        self.encoding = .utf8
        self.text = text
        self.problem = nil
    }

    /// ISO-8859-1 bytes: every byte is the code point of the same number, so they are always text.
    public init(latin1 bytes: [UInt8]) {
        self.bytes = bytes
        self.encoding = .latin1
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        self.text = String(scalars)
        self.problem = nil
    }

    /// Little-endian UTF-16 bytes. An odd number of bytes or an unpaired surrogate makes it
    /// undecodable (``text`` is `nil`, ``problem`` says where).
    public init(utf16LE bytes: [UInt8]) {
        self.bytes = bytes
        self.encoding = .utf16LE
        if bytes.count % 2 != 0 {
            self.text = nil
            self.problem = "odd-length UTF-16 (\(bytes.count) bytes: the last code unit is cut)"
            return
        }
        let units = Self.units(bytes)
        if let bad = Self.firstUnpairedSurrogate(units) {
            self.text = nil
            self.problem = "a lone UTF-16 surrogate (0x\(Self.hex(units[bad], width: 4))) at code unit \(bad)"
        } else {
            self.text = String(decoding: units, as: UTF16.self)
            self.problem = nil
        }
    }

    /// UTF-8 bytes; invalid UTF-8 (including surrogates encoded as three bytes) is undecodable.
    public init(utf8 bytes: [UInt8]) {
        self.bytes = bytes
        self.encoding = .utf8
        if let text = String(validating: bytes, as: UTF8.self) {
            self.text = text
            self.problem = nil
        } else {
            self.text = nil
            let offset = Self.firstInvalidUTF8(bytes) ?? 0
            self.problem = "not valid UTF-8 at byte \(offset)"
        }
    }

    /// Bytes in an encoding the reader does not know; `problem` says which (never the value).
    public init(undecodable bytes: [UInt8], problem: String) {
        self.bytes = bytes
        self.encoding = .unknown
        self.text = nil
        self.problem = problem
    }

    /// Whether the bytes are valid text.
    public var isText: Bool { text != nil }

    /// The string for people: the text, or for undecodable bytes the decodable parts with each
    /// invalid UTF-16 code unit written `\uD83D` and each invalid byte `\xFF`. This is how a plan
    /// names an undecodable key.
    public var displayText: String {
        if let text { return text }
        switch encoding {
        case .utf16LE:
            var result = ""
            let units = Self.units(bytes)
            var index = 0
            while index < units.count {
                let unit = units[index]
                if UTF16.isLeadSurrogate(unit), index + 1 < units.count, UTF16.isTrailSurrogate(units[index + 1]) {
                    result += String(decoding: units[index...index + 1], as: UTF16.self)
                    index += 2
                } else if UTF16.isLeadSurrogate(unit) || UTF16.isTrailSurrogate(unit) {
                    result += "\\u" + Self.hex(unit, width: 4)
                    index += 1
                } else {
                    result += String(decoding: [unit], as: UTF16.self)
                    index += 1
                }
            }
            if bytes.count % 2 != 0, let last = bytes.last { result += "\\x" + Self.hex(UInt16(last), width: 2) }
            return result
        case .utf8:
            var result = ""
            var rest = bytes[...]
            while !rest.isEmpty {
                let valid = Self.validUTF8Prefix(rest)
                result += String(decoding: rest.prefix(valid), as: UTF8.self)
                rest = rest.dropFirst(valid)
                if let bad = rest.first {
                    result += "\\x" + Self.hex(UInt16(bad), width: 2)
                    rest = rest.dropFirst()
                }
            }
            return result
        case .latin1, .unknown:
            return bytes.map { "\\x" + Self.hex(UInt16($0), width: 2) }.joined()
        }
    }

    /// The string with each invalid code unit (or cut byte) replaced by U+FFFD, as a browser's
    /// `TextDecoder` would show it; `nil` when the encoding is unknown. Used only when a plan
    /// says so (``ImportPlan/UndecodableAction/replace``).
    public var replacingInvalid: String? {
        if let text { return text }
        switch encoding {
        case .utf16LE:
            let units = Self.units(bytes)
            return String(decoding: units, as: UTF16.self) + (bytes.count % 2 != 0 ? "\u{FFFD}" : "")
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .latin1, .unknown:
            return nil
        }
    }

    // MARK: Helpers

    private static func units(_ bytes: [UInt8]) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count {
            units.append(UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
            index += 2
        }
        return units
    }

    private static func firstUnpairedSurrogate(_ units: [UInt16]) -> Int? {
        var index = 0
        while index < units.count {
            let unit = units[index]
            if UTF16.isLeadSurrogate(unit) {
                guard index + 1 < units.count, UTF16.isTrailSurrogate(units[index + 1]) else { return index }
                index += 2
            } else if UTF16.isTrailSurrogate(unit) {
                return index
            } else {
                index += 1
            }
        }
        return nil
    }

    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        let valid = validUTF8Prefix(bytes[...])
        return valid < bytes.count ? valid : nil
    }

    /// The length of the longest prefix of `bytes` that is valid UTF-8.
    private static func validUTF8Prefix(_ bytes: ArraySlice<UInt8>) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var consumed = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                consumed += UTF8.width(scalar)
            case .emptyInput, .error:
                return consumed
            }
        }
    }

    private static func hex(_ value: UInt16, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
#endif
