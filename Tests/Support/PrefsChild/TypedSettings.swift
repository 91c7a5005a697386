import Foundation
import RizqPrefs

/// Every kind of value a property wrapper can hold, for the round-trip tests across processes.
enum Theme: String, UserDefaultValue, Codable, Sendable { case light, dark, system }

struct Profile: Codable, Equatable, Sendable {
    var name: String
    var goal: Int
    var slots: [String]
    var joined: Date
    var avatar: Data?
}

struct TypedSettings {
    let store: SuiteStore
    var bool: UserDefault<Bool> { UserDefault("bool", defaultValue: false, store: store) }
    var int: UserDefault<Int> { UserDefault("int", defaultValue: 0, store: store) }
    var int8: UserDefault<Int8> { UserDefault("int8", defaultValue: 0, store: store) }
    var int16: UserDefault<Int16> { UserDefault("int16", defaultValue: 0, store: store) }
    var int32: UserDefault<Int32> { UserDefault("int32", defaultValue: 0, store: store) }
    var int64: UserDefault<Int64> { UserDefault("int64", defaultValue: 0, store: store) }
    var uint: UserDefault<UInt> { UserDefault("uint", defaultValue: 0, store: store) }
    var uint8: UserDefault<UInt8> { UserDefault("uint8", defaultValue: 0, store: store) }
    var uint16: UserDefault<UInt16> { UserDefault("uint16", defaultValue: 0, store: store) }
    var uint32: UserDefault<UInt32> { UserDefault("uint32", defaultValue: 0, store: store) }
    var uint64: UserDefault<UInt64> { UserDefault("uint64", defaultValue: 0, store: store) }
    var double: UserDefault<Double> { UserDefault("double", defaultValue: 0, store: store) }
    var float: UserDefault<Float> { UserDefault("float", defaultValue: 0, store: store) }
    var string: UserDefault<String> { UserDefault("string", defaultValue: "", store: store) }
    var data: UserDefault<Data> { UserDefault("data", defaultValue: Data(), store: store) }
    var date: UserDefault<Date> { UserDefault("date", defaultValue: Date(timeIntervalSince1970: 0), store: store) }
    var url: UserDefault<URL> { UserDefault("url", defaultValue: URL(fileURLWithPath: "/"), store: store) }
    var strings: UserDefault<[String]> { UserDefault("strings", defaultValue: [], store: store) }
    var ints: UserDefault<[Int]> { UserDefault("ints", defaultValue: [], store: store) }
    var dict: UserDefault<[String: Double]> { UserDefault("dict", defaultValue: [:], store: store) }
    var optional: UserDefault<Date?> { UserDefault("optional", defaultValue: nil, store: store) }
    var theme: UserDefault<Theme> { UserDefault("theme", defaultValue: .system, store: store) }
    var optionalTheme: UserDefault<Theme?> { UserDefault("optional_theme", defaultValue: nil, store: store) }
    var profile: CodableUserDefault<Profile?> { CodableUserDefault("profile", defaultValue: nil, store: store) }

    static let sampleProfile = Profile(name: "Aisha 🌙", goal: 5, slots: ["fajr", "isha"], joined: Date(timeIntervalSince1970: 1_700_000_000.5), avatar: Data([0, 1, 2]))

    func writeSamples() {
        bool.wrappedValue = true
        int.wrappedValue = .max
        int8.wrappedValue = .min
        int16.wrappedValue = .min
        int32.wrappedValue = .max
        int64.wrappedValue = .min
        uint.wrappedValue = .max
        uint8.wrappedValue = .max
        uint16.wrappedValue = .max
        uint32.wrappedValue = .max
        uint64.wrappedValue = .max
        double.wrappedValue = 0.1
        float.wrappedValue = 1.5
        string.wrappedValue = "ключ 🕌 \"q\""
        data.wrappedValue = Data([0, 255, 0])
        date.wrappedValue = Date(timeIntervalSince1970: 1_763_819_220.123456)
        url.wrappedValue = URL(string: "https://rizq.app/a?b=1")!
        strings.wrappedValue = ["a", "b"]
        ints.wrappedValue = [1, -2, 3]
        dict.wrappedValue = ["ratio": 0.5]
        optional.wrappedValue = Date(timeIntervalSince1970: 86_400)
        theme.wrappedValue = .dark
        optionalTheme.wrappedValue = .light
        profile.wrappedValue = Self.sampleProfile
    }

    /// One line per property, in a form that shows the exact value.
    func describe() -> [String] {
        [
            "\(bool.wrappedValue)", "\(int.wrappedValue)", "\(int8.wrappedValue)", "\(int16.wrappedValue)", "\(int32.wrappedValue)",
            "\(int64.wrappedValue)", "\(uint.wrappedValue)", "\(uint8.wrappedValue)", "\(uint16.wrappedValue)", "\(uint32.wrappedValue)",
            "\(uint64.wrappedValue)", "\(double.wrappedValue.bitPattern)", "\(float.wrappedValue.bitPattern)", string.wrappedValue,
            data.wrappedValue.base64EncodedString(), "\(date.wrappedValue.timeIntervalSince1970)", url.wrappedValue.absoluteString,
            "\(strings.wrappedValue)", "\(ints.wrappedValue)", "\(dict.wrappedValue)",
            optional.wrappedValue.map { "\($0.timeIntervalSince1970)" } ?? "nil", theme.wrappedValue.rawValue,
            optionalTheme.wrappedValue?.rawValue ?? "nil", profile.wrappedValue.map { "\($0 == Self.sampleProfile)" } ?? "nil",
        ]
    }

    func clearOptionals() {
        optional.wrappedValue = nil
        optionalTheme.wrappedValue = nil
        profile.wrappedValue = nil
    }
}
