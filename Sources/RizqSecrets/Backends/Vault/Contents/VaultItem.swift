#if Secrets
import Foundation

/// One secret in the vault, as its encrypted JSON holds it.
public struct VaultItem: Sendable, Equatable, Codable {
    /// The secret's bytes (base64 in the JSON).
    public var data: Data
    /// Whether it was stored as text.
    public var isText: Bool
    /// The label it was stored with (shown by listings; never a secret).
    public var label: String
    /// When the account was first stored.
    public var created: Date
    /// When its secret was last replaced.
    public var modified: Date

    /// An item from its parts.
    public init(data: Data, isText: Bool, label: String, created: Date, modified: Date) {
        self.data = data
        self.isText = isText
        self.label = label
        self.created = created
        self.modified = modified
    }
}
#endif
