#if Configuration
import Configuration

/// A stored value that is not of the type a configuration read asked for.
///
/// swift-configuration's readers treat it as they treat their own providers' conversion
/// failures: `reader.int(forKey:default:)` returns the default, `reader.requiredInt(forKey:)`
/// throws this error, and the access log records it. Providers after the one that threw are
/// not asked. Nothing stored is changed.
public struct ConfigTypeMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider that found the value: `SuiteStoreProvider[<suite>]`, `SecretStoreProvider[<service>]` or `MountedFolderProvider[<folder>]`.
    public var providerName: String
    /// The key as the provider looked it up (a suite key, or a secret's account).
    public var encodedKey: String
    /// What was found: `string`, `int`, `dictionary`, … (for a secret: `text` or `bytes`).
    public var found: String
    /// What was asked for.
    public var requested: ConfigType
    /// What to do about it.
    public var hint: String

    /// Creates a mismatch record.
    public init(providerName: String, encodedKey: String, found: String, requested: ConfigType, hint: String) {
        self.providerName = providerName
        self.encodedKey = encodedKey
        self.found = found
        self.requested = requested
        self.hint = hint
    }

    /// One line naming the key, both types and the fix; never the value (it may be a secret).
    public var description: String {
        "\(providerName): '\(encodedKey)' holds \(found), not \(requested.rawValue); \(hint)"
    }
}
#endif
