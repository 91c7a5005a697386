import Foundation

extension PrefValue {
    /// Converts a Foundation-style value (`Any`, as `UserDefaults.set(_:forKey:)` takes it).
    ///
    /// Accepts every ``PrefValueConvertible`` type, the Foundation objects `UserDefaults` takes
    /// (`NSString`, `NSNumber`, `NSURL`, `NSData`, `NSDate`, `NSArray`, `NSDictionary`), `NSNull`,
    /// `CGFloat`, and arrays and string-keyed dictionaries of these, nested to any depth.
    /// Returns `nil` for anything else (Foundation would crash with "Attempt to insert non-property
    /// list object"); ``unstorableReason(_:)`` says which part and why.
    public init?(any value: Any) {
        guard case .success(let converted) = Self.converting(value) else { return nil }
        self = converted
    }

    /// Why `value` cannot be stored — naming the type and where it sits inside arrays and
    /// dictionaries — or `nil` when it can.
    public static func unstorableReason(_ value: Any) -> String? {
        guard case .failure(let problem) = converting(value) else { return nil }
        return problem.description
    }

    /// What could not be stored, and where.
    struct Unstorable: Error, CustomStringConvertible {
        var typeName: String
        var path: String
        /// Set for text that is not valid Unicode: what to say instead of the type's name.
        var invalidText: String?

        init(typeName: String, path: String) {
            self.typeName = typeName
            self.path = path
        }

        /// Text holding half a UTF-16 surrogate pair (a value, or a dictionary's key when `isKey`).
        init(invalidText text: NSString, path: String, isKey: Bool = false) {
            typeName = "NSString"
            self.path = path
            let offset = (0..<text.length).first { index in
                let unit = text.character(at: index)
                return UTF16.isLeadSurrogate(unit) || UTF16.isTrailSurrogate(unit)
            } ?? 0
            let what = isKey ? "a dictionary key" : "the text"
            invalidText = "\(what) is not valid Unicode (half a UTF-16 surrogate pair, U+\(String(text.character(at: offset), radix: 16, uppercase: true)), at UTF-16 offset \(offset)); it is refused rather than stored with U+FFFD in its place, which would make different texts one; repair the text where it comes from"
        }

        var description: String {
            if let invalidText { return invalidText + (path.isEmpty ? "" : " (at \(path))") }
            let place = path.isEmpty ? "" : " at \(path)"
            return "a suite cannot hold a value of type \(typeName)\(place); store Bool, numbers, String, Data, Date, URL, or arrays and string-keyed dictionaries of these (their Foundation classes NSString, NSNumber, NSURL, NSData, NSDate, NSArray and NSDictionary too), or give the type a Codable representation"
        }
    }

    static func converting(_ value: Any, path: String = "") -> Result<PrefValue, Unstorable> {
        switch value {
        case let direct as PrefValueConvertible: return .success(direct.prefValue)
        case is NSNull: return .success(.null)
        // Before the bridged Swift types: an NSNumber would also cast to String on some platforms.
        case let number as NSNumber: return .success(Self(number: number))
        // An NSString can hold half a UTF-16 surrogate pair, which bridging to String would turn
        // into U+FFFD (two different keys or values made one): refused instead.
        case let text as NSString:
            guard let valid = Self.validString(text) else { return .failure(Unstorable(invalidText: text, path: path)) }
            return .success(.string(valid))
        case let dictionary as NSDictionary:
            var converted: [String: PrefValue] = [:]
            converted.reserveCapacity(dictionary.count)
            for (key, item) in dictionary {
                guard let keyText = key as? NSString else {
                    return .failure(Unstorable(typeName: "\(type(of: value)) (a dictionary whose keys are not all strings)", path: path))
                }
                guard let validKey = Self.validString(keyText) else { return .failure(Unstorable(invalidText: keyText, path: path, isKey: true)) }
                switch converting(item, path: path + "[\(String(reflecting: validKey))]") {
                case .success(let value): converted[validKey] = value
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(.dictionary(converted))
        // The Foundation objects, through their Swift types (a cast to the protocol above does
        // not bridge them).
        case let text as String: return .success(.string(text))
        case let url as URL: return .success(url.prefValue)
        case let bytes as Data: return .success(.data(bytes))
        case let date as Date: return .success(.date(date))
        case let number as CGFloat: return .success(.double(Double(number)))
        case let items as [Any]:
            var converted: [PrefValue] = []
            converted.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                switch converting(item, path: path + "[\(index)]") {
                case .success(let value): converted.append(value)
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(.array(converted))
        case let entries as [String: Any]:
            var converted: [String: PrefValue] = [:]
            converted.reserveCapacity(entries.count)
            for (key, item) in entries {
                switch converting(item, path: path + "[\(String(reflecting: key))]") {
                case .success(let value): converted[key] = value
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(.dictionary(converted))
        default:
            let typeName = value is [AnyHashable: Any] || value is NSDictionary
                ? "\(type(of: value)) (a dictionary whose keys are not all strings)" : "\(type(of: value))"
            return .failure(Unstorable(typeName: typeName, path: path))
        }
    }

    /// `text` as a `String`, or `nil` when it holds half a UTF-16 surrogate pair (valid text is
    /// bridged as it is, without looking at it twice when it is all paired).
    static func validString(_ text: NSString) -> String? {
        let length = text.length
        var index = 0
        while index < length {
            let unit = text.character(at: index)
            if UTF16.isLeadSurrogate(unit) {
                guard index + 1 < length, UTF16.isTrailSurrogate(text.character(at: index + 1)) else { return nil }
                index += 2
            } else {
                if UTF16.isTrailSurrogate(unit) { return nil }
                index += 1
            }
        }
        return text as String
    }

    private init(number: NSNumber) {
        if number.objCType.pointee == CChar(UInt8(ascii: "c")), number.int8Value == 0 || number.int8Value == 1 {
            self = .bool(number.boolValue)
        } else if let integer = Int(exactly: number) {
            self = .int(integer)
        } else if let large = UInt64(exactly: number) {
            self = .unsigned(large)
        } else {
            self = .double(number.doubleValue)
        }
    }

    /// The value as Foundation-style Swift values: `Bool`, `Int`, `UInt64`, `Double`, `String`,
    /// `Data`, `Date`, `[Any]`, `[String: Any]`, and `NSNull` for a nested `null`.
    public var anyValue: Any {
        switch self {
        case .bool(let flag): return flag
        case .int(let number): return number
        case .unsigned(let number): return number
        case .double(let number): return number
        case .string(let text): return text
        case .data(let bytes): return bytes
        case .date(let date): return date
        case .array(let items): return items.map(\.anyValue)
        case .dictionary(let entries): return entries.mapValues(\.anyValue)
        case .null: return NSNull()
        }
    }
}
