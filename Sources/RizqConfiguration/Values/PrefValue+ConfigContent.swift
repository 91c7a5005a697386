#if Configuration
import Configuration
import Foundation
import RizqPrefs

extension PrefValue {
    /// The value as swift-configuration content of `type`, with the store's own strict
    /// conversions (those of ``/RizqPrefs/SuiteStore/value(forKey:as:)``): a whole `Double`
    /// reads as an `Int` and an `Int` as a `Double`, but a stored `"42"` is not an `Int`.
    /// A date reads as its ISO 8601 text. An empty array reads as an array of any type.
    /// `nil` when the value is of another type.
    func configContent(as type: ConfigType) -> ConfigContent? {
        switch type {
        case .string:
            if case .date(let date) = self { return .string(date.formatted(Self.dateStyle)) }
            return String(prefValue: self).map(ConfigContent.string)
        case .int: return Int(prefValue: self).map(ConfigContent.int)
        case .double: return Double(prefValue: self).map(ConfigContent.double)
        case .bool: return Bool(prefValue: self).map(ConfigContent.bool)
        case .bytes: return Data(prefValue: self).map { .bytes(Array($0)) }
        case .stringArray: return [String](prefValue: self).map(ConfigContent.stringArray)
        case .intArray: return [Int](prefValue: self).map(ConfigContent.intArray)
        case .doubleArray: return [Double](prefValue: self).map(ConfigContent.doubleArray)
        case .boolArray: return [Bool](prefValue: self).map(ConfigContent.boolArray)
        case .byteChunkArray: return [Data](prefValue: self).map { .byteChunkArray($0.map(Array.init)) }
        }
    }

    /// The value nested at `path` inside dictionaries; the value itself for an empty path.
    func nested(at path: ArraySlice<String>) -> PrefValue? {
        var current = self
        for component in path {
            guard case .dictionary(let members) = current, let next = members[component] else { return nil }
            current = next
        }
        return current
    }

    /// How to store a value of `type` from the command line, for the hint of a mismatch.
    static func cliFlag(for type: ConfigType) -> String {
        switch type {
        case .string: return "--string"
        case .int: return "--int"
        case .double: return "--double"
        case .bool: return "--bool"
        case .bytes: return "--data"
        case .stringArray, .intArray, .doubleArray, .boolArray, .byteChunkArray: return "--json"
        }
    }

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
#endif
