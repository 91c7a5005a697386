#if Secrets
import Foundation

/// What a file keyring holds about an item besides its secret: for listings and diagnostics.
public struct FileKeyringItemInfo: Sendable, Equatable {
    /// The label keyring managers show.
    public var label: String
    /// When the item was first stored (whole seconds, as the file keeps them).
    public var created: Date
    /// When its secret was last stored.
    public var modified: Date
    /// Every attribute, name → value (`service`, `account`, and `xdg:schema` for the items this
    /// package makes; `password_expiry_utc` for one that expires), but the refresh token's.
    public var attributes: [String: String]
    /// When its secret expires, when it does.
    public var expires: Date?

    init(_ item: FileKeyringItem) {
        label = item.label
        created = Date(timeIntervalSince1970: Double(item.created))
        modified = Date(timeIntervalSince1970: Double(item.modified))
        let shown = item.attributes.filter { $0.name != FileKeyringItem.refreshTokenAttribute }
        attributes = Dictionary(shown.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        expires = item.lifetime?.expires
    }
}
#endif
