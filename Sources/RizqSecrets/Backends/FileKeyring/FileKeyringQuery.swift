#if Secrets
/// Attributes to look items up by, hashed once under a keyring's key: libsecret's matching, which
/// never decrypts — an item matches when every attribute of the query is among its hashed
/// attributes (by name, byte for byte) with the same MAC. Extra attributes on the item do not
/// matter; an empty query matches every item.
struct FileKeyringQuery {
    /// The query's attributes, `name → HMAC-SHA256(key, value)`.
    let hashed: [FileKeyringFile.HashedAttribute]

    /// The query for `attributes` under `key`.
    init(_ attributes: [FileKeyringItem.Attribute], key: FileKeyringKey) {
        hashed = attributes.map { FileKeyringFile.HashedAttribute(name: $0.name, mac: key.hash($0.value)) }
    }

    /// Whether `item` has every attribute of the query.
    func matches(_ item: FileKeyringFile.SealedItem) -> Bool {
        hashed.allSatisfy { wanted in
            item.hashedAttributes.contains { stored in
                stored.name.utf8.elementsEqual(wanted.name.utf8) && Self.sameBytes(stored.mac, wanted.mac)
            }
        }
    }

    /// Byte equality without an early exit (a MAC compared against one computed here).
    static func sameBytes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
#endif
