#if Secrets
import RizqImport

/// One `localStorage` item as the browser stored it: key and value may each be bytes that are
/// not valid Unicode (see ``/RizqImport/StoredString``), never silently replaced.
public struct StoredItem: Sendable, Hashable {
    /// The key as stored.
    public var key: StoredString
    /// The value as stored.
    public var value: StoredString

    /// An item from its stored key and value.
    public init(key: StoredString, value: StoredString) {
        self.key = key
        self.value = value
    }

    /// The bytes the item takes on disk (key and value as stored, without format bytes).
    public var storedSize: Int { key.bytes.count + value.bytes.count }
}
#endif
