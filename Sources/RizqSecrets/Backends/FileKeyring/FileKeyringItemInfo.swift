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
    /// package makes).
    public var attributes: [String: String]

    init(_ item: FileKeyringItem) {
        label = item.label
        created = Date(timeIntervalSince1970: Double(item.created))
        modified = Date(timeIntervalSince1970: Double(item.modified))
        attributes = Dictionary(item.attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
#endif
