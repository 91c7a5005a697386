import Synchronization

extension SuiteTable {
    /// One place in the table: empty, deleted (a removed key, which probes walk past), or full,
    /// with the low 31 bits of the key's hash beside it, so that a probe compares keys only on a
    /// hash match and a table that grows places every key again without hashing it. 40 bytes
    /// (the entry first, so that the meta fits in its padding).
    struct Slot {
        var entry: Entry?
        /// 0: empty; 1: deleted; otherwise the top bit set and the low 31 bits of the hash
        /// (``Storage/meta(_:)``).
        var meta: UInt32
    }

    /// The slots, allocated once per size.
    final class Storage: @unchecked Sendable {
        static let emptyMeta: UInt32 = 0
        static let deletedMeta: UInt32 = 1
        private static let idCounter = Atomic<UInt64>(0)

        let slotCount: Int
        let mask: Int
        let slots: UnsafeMutablePointer<Slot>
        var count = 0
        var deleted = 0
        private(set) var layoutID: UInt64

        init(slotCount: Int) {
            self.slotCount = slotCount
            mask = slotCount - 1
            slots = .allocate(capacity: slotCount)
            // One empty slot at a time: `initialize(repeating:count:)` copies its template
            // through the generic copy of an entry for each slot (a twentieth of opening a
            // large suite), where an empty slot is a constant the loop stores.
            for index in 0..<slotCount { (slots + index).initialize(to: Slot(entry: nil, meta: Self.emptyMeta)) }
            layoutID = Self.newID()
        }

        deinit {
            // Only a full slot holds anything to release: an empty table (one whose entries
            // moved to a larger one, ``grown(toHold:)``) skips the walk over its slots.
            if count > 0 { slots.deinitialize(count: slotCount) }
            slots.deallocate()
        }

        /// A number no other layout or change log of this process has had.
        static func newID() -> UInt64 {
            idCounter.add(1, ordering: .relaxed).newValue
        }

        /// The meta of a full slot for a key of hash `hash`: the hash's low 31 bits with the top
        /// bit set, never 0 or 1. The slot is picked by the hash's low bits too, so the meta
        /// alone says where a key goes in a larger table (``grown(toHold:)``); the bits above
        /// the slot's still tell keys of one home slot apart (17 bits at 100,000 keys).
        @inline(__always)
        static func meta(_ hash: Int) -> UInt32 {
            UInt32(truncatingIfNeeded: hash) | (1 << 31)
        }

        /// The bits of a key's hash that a full slot's meta keeps (``meta(_:)``).
        static let metaHashBits: UInt32 = (1 << 31) - 1

        /// Whether slot `index` holds an entry.
        @inline(__always)
        func isFull(_ index: Int) -> Bool {
            slots[index].meta > Self.deletedMeta
        }

        /// Where `key` is (`found`), or else the slot an insertion of it should take.
        @inline(__always)
        func find(_ key: String, hash: Int) -> (found: Bool, index: Int) {
            let meta = Self.meta(hash)
            var index = hash & mask
            var firstDeleted = -1
            while true {
                let slotMeta = slots[index].meta
                if slotMeta == meta, slots[index].entry?.key == key { return (true, index) }
                if slotMeta == Self.emptyMeta { return (false, firstDeleted >= 0 ? firstDeleted : index) }
                if slotMeta == Self.deletedMeta, firstDeleted < 0 { firstDeleted = index }
                index = (index + 1) & mask
            }
        }

        /// Whether one more key would take the table over its load (deleted slots count).
        var needsRoomForOneMore: Bool {
            count + deleted + 1 > slotCount / 8 * 7
        }

        /// Puts a new entry in slot `index` (empty or deleted, as ``find(_:hash:)`` chose).
        // Inlined, so that the entry moves into its slot: called, it was copied in and the
        // caller's released (an entry's copy is a switch over its value's cases).
        @inline(__always)
        func fill(_ index: Int, with entry: consuming Entry, hash: Int) {
            if slots[index].meta == Self.deletedMeta { deleted -= 1 }
            // Initialized over, not assigned: an empty or deleted slot's entry is always `nil`
            // (``empty(_:)``), which holds nothing to release.
            (slots + index).initialize(to: Slot(entry: consume entry, meta: Self.meta(hash)))
            count += 1
            layoutID = Self.newID()
        }

        /// Inserts a key known to be absent, in a table known to have room.
        func insertNew(_ entry: consuming Entry, hash: Int) {
            fill(firstFree(from: hash & mask), with: entry, hash: hash)
        }

        /// The first slot from `home` on (wrapping) that holds no entry: where a key absent from
        /// a table that has room goes.
        @inline(__always)
        func firstFree(from home: Int) -> Int {
            var index = home
            while isFull(index) { index = (index + 1) & mask }
            return index
        }

        /// Empties slot `index`, which is full; returns its value.
        func empty(_ index: Int) -> PrefValue? {
            let entry = slots[index].entry
            slots[index] = Slot(entry: nil, meta: Self.deletedMeta)
            count -= 1
            deleted += 1
            layoutID = Self.newID()
            return entry?.value
        }

        /// The same slots, entries and layout, in storage of its own.
        func copy() -> Storage {
            let copy = Storage(slotCount: slotCount)
            copy.slots.update(from: slots, count: slotCount)
            copy.count = count
            copy.deleted = deleted
            copy.layoutID = layoutID
            return copy
        }

        /// A storage sized for `capacity` keys that takes these entries (deleted slots dropped),
        /// leaving this one empty. Only for storage no other table shares (the caller made it
        /// unique): the entries move, each to the slot its meta names, with no key hashed,
        /// copied or released.
        func grown(toHold capacity: Int) -> Storage {
            let grown = Storage(slotCount: SuiteTable.slotCount(for: Swift.max(capacity, count * 2)))
            // A meta keeps 31 bits of the hash: enough to place a key in up to 2³¹ slots
            // (80 GiB of them); past that the key is hashed again.
            let metaPlaces = grown.slotCount <= Int(Self.metaHashBits) + 1
            for index in 0..<slotCount where isFull(index) {
                let home = metaPlaces ? Int(slots[index].meta & Self.metaHashBits) : SuiteTable.hash(slots[index].entry?.key ?? "")
                (grown.slots + grown.firstFree(from: home & grown.mask)).moveInitialize(from: slots + index, count: 1)
                (slots + index).initialize(to: Slot(entry: nil, meta: Self.emptyMeta))
            }
            grown.count = count
            count = 0
            deleted = 0
            return grown
        }
    }
}
