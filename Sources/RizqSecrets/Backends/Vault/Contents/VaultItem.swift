#if Secrets
import Foundation
import RizqCore

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
    /// Its expiry and refresh token (kept inside the encrypted item), when it was stored with them.
    public var lifetime: SecretLifetime?

    /// An item from its parts.
    public init(data: Data, isText: Bool, label: String, created: Date, modified: Date, lifetime: SecretLifetime? = nil) {
        self.data = data
        self.isText = isText
        self.label = label
        self.created = created
        self.modified = modified
        self.lifetime = lifetime?.isEmpty == false ? lifetime : nil
    }
}
#endif
