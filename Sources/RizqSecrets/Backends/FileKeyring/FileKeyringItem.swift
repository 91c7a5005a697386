#if Secrets
import RizqCore
/// One item of a file keyring, decrypted: what a blob holds, the GVariant `(a{ss}sttay)`.
///
/// | member | content |
/// | --- | --- |
/// | `a{ss}` | every attribute, name → value, in clear (libsecret writes them in hash-table order; this type sorts them by the names' UTF-8 bytes) |
/// | `s` | the label |
/// | `t`, `t` | created and modified, Unix seconds |
/// | `ay` | the secret: any bytes |
///
/// The content type is not stored: libsecret reads every file-keyring secret back as
/// `text/plain`.
struct FileKeyringItem: Equatable {
    /// The attributes, sorted by the names' UTF-8 bytes (never by `String` order, which would
    /// treat `"é"` and `"e\u{301}"` as one name though their bytes, and MACs, differ).
    var attributes: [Attribute]
    /// The label shown in keyring managers.
    var label: String
    /// When the item was first stored (Unix seconds).
    var created: UInt64
    /// When its secret was last stored.
    var modified: UInt64
    /// The secret.
    var secret: [UInt8]

    /// One attribute, in clear.
    struct Attribute: Equatable {
        /// Its name.
        var name: String
        /// Its value.
        var value: String
    }

    /// The item, its attributes sorted.
    init(attributes: [Attribute], label: String, created: UInt64, modified: UInt64, secret: [UInt8]) {
        self.attributes = Self.sorted(attributes)
        self.label = label
        self.created = created
        self.modified = modified
        self.secret = secret
    }

    /// The value of the attribute named `name` (compared byte for byte), if it has one.
    func value(of name: String) -> String? {
        attributes.first { $0.name.utf8.elementsEqual(name.utf8) }?.value
    }

    /// The name of the attribute that keeps the refresh token: git's own name for it. Inside the
    /// encrypted item (the file keeps only its MAC in clear), as secret as the secret.
    static let refreshTokenAttribute = "oauth_refresh_token"

    /// The expiry and refresh token its attributes keep (``SecretLifetime/expiryAttribute``,
    /// ``refreshTokenAttribute``); `nil` when it keeps neither.
    var lifetime: SecretLifetime? {
        get {
            var lifetime = SecretLifetime(
                expires: SecretLifetime.expiry(attribute: value(of: SecretLifetime.expiryAttribute)), refreshToken: value(of: Self.refreshTokenAttribute))
            // Another program's item (libsecret in the same sandbox): a token no store would keep is not handed on.
            if lifetime.problem != nil { lifetime.refreshToken = nil }
            return lifetime.isEmpty ? nil : lifetime
        }
        set {
            var kept = attributes.filter { $0.name != SecretLifetime.expiryAttribute && $0.name != Self.refreshTokenAttribute }
            if let expiry = newValue?.expiryAttributeValue { kept.append(Attribute(name: SecretLifetime.expiryAttribute, value: expiry)) }
            if let token = newValue?.refreshToken { kept.append(Attribute(name: Self.refreshTokenAttribute, value: token)) }
            attributes = Self.sorted(kept)
        }
    }

    /// `attributes` in libsecret's order for hashed attributes (`strcmp` of the names: their
    /// UTF-8 bytes, unsigned).
    static func sorted(_ attributes: [Attribute]) -> [Attribute] {
        attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The plaintext a blob seals.
    func encoded() -> [UInt8] {
        GVariantWriter.structure([
            .variable(GVariantWriter.array(attributes.map { attribute in
                GVariantWriter.structure([.variable(GVariantWriter.string(attribute.name)), .variable(GVariantWriter.string(attribute.value))])
            })),
            .variable(GVariantWriter.string(label)),
            .uint64(created),
            .uint64(modified),
            .variable(secret),
        ])
    }

    /// The item a decrypted blob holds (`index`: its place in the file, for messages).
    static func decode(_ plaintext: [UInt8], index: Int) throws(FileKeyringFormatError) -> FileKeyringItem {
        let reader = GVariantReader(bytes: plaintext)
        let field = "item \(index)'s decrypted contents"
        let parts = try reader.members(0..<plaintext.count, [.variable, .variable, .uint64, .uint64, .variable], field: field)
        let entries = try reader.elements(parts[0], maximum: FileKeyringFile.maximumAttributes, field: field + " (attributes)")
        var attributes: [Attribute] = []
        attributes.reserveCapacity(entries.count)
        for (number, entry) in entries.enumerated() {
            let pair = try reader.members(entry, [.variable, .variable], field: field + " (attribute \(number))")
            attributes.append(Attribute(
                name: try reader.string(pair[0], field: field + " (attribute \(number)'s name)"),
                value: try reader.string(pair[1], field: field + " (attribute \(number)'s value)")))
        }
        return FileKeyringItem(
            attributes: attributes, label: try reader.string(parts[1], field: field + " (label)"), created: reader.uint64(parts[2]),
            modified: reader.uint64(parts[3]), secret: Array(plaintext[parts[4]]))
    }
}
#endif
