#if Secrets
/// A libsecret file keyring as it is on disk (format 1.0): the header, the key-derivation
/// parameters and the items, each with its attribute names in clear, their values hashed, and
/// everything else sealed in its blob.
///
/// ```
/// file = "GnomeKeyring\n\r\0\n" 01 00  GVariant<(uayutua(a{say}ay))>   (little-endian)
///        (salt size, salt, PBKDF2 iterations, modified (Unix s), usage count,
///         items: (hashed attributes {name → HMAC-SHA256(key, value)}, blob))
/// ```
///
/// GVariant alignment counts from the body (file offset 18). ``decode(_:)`` reads a file
/// strictly and refuses anything it cannot account for with a ``FileKeyringFormatError``;
/// ``encoded()`` writes the bytes libsecret writes for the same keyring. Blobs it does not
/// change are carried as they are: an item encrypted under another key, or damaged, survives a
/// rewrite byte for byte (``FileKeyringKey`` opens them).
struct FileKeyringFile: Equatable {
    /// One item as stored: attribute names with their values' MACs, and the sealed rest.
    struct SealedItem: Equatable {
        /// The attributes, `name → HMAC-SHA256(key, value)`, sorted by the names' UTF-8 bytes.
        var hashedAttributes: [HashedAttribute]
        /// `AES-128-CBC(plaintext) ‖ IV ‖ HMAC-SHA256(ciphertext ‖ IV)`: see ``FileKeyringKey``.
        var blob: [UInt8]
    }

    /// One attribute of a stored item: its name in clear, its value as a MAC.
    struct HashedAttribute: Equatable {
        /// The name.
        var name: String
        /// `HMAC-SHA256(key, value)` (32 bytes in any file libsecret wrote).
        var mac: [UInt8]
    }

    /// The first 16 bytes of every keyring file (gnome-keyring's magic, which libsecret reuses).
    static let magic: [UInt8] = Array("GnomeKeyring\n\r\0\n".utf8)
    /// The version bytes after the magic: 1.0.
    static let version: [UInt8] = [1, 0]
    /// The salt a new keyring gets: 32 random bytes, as libsecret makes it.
    static let newSaltSize = 32
    /// libsecret's iteration count for a new keyring.
    static let newIterations: UInt32 = 100_000
    /// The most PBKDF2 iterations accepted: a file asking for more would hold the process for
    /// minutes (libsecret writes 100 000; this is 50 times that).
    static let maximumIterations: UInt32 = 5_000_000
    /// The most items read from one file.
    static let maximumItems = 1_000_000
    /// The most attributes read for one item.
    static let maximumAttributes = 10_000

    /// The PBKDF2 salt.
    var salt: [UInt8]
    /// The PBKDF2 iteration count.
    var iterations: UInt32
    /// When the keyring was last stored to (Unix seconds; libsecret sets it on a store, not a
    /// clear).
    var modified: UInt64
    /// How many stores the keyring has seen (not the number of items).
    var usageCount: UInt32
    /// The items, in file order: a lookup takes the first that matches.
    var items: [SealedItem]

    /// An empty keyring with a new random salt, as libsecret starts one.
    static func new(now: UInt64) -> FileKeyringFile {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<newSaltSize).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return FileKeyringFile(salt: salt, iterations: newIterations, modified: now, usageCount: 0, items: [])
    }

    // MARK: Decoding

    /// The keyring in `bytes`, every part checked.
    static func decode(_ bytes: [UInt8]) throws(FileKeyringFormatError) -> FileKeyringFile {
        guard bytes.count >= magic.count, bytes.starts(with: magic) else {
            throw FileKeyringFormatError(field: "the file header", problem: .notAKeyring)
        }
        guard bytes.count >= magic.count + 2 else {
            throw FileKeyringFormatError(field: "the version", problem: .truncated(needed: 2, available: bytes.count - magic.count))
        }
        guard bytes[16] == version[0], bytes[17] == version[1] else {
            throw FileKeyringFormatError(field: "the version", problem: .unsupportedVersion(major: bytes[16], minor: bytes[17]))
        }
        let reader = GVariantReader(bytes: bytes)
        let body = try reader.members(18..<bytes.count, [.uint32, .variable, .uint32, .uint64, .uint32, .variable], field: "the keyring's header")
        let declared = reader.uint32(body[0])
        let salt = Array(bytes[body[1]])
        guard declared == salt.count else {
            throw FileKeyringFormatError(field: "the salt", problem: .saltSizeMismatch(declared: declared, actual: salt.count))
        }
        guard !salt.isEmpty else { throw FileKeyringFormatError(field: "the salt", problem: .emptySalt) }
        let iterations = reader.uint32(body[2])
        guard iterations >= 1, iterations <= maximumIterations else {
            throw FileKeyringFormatError(field: "the iteration count", problem: .iterationsOutOfRange(count: iterations, maximum: maximumIterations))
        }
        let itemRanges = try reader.elements(body[5], maximum: maximumItems, field: "the items")
        var items: [SealedItem] = []
        items.reserveCapacity(itemRanges.count)
        for (index, range) in itemRanges.enumerated() {
            items.append(try decodeItem(reader, range, index: index))
        }
        return FileKeyringFile(salt: salt, iterations: iterations, modified: reader.uint64(body[3]), usageCount: reader.uint32(body[4]), items: items)
    }

    private static func decodeItem(_ reader: GVariantReader, _ range: Range<Int>, index: Int) throws(FileKeyringFormatError) -> SealedItem {
        let parts = try reader.members(range, [.variable, .variable], field: "item \(index)")
        let entries = try reader.elements(parts[0], maximum: maximumAttributes, field: "item \(index)'s hashed attributes")
        var attributes: [HashedAttribute] = []
        attributes.reserveCapacity(entries.count)
        for (number, entry) in entries.enumerated() {
            let pair = try reader.members(entry, [.variable, .variable], field: "item \(index)'s hashed attribute \(number)")
            let name = try reader.string(pair[0], field: "item \(index)'s hashed attribute \(number)'s name")
            attributes.append(HashedAttribute(name: name, mac: Array(reader.bytes[pair[1]])))
        }
        return SealedItem(hashedAttributes: attributes, blob: Array(reader.bytes[parts[1]]))
    }

    // MARK: Encoding

    /// The file's bytes, as libsecret serializes the same keyring.
    func encoded() -> [UInt8] {
        let itemBytes = items.map { item in
            GVariantWriter.structure([
                .variable(GVariantWriter.array(item.hashedAttributes.map { attribute in
                    GVariantWriter.structure([.variable(GVariantWriter.string(attribute.name)), .variable(attribute.mac)])
                })),
                .variable(item.blob),
            ])
        }
        let body = GVariantWriter.structure([
            .uint32(UInt32(truncatingIfNeeded: salt.count)), .variable(salt), .uint32(iterations), .uint64(modified), .uint32(usageCount),
            .variable(GVariantWriter.array(itemBytes)),
        ])
        return Self.magic + Self.version + body
    }
}
#endif
