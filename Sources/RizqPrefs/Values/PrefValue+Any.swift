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

        var description: String {
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
