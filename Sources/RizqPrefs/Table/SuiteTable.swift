import RizqJSON
/// A suite's entries in memory: a hash table from key to ``PrefValue`` that keeps each key next
/// to its value, so that a read costs one cache miss where `Dictionary` (keys and values in
/// separate arrays) costs two or three. At 100,000 keys a scattered read took 70–180 ns here
/// against 180–330 ns for the dictionary, as the machine's memory was more or less busy.
///
/// Keys compare as `String`s do (canonically equivalent spellings are one key), exactly as in a
/// `[String: PrefValue]`. Open addressing with linear probing over slots that hold the key, the
/// value and bits of the key's hash (40 bytes), at a load of at most seven eighths: a probe
/// compares keys only on a hash match, and a small table stays in the cache (at 100,000 keys,
/// 5 MB of slots; a `[String: PrefValue]` of as many keys takes 10 MB); copy on write.
///
/// The table also knows its keys' file order (``Order``): the slots sorted by key, valid as long
/// as no key is added or removed, so that writing the file need not sort or hash anything.
struct SuiteTable: Sendable {
    /// One key and its value, side by side in the table.
    struct Entry {
        var key: String
        var value: PrefValue

        /// Puts `other`'s value in this entry and this entry's old value in `other`.
        @inline(__always)
        mutating func exchangeValue(_ other: inout PrefValue?) {
            guard var incoming = other else { return }
            swap(&value, &incoming)
            other = consume incoming
        }
    }

    /// The table's slots in the key order of the file (code point order), for one layout of the
    /// table: valid while no key is added or removed.
    struct Order: Sendable {
        /// The ``SuiteTable/layoutID`` this order was computed for.
        let layoutID: UInt64
        /// Occupied slots, sorted by key.
        let slots: [Int32]
        /// For each slot, its position in `slots` (-1 for an empty slot).
        let ranks: [Int32]
    }

    private var storage: Storage

    /// The slots whose value changed, in the order of the changes: what a writer that encoded
    /// the table at an earlier point of this log (``changeLogID``, ``changeLogEnd``) must encode
    /// again. It is emptied when a key is added or removed (the layout changes, and an encoding
    /// of another layout is never updated), starts over under a new ID when it grows longer than
    /// the table (a whole new encoding is then as cheap), and a writer forgets what it has
    /// written (``forgetChanges(before:)``).
    private var changeLog: [Int32] = []
    /// How many changes of this log were forgotten: `changeLog[0]` is change number
    /// `changeLogStart`.
    private var changeLogStart = 0
    /// Identifies the current change log; unique across all tables of the process.
    private(set) var changeLogID = Storage.newID()

    /// An empty table with room for `capacity` keys before it grows.
    init(minimumCapacity capacity: Int = 0) {
        storage = Storage(slotCount: Self.slotCount(for: capacity))
    }

    /// A table holding `dictionary`'s entries.
    init(_ dictionary: [String: PrefValue]) {
        self.init(minimumCapacity: dictionary.count)
        for (key, value) in dictionary { storage.insertNew(Entry(key: key, value: value), hash: Self.hash(key)) }
    }

    /// The number of keys.
    var count: Int { storage.count }

    /// Whether the table holds no key.
    var isEmpty: Bool { storage.count == 0 }

    /// Identifies where each key sits: changes whenever a key is added or removed (or the table
    /// grows), never when a value changes. Unique across all tables of the process.
    var layoutID: UInt64 { storage.layoutID }

    /// The value for `key`, or `nil`.
    subscript(key: String) -> PrefValue? {
        // Its own look-up, not `self[key, hash: Self.hash(key)]`: this is a typed get's whole
        // path, kept as it was measured (32fd3a9).
        let slot = storage.find(key, hash: Self.hash(key))
        return slot.found ? storage.slots[slot.index].entry?.value : nil
    }

    /// The value for `key`, whose ``hash(_:)`` the caller computed, or `nil`.
    subscript(key: String, hash hash: Int) -> PrefValue? {
        let slot = storage.find(key, hash: hash)
        return slot.found ? storage.slots[slot.index].entry?.value : nil
    }

    /// Sets the value for `key`; returns the previous one.
    @discardableResult
    mutating func updateValue(_ value: PrefValue, forKey key: String) -> PrefValue? {
        updateValue(value, forKey: key, hash: Self.hash(key))
    }

    /// Sets the value for `key`, whose ``hash(_:)`` the caller computed (a file's reader hashes
    /// an ASCII key straight from the file's bytes: ``hash(ascii:)``); returns the previous one.
    @discardableResult
    mutating func updateValue(_ value: consuming PrefValue, forKey key: consuming String, hash: Int) -> PrefValue? {
        makeUnique()
        let slot = storage.find(key, hash: hash)
        if slot.found {
            // Swapped in place: the old value moves out, the new one in (no copy of either).
            var old: PrefValue? = consume value
            storage.slots[slot.index].entry?.exchangeValue(&old)
            if changeLog.count < Swift.max(storage.count, 64) {
                changeLog.append(Int32(truncatingIfNeeded: slot.index))
            } else {
                restartChangeLog()
            }
            return old
        }
        dropChangeLog()
        if storage.needsRoomForOneMore {
            storage = storage.grown(toHold: storage.count + 1)
            storage.insertNew(Entry(key: key, value: value), hash: hash)
        } else {
            storage.fill(slot.index, with: Entry(key: key, value: value), hash: hash)
        }
        return nil
    }

