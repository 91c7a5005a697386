import Foundation
import XCTest
import RizqTestSupport
import RizqPrefs
@testable import RizqImport

/// The committed property-list fixtures (Tests/Fixtures/PropertyLists, written by plistlib with
/// make-fixtures.py there) and the values the script put in them.
enum PlistFixtures {
    static var folder: String {
        repositoryRoot().appendingPathComponent("Tests/Fixtures/PropertyLists").path
    }

    static func path(_ name: String) -> String { folder + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: path(name)), "missing fixture \(name)"))
    }

    /// 2024-11-22T13:47:00Z.
    static let wholeDate = Date(timeIntervalSince1970: 1_732_283_220)

    /// The JSON bytes of the seed app's UserPreferences, as make-fixtures.py wrote them.
    static let userPreferencesJSON = Data(#"{"notificationsEnabled":true,"hapticsEnabled":true,"dailyGoal":3,"preferredTimeSlots":["morning","evening"]}"#.utf8)

    /// make-fixtures.py's TYPED, in its order. `binary`: the binary file keeps a date's fraction
    /// of a second, XML does not.
    static func typed(binary: Bool) -> [(key: String, value: PrefValue)] {
        [
            ("flag_on", .bool(true)),
            ("flag_off", .bool(false)),
            ("zero", .int(0)),
            ("streak", .int(12)),
            ("negative", .int(-503)),
            ("two_bytes", .int(40000)),
            ("four_bytes", .int(3_000_000_000)),
            ("int_max", .int(Int.max)),
            ("int_min", .int(Int.min)),
            ("uint_max", .unsigned(UInt64.max)),
            ("half", .double(0.5)),
            ("one_double", .double(1.0)),
            ("huge", .double(1e300)),
            ("whole_date", .date(wholeDate)),
            ("precise_date", .date(wholeDate.addingTimeInterval(binary ? 0.25 : 0))),
            ("old_date", .date(Date(timeIntervalSince1970: -2_208_988_800))),
            ("bytes", .data(Data([0x00, 0x01, 0xFE, 0xFF]))),
            ("no_bytes", .data(Data())),
            ("theme_mode", .string("dark")),
            ("unicode", .string("café — مرحبا 😀")),
            ("empty_text", .string("")),
            ("digits_text", .string("42")),
            // plistlib's XML writer turns "\r\n" into "\n"; its binary writer keeps it.
            ("markup", .string("<a & b> \"q\" 'a'" + (binary ? "\r\n" : "\n") + "\ttab")),
            ("cached_journey_ids", .array([.int(3), .int(14), .int(15)])),
            ("empty_list", .array([])),
            ("empty_dict", .dictionary([:])),
            ("nested", .dictionary([
                "level1": .dictionary([
                    "level2": .array([.int(1), .double(2.5), .bool(true), .string("x"), .dictionary(["deep": .date(Date(timeIntervalSinceReferenceDate: 0))])]),
                    "blob": .data(Data([0x7F])),
                ]),
            ])),
            ("user_preferences", .data(userPreferencesJSON)),
        ]
    }
}

/// A Foundation property-list object (from `PropertyListSerialization`) as a suite value, typed
/// by what Core Foundation says each number is: the independent reading the tests compare with.
func foundationPrefValue(_ object: Any) -> PrefValue? {
    switch object {
    case let text as String: return .string(text)
    case let date as Date: return .date(date)
    case let data as Data: return .data(data)
    case let array as [Any]:
        let values = array.compactMap(foundationPrefValue)
        return values.count == array.count ? .array(values) : nil
    case let dictionary as [String: Any]:
        var values: [String: PrefValue] = [:]
        for (key, value) in dictionary {
            guard let converted = foundationPrefValue(value) else { return nil }
            values[key] = converted
        }
        return .dictionary(values)
    case let number as NSNumber:
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "Q": return number.uint64Value > UInt64(Int64.max) ? .unsigned(number.uint64Value) : .int(number.intValue)
        case "d", "f": return .double(number.doubleValue)
        default: return .int(number.intValue)
        }
    default:
        return nil
    }
}

extension ImportDump {
    /// The typed values by key (entries with a problem left out).
    var typedValues: [String: PrefValue] {
        var values: [String: PrefValue] = [:]
        for entry in entries { if let value = entry.typedValue { values[entry.key] = value } }
        return values
    }
}

/// The `ImportError.PropertyListProblem` a dump's bytes give, or a failure.
func propertyListError(_ bytes: [UInt8], source: String? = "test.plist", format: ImportDump.Format? = nil, file: StaticString = #filePath, line: UInt = #line) -> ImportError.PropertyListProblem? {
    do {
        let dump = try ImportDump(bytes: bytes, source: source, format: format)
        XCTFail("read as a dump of \(dump.entries.count) entries", file: file, line: line)
    } catch {
        if case .dump(.propertyList(let plistError)) = error { return plistError }
        XCTFail("not a property-list error: \(error)", file: file, line: line)
    }
    return nil
}
