import Synchronization

extension SuiteTable {
    /// One place in the table: empty, deleted (a removed key, which probes walk past), or full,
    /// with 31 bits of the key's hash beside it so that a probe compares keys only on a hash
    /// match. 40 bytes (the entry first, so that the meta fits in its padding).
    struct Slot {
        var entry: Entry?
        /// 0: empty; 1: deleted; otherwise the top bit set and 31 bits of the hash
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
            slots.deinitialize(count: slotCount)
            slots.deallocate()
        }

        /// A number no other layout or change log of this process has had.
        static func newID() -> UInt64 {
            idCounter.add(1, ordering: .relaxed).newValue
        }

        /// The meta of a full slot for a key of hash `hash`: the hash's top bits (its low bits
        /// pick the slot), never 0 or 1.
        @inline(__always)
        static func meta(_ hash: Int) -> UInt32 {
            UInt32(truncatingIfNeeded: UInt64(UInt(bitPattern: hash)) >> 32) | (1 << 31)
        }

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
            var index = hash & mask
            while isFull(index) { index = (index + 1) & mask }
            fill(index, with: entry, hash: hash)
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

        /// A storage sized for `capacity` keys holding these entries (deleted slots dropped).
        func resized(toHold capacity: Int) -> Storage {
            let grown = Storage(slotCount: SuiteTable.slotCount(for: Swift.max(capacity, count * 2)))
            for index in 0..<slotCount {
                if let entry = slots[index].entry { grown.insertNew(entry, hash: SuiteTable.hash(entry.key)) }
            }
            return grown
        }
    }
}