    /// Adds `key`, whose ``hash(_:)`` the caller computed, as ``updateValue(_:forKey:hash:)``
    /// does, for a reader filling the table from a file: inlined, so that the key and the value
    /// move into their slot (called, each was copied and the original released); a repeated key,
    /// or a table that must grow, takes ``updateValue(_:forKey:hash:)``.
    @inline(__always)
    mutating func addReading(_ value: consuming PrefValue, forKey key: consuming String, hash: Int) {
        makeUnique()
        let slot = storage.find(key, hash: hash)
        guard !slot.found, !storage.needsRoomForOneMore else {
            updateValue(consume value, forKey: consume key, hash: hash)
            return
        }
        dropChangeLog()
        storage.fill(slot.index, with: Entry(key: consume key, value: consume value), hash: hash)
    }

    /// Removes `key`; returns its value, or `nil` when it was absent.
    @discardableResult
    mutating func removeValue(forKey key: String) -> PrefValue? {
        removeValue(forKey: key, hash: Self.hash(key))
    }

    /// Removes `key`, whose ``hash(_:)`` the caller computed; returns its value, or `nil` when
    /// it was absent.
    @discardableResult
    mutating func removeValue(forKey key: String, hash: Int) -> PrefValue? {
        let slot = storage.find(key, hash: hash)
        guard slot.found else { return nil }
        makeUnique()  // a copy keeps every key in its slot
        dropChangeLog()
        return storage.empty(slot.index)
    }

    /// A key comes or goes: the layout changes (``layoutID``), so no encoding of the table as it
    /// was can be brought up to date from the log any more, and the log's slots mean nothing.
    private mutating func dropChangeLog() {
        guard changeLogStart != 0 || !changeLog.isEmpty else { return }
        changeLog = []
        changeLogStart = 0
    }

    /// The log outgrew the table: it starts over under a new ID, so that no earlier encoding
    /// takes its new entries for the old ones.
    private mutating func restartChangeLog() {
        changeLog = []
        changeLogStart = 0
        changeLogID = Storage.newID()
    }

    /// The number of the next change: the log's end.
    var changeLogEnd: Int { changeLogStart + changeLog.count }

    /// The slots changed from change number `start` on (a slot may repeat); `nil` when those
    /// changes were forgotten.
    func changedSlots(since start: Int) -> ArraySlice<Int32>? {
        guard start >= changeLogStart, start <= changeLogEnd else { return nil }
        return changeLog[(start - changeLogStart)...]
    }

    /// Drops the changes before number `end`: they are written.
    mutating func forgetChanges(before end: Int) {
        let count = Swift.min(Swift.max(end - changeLogStart, 0), changeLog.count)
        guard count > 0 else { return }
        changeLog.removeFirst(count)
        changeLogStart += count
    }

    /// The keys, in no particular order.
    var keys: [String] {
        var keys: [String] = []
        keys.reserveCapacity(count)
        for (key, _) in self { keys.append(key) }
        return keys
    }

    /// The entries as a dictionary.
    var dictionary: [String: PrefValue] {
        var result: [String: PrefValue] = [:]
        result.reserveCapacity(count)
        for (key, value) in self { result[key] = value }
        return result
    }

    /// The file order of the keys: `cached` when it is still valid for this table, else sorted
    /// anew.
    func order(reusing cached: Order?) -> Order {
        if let cached, cached.layoutID == storage.layoutID { return cached }
        // The slots themselves are sorted, by their keys' first bytes: no array of the keys.
        var occupied: [JSONWriter.PrefixedIndex] = []
        occupied.reserveCapacity(count)
        for index in 0..<storage.slotCount {
            guard let key = storage.slots[index].entry?.key else { continue }
            let (high, low) = JSONWriter.utf8Prefix(key)
            occupied.append(JSONWriter.PrefixedIndex(high: high, low: low, index: index))
        }
        JSONWriter.sortPrefixed(&occupied) { left, right in
            JSONWriter.codePointPrecedes(storage.slots[left].entry?.key ?? "", storage.slots[right].entry?.key ?? "")
        }
        var ranks = [Int32](repeating: -1, count: storage.slotCount)
        var slots: [Int32] = []
        slots.reserveCapacity(occupied.count)
        for (rank, item) in occupied.enumerated() {
            ranks[item.index] = Int32(truncatingIfNeeded: rank)
            slots.append(Int32(truncatingIfNeeded: item.index))
        }
        return Order(layoutID: storage.layoutID, slots: slots, ranks: ranks)
    }

    /// The entry in `slot`, one of ``order(reusing:)``'s slots for this layout (`nil` for any
    /// other slot).
    func entry(atSlot slot: Int32) -> Entry? {
        storage.slots[Int(slot)].entry
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Slots for `capacity` keys at a load of at most seven eighths: a power of two, at least 8.
    static func slotCount(for capacity: Int) -> Int {
        var slots = 8
        while slots / 8 * 7 < capacity { slots *= 2 }
        return slots
    }
}

extension SuiteTable: Sequence {
    /// Walks the entries in slot order (no particular key order).
    struct Iterator: IteratorProtocol {
        fileprivate let storage: Storage
        fileprivate var index = 0

        mutating func next() -> (key: String, value: PrefValue)? {
            while index < storage.slotCount {
                defer { index += 1 }
                if let entry = storage.slots[index].entry { return (entry.key, entry.value) }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator {
        Iterator(storage: storage)
    }

    var underestimatedCount: Int { count }
}
