import RizqJSON
import RizqPrefs

/// Limits on what a suite's synced keys may hold, checked before a change is made: a change
/// that would break one is refused with ``SyncError/quotaExceeded(key:limit:)`` and the event
/// ``SyncEvent/quotaExceeded(key:limit:)`` (the `QuotaViolationChange` reason of
/// ``UbiquitousKeyValueStore``), and nothing is written.
///
/// Sizes count UTF-8 bytes: a key's name plus its value's JSON text, as the replica file
/// stores it. `nil` means no limit.
public struct SyncLimits: Sendable, Hashable {
    /// The most synced keys that may hold a value (deleted keys do not count).
    public var maximumKeys: Int?
    /// The most bytes all synced keys and values may take together.
    public var maximumTotalBytes: Int?
    /// The most bytes one value may take.
    public var maximumValueBytes: Int?

    /// Limits of your choice.
    public init(maximumKeys: Int? = nil, maximumTotalBytes: Int? = nil, maximumValueBytes: Int? = nil) {
        self.maximumKeys = maximumKeys
        self.maximumTotalBytes = maximumTotalBytes
        self.maximumValueBytes = maximumValueBytes
    }

    /// No limit but the suite file's own size limit.
    public static let none = SyncLimits()

    /// Apple's limits for `NSUbiquitousKeyValueStore`, for code shared with iOS: 1,024 keys,
    /// 1 MB in all, 1 MB for one value. A write that would pass them fails, as on iOS, with the
    /// quota-violation reason.
    public static let apple = SyncLimits(maximumKeys: 1024, maximumTotalBytes: 1_048_576, maximumValueBytes: 1_048_576)

    /// Whether there is any limit to check.
    var isUnlimited: Bool { maximumKeys == nil && maximumTotalBytes == nil && maximumValueBytes == nil }

    /// The bytes `value` takes under `key`: the key's UTF-8 and the value's compact JSON.
    static func bytes(of value: PrefValue, forKey key: String) -> Int {
        key.utf8.count + ((try? JSONWriter.bytes(value, pretty: false).count) ?? 0)
    }

    /// The limit that `value` under `key` breaks, given the other synced keys' values
    /// (`others`, without `key`), in words; `nil` when none does. A removal breaks none.
    /// `sizes` remembers each value's size between calls.
    func violation(setting value: PrefValue?, forKey key: String, others: [String: PrefValue], sizes: inout SizeCache) -> String? {
        guard let value, !isUnlimited else { return nil }
        let own = sizes.bytes(of: value, forKey: key)
        if let maximumValueBytes, own - key.utf8.count > maximumValueBytes {
            return "\(maximumValueBytes) bytes for one value"
        }
        if let maximumKeys, others.count + 1 > maximumKeys {
            return "\(maximumKeys) keys"
        }
        if let maximumTotalBytes {
            var total = own
            for (other, otherValue) in others {
                total += sizes.bytes(of: otherValue, forKey: other)
                if total > maximumTotalBytes { return "\(maximumTotalBytes) bytes in all" }
            }
        }
        return nil
    }

    /// ``violation(setting:forKey:others:sizes:)`` without a cache.
    func violation(setting value: PrefValue?, forKey key: String, others: [String: PrefValue]) -> String? {
        var sizes = SizeCache()
        return violation(setting: value, forKey: key, others: others, sizes: &sizes)
    }
}

/// The size of each key's value as last measured: a suite at Apple's 1,024 keys measures each
/// value once, not once per write.
struct SizeCache: Sendable {
    private var sizes: [String: (value: PrefValue, bytes: Int)] = [:]

    mutating func bytes(of value: PrefValue, forKey key: String) -> Int {
        if let known = sizes[key], known.value == value { return known.bytes }
        let bytes = SyncLimits.bytes(of: value, forKey: key)
        sizes[key] = (value, bytes)
        return bytes
    }
}

