#if Configuration
import Configuration
import Foundation

/// A secret's bytes read as configuration content.
struct SecretContent {
    let bytes: Data

    /// `string` when the bytes are UTF-8, `bytes` always, and `int`, `double` or `bool` when the
    /// whole text is one (no white space trimmed: a secret is taken exactly as stored). `nil` for
    /// arrays and for text that is not of `type`.
    func configContent(as type: ConfigType) -> ConfigContent? {
        if type == .bytes { return .bytes(Array(bytes)) }
        guard let text = String(data: bytes, encoding: .utf8) else { return nil }
        switch type {
        case .string: return .string(text)
        case .int: return Int(text).map(ConfigContent.int)
        case .double: return Double(text).flatMap { $0.isFinite ? .double($0) : nil }
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return nil
            }
        case .bytes, .stringArray, .intArray, .doubleArray, .boolArray, .byteChunkArray: return nil
        }
    }
}
#endif
