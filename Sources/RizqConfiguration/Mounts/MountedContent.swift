#if Configuration
import Configuration
import Foundation
import RizqCore
import RizqMounts

/// A mounted file's bytes read as configuration content, by the table in
/// ``MountedFolderProvider``: text with its trailing newlines cut, numbers and booleans with
/// white space around them ignored, bytes exactly as they are.
struct MountedContent {
    let bytes: [UInt8]
    let arraySeparator: Character

    /// The content as `type`, or `nil` when the bytes do not read as one.
    func configContent(as type: ConfigType) -> ConfigContent? {
        switch type {
        case .bytes: return .bytes(bytes)
        case .byteChunkArray: return .byteChunkArray([bytes])
        default: break
        }
        guard let text = MountedText.string(bytes) else { return nil }
        switch type {
        case .string: return .string(text)
        case .int: return Self.int(text).map(ConfigContent.int)
        case .double: return Self.double(text).map(ConfigContent.double)
        case .bool: return Self.bool(text).map(ConfigContent.bool)
        case .stringArray: return .stringArray(elements(of: text))
        case .intArray: return Self.all(elements(of: text), Self.int).map(ConfigContent.intArray)
        case .doubleArray: return Self.all(elements(of: text), Self.double).map(ConfigContent.doubleArray)
        case .boolArray: return Self.all(elements(of: text), Self.bool).map(ConfigContent.boolArray)
        case .bytes, .byteChunkArray: return nil
        }
    }

    /// The elements of an array's text: split at the separator, white space around each cut;
    /// none for an empty text.
    private func elements(of text: String) -> [String] {
        guard !Self.trimmed(text).isEmpty else { return [] }
        return text.split(separator: arraySeparator, omittingEmptySubsequences: false).map { Self.trimmed(String($0)) }
    }

    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func int(_ text: String) -> Int? { Int(trimmed(text)) }

    private static func double(_ text: String) -> Double? {
        Double(trimmed(text)).flatMap { $0.isFinite ? $0 : nil }
    }

    private static func bool(_ text: String) -> Bool? {
        switch trimmed(text).lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: return nil
        }
    }

    /// Every element converted, or `nil` when one does not convert.
    private static func all<T>(_ elements: [String], _ convert: (String) -> T?) -> [T]? {
        var values: [T] = []
        for element in elements {
            guard let value = convert(element) else { return nil }
            values.append(value)
        }
        return values
    }
}
#endif
