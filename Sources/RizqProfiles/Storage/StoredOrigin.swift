#if Secrets
import RizqImport

/// One origin's `localStorage`, as every profile reader produces it: the origin, its items as
/// stored, and what was odd about them. ``dump(format:source:)`` turns it into the
/// `ImportDump` that `Importer` consumes.
public struct StoredOrigin: Sendable, Equatable {
    /// The origin as the browser names it: `https://app.rizq.io`, `http://localhost:5432`,
    /// `file://`, `app://obsidian.md`, `chrome-extension://<id>`, or a partitioned form such as
    /// Firefox's `https://a.com^partitionKey=…` (never merged with the unpartitioned origin).
    public var origin: String
    /// The items, in the order the storage holds them; each key once.
    public var items: [StoredItem]
    /// What was odd but did not stop the reading (never a value).
    public var warnings: [String]

    /// An origin's storage.
    public init(origin: String, items: [StoredItem], warnings: [String] = []) {
        self.origin = origin
        self.items = items
        self.warnings = warnings
    }

    /// How many keys it holds.
    public var keyCount: Int { items.count }

    /// The bytes its keys and values take as stored.
    public var storedSize: Int { items.reduce(0) { $0 + $1.storedSize } }

    /// How many items have a key or value that is not valid Unicode.
    public var undecodableCount: Int { items.reduce(0) { $0 + ($1.key.isText && $1.value.isText ? 0 : 1) } }

    /// The dump the importer consumes; `source` names the profile (not the private copy).
    public func dump(format: ImportDump.Format, source: String) -> ImportDump {
        ImportDump(storedItems: items.map { ($0.key, $0.value) }, origin: origin, format: format, source: source, warnings: warnings)
    }
}
#endif
