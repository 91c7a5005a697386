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

/// The vault's plaintext: a JSON object from account name to ``VaultItem``
/// (`{account: {data, isText, label, created, modified}}`), dates in ISO 8601 with milliseconds.
struct VaultContents: Sendable, Equatable {
    var items: [String: VaultItem] = [:]

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    func encoded() throws(VaultError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Self.dateStyle))
        }
        do {
            return try encoder.encode(items)
        } catch {
            throw .invalidInput(reason: "the vault's contents could not be encoded as JSON")
        }
    }

    /// Decodes the plaintext; anything else than the vault's JSON is damage.
    static func decode(_ data: Data, path: String) throws(VaultError) -> VaultContents {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try Self.dateStyle.parse(try decoder.singleValueContainer().decode(String.self))
        }
        do {
            return VaultContents(items: try decoder.decode([String: VaultItem].self, from: data))
        } catch {
            // Not the decoder's message: it could quote the decrypted contents.
            throw .damaged(path: path, reason: "it decrypts, but not to the vault's JSON")
        }
    }
}
