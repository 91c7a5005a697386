import Foundation
import RizqJSON

/// Foundation's typed getters, with Foundation's answers for missing keys (`0`, `false`, `nil`)
/// and its lenient conversions (`integer(forKey:)` of a stored `"42"` is `42`; text is read as
/// `NSString`'s `integerValue`, `doubleValue` and `boolValue` read it). Use
/// ``SuiteStore/value(forKey:as:)`` for strict reads. Tested side by side with Foundation's
/// `UserDefaults` in `FoundationConformanceTests`.
extension SuiteStore {
    /// The stored value or registered default as a Foundation-style value, or `nil`.
    public func object(forKey key: String) -> Any? {
        prefValue(forKey: key)?.anyValue
    }

    /// A stored string, or a number as text (a bool as `"1"` or `"0"`, as Foundation gives it);
    /// `nil` otherwise.
    public func string(forKey key: String) -> String? {
        switch prefValue(forKey: key) {
        case .string(let text): return text
        case .bool(let flag): return flag ? "1" : "0"
        case .int(let number): return String(number)
        case .unsigned(let number): return String(number)
        case .double(let number): return JSONWriter.formatDouble(number)
        default: return nil
        }
    }

    /// A stored bool; a number is `true` when not zero; text as `NSString.boolValue` reads it
    /// (`"YES"`, `"true"`, `"t"`, `"1"`, `"2"`, `" 7"` are `true`). Missing or other: `false`.
    public func bool(forKey key: String) -> Bool {
        switch prefValue(forKey: key) {
        case .bool(let flag): return flag
        case .int(let number): return number != 0
        case .unsigned(let number): return number != 0
        case .double(let number): return number != 0
        case .string(let text): return NSString(string: text).boolValue
        default: return false
        }
    }

    /// A stored integer; a double is truncated, a bool is 0 or 1, text is read as
    /// `NSString.integerValue` reads it (leading digits: `"12abc"` is 12; beyond the range, the
    /// nearest end). Missing, other, or a number out of range: `0`.
    public func integer(forKey key: String) -> Int {
        switch prefValue(forKey: key) {
        case .int(let number): return number
        case .unsigned(let number): return Int(exactly: number) ?? 0
        case .double(let number): return Int(exactly: number.rounded(.towardZero)) ?? 0
        case .bool(let flag): return flag ? 1 : 0
        case .string(let text): return NSString(string: scannable(text)).integerValue
        default: return 0
        }
    }

    /// A stored number; a bool is 0 or 1, text is read as `NSString.doubleValue` reads it
    /// (text beyond a Double's range as 0, not an infinity). Missing or other: `0`.
    public func double(forKey key: String) -> Double {
        switch prefValue(forKey: key) {
        case .double(let number): return number
        case .int(let number): return Double(number)
        case .unsigned(let number): return Double(number)
        case .bool(let flag): return flag ? 1 : 0
        case .string(let text):
            // Text beyond a Double's range (kept as text when a file held such a number) reads as
            // 0, where NSString gives an infinity that no suite could store again.
            let number = NSString(string: scannable(text)).doubleValue
            return number.isFinite ? number : 0
        default: return 0
        }
    }

    /// `text` for `NSString`'s number readers. Foundation's scanner on Linux traps when the
    /// number would start at a character outside the Basic Multilingual Plane (`"😀"`,
    /// `" 😀x"`: fuzz-suite-file's first crash); no such character is part of a number, so each
    /// becomes U+FFFD, at which the readers stop just the same.
    private func scannable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value > 0xFFFF }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(scalar.value > 0xFFFF ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    /// ``double(forKey:)`` as a `Float`.
    public func float(forKey key: String) -> Float {
        Float(double(forKey: key))
    }

    /// Stored bytes, or `nil`.
    public func data(forKey key: String) -> Data? {
        value(forKey: key, as: Data.self)
    }

    /// A stored URL: text with a scheme (`https://…` stays as it is) or an absolute path
    /// (a file URL); `nil` otherwise.
    public func url(forKey key: String) -> URL? {
        value(forKey: key, as: URL.self)
    }

    /// A stored array as Foundation-style values, or `nil`.
    public func array(forKey key: String) -> [Any]? {
        guard case .array(let items) = prefValue(forKey: key) else { return nil }
        return items.map(\.anyValue)
    }

    /// A stored dictionary as Foundation-style values, or `nil`.
    public func dictionary(forKey key: String) -> [String: Any]? {
        guard case .dictionary(let entries) = prefValue(forKey: key) else { return nil }
        return entries.mapValues(\.anyValue)
    }

    /// A stored array whose every element is a string, or `nil`.
    public func stringArray(forKey key: String) -> [String]? {
        value(forKey: key, as: [String].self)
    }
}
