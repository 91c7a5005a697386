import RizqJSON
/// A suite file's bytes, encoded from a ``SuiteTable``, with where each value's text sits in
/// them: encoding the table again after some values changed copies the unchanged text and
/// encodes only the changed values (``updated(to:)``).
///
/// A suite file is rewritten whole on every write (one sorted, readable JSON file), so the cost
/// of a write grows with the suite; this keeps the part that is not the disk's small: 10,000
/// changed values in a 100,000-key suite are 10,000 values to encode and one copy of the rest,
/// not 100,000 values to look up and encode. The bytes are exactly what a whole encoding gives.
struct EncodedSuite: Sendable {
    /// The file's bytes: `{`, the schema version member if the file has one, one
    /// `"key": value` member per line in key order, `}` and a line break (`{}` and a line break
    /// for no keys and no version). An update copies the version member with the other text.
    let bytes: [UInt8]
    /// The table's file order; its layout is the one these bytes were encoded from.
    let order: SuiteTable.Order
    /// For each key, in file order, where its value's text starts in `bytes`.
    private let valueStarts: [Int]
    /// For each key, in file order, where its value's text ends in `bytes`.
    private let valueEnds: [Int]
    /// The table's change log, and its end when these bytes were encoded.
    let changeLogID: UInt64
    let changeLogEnd: Int

    /// Encodes `table` whole, in `order` (its file order), with the schema version member first
    /// when `schemaVersion` is given (``SchemaVersionMember``).
    init(encoding table: SuiteTable, order: SuiteTable.Order, schemaVersion: MigrationMark? = nil) throws(JSONWriter.Unrepresentable) {
        var output: [UInt8] = []
        var starts: [Int] = []
        var ends: [Int] = []
        output.reserveCapacity(table.count * 32 + 24)
        starts.reserveCapacity(table.count)
        ends.reserveCapacity(table.count)
        output.append(UInt8(ascii: "{"))
        if let schemaVersion { SchemaVersionMember.append(schemaVersion, to: &output) }
        for slot in order.slots {
            guard let entry = table.entry(atSlot: slot) else { continue }
            if !starts.isEmpty || schemaVersion != nil { output.append(UInt8(ascii: ",")) }
            JSONWriter.appendSuiteKey(entry.key, to: &output)
            starts.append(output.count)
            try JSONWriter.appendSuiteValue(entry.value, forKey: entry.key, to: &output)
            ends.append(output.count)
        }
        if !starts.isEmpty || schemaVersion != nil { output.append(0x0A) }
        output.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        self.init(bytes: output, order: order, valueStarts: starts, valueEnds: ends, table: table)
    }

    private init(bytes: [UInt8], order: SuiteTable.Order, valueStarts: [Int], valueEnds: [Int], table: SuiteTable) {
        self.bytes = bytes
        self.order = order
        self.valueStarts = valueStarts
        self.valueEnds = valueEnds
        changeLogID = table.changeLogID
        changeLogEnd = table.changeLogEnd
    }

    /// The arrays of an encoding that is no longer the file's, kept for the next
    /// ``updated(to:reusing:)`` to write into instead of allocating its own.
    ///
    /// An update of a 100,000-key suite needs three arrays of megabytes (the bytes, the values'
    /// starts and ends). Asked of `malloc` at every flush, they cost little on a fresh heap, but
    /// after the app has allocated and freed many small objects glibc sorts those free chunks
    /// before it hands out a large one: in the benchmark's full run that search was 40% of a
    /// flush's processor time (docs/performance.md, "Flush: where the time goes"). Two sets of
    /// arrays, used in turn, make a flush allocate nothing large.
    struct Buffers: Sendable {
        var bytes: [UInt8] = []
        var valueStarts: [Int] = []
        var valueEnds: [Int] = []
    }

    /// This encoding's arrays, to reuse once it is no longer the file's (held nowhere else
    /// then, their storage is written over in place).
    var buffers: Buffers { Buffers(bytes: bytes, valueStarts: valueStarts, valueEnds: valueEnds) }

    /// The encoding of `table`, or of a later version of it, from this one: only the values
    /// changed since are encoded, into the arrays of `spare` (taken; left empty). `nil` when
    /// `table` is not this table with some values changed (a key was added or removed, or the
    /// change log started over): encode it whole then; `spare` is untouched.
    func updated(to table: SuiteTable, reusing spare: inout Buffers) throws(JSONWriter.Unrepresentable) -> EncodedSuite? {
        guard table.layoutID == order.layoutID, table.changeLogID == changeLogID,
            let slots = table.changedSlots(since: changeLogEnd), valueStarts.count == order.slots.count
        else {
            return nil
        }
        var changed = slots.map { Int(order.ranks[Int($0)]) }
        changed.sort()
        // The changed entries first, in one pass of loads that do not wait for each other (the
        // slots are scattered over the table: cache misses, which then overlap).
        var entries: [(rank: Int, entry: SuiteTable.Entry)] = []
        entries.reserveCapacity(changed.count)
        for rank in changed where entries.last?.rank != rank {
            guard rank >= 0, let entry = table.entry(atSlot: order.slots[rank]) else { return nil }
            entries.append((rank, entry))
        }
        var output = Self.emptied(&spare.bytes)
        output.reserveCapacity(bytes.count + entries.count * 8)
        // Each changed value: its new text's bounds.
        var edits: [(rank: Int, newStart: Int, newEnd: Int)] = []
        edits.reserveCapacity(entries.count)
        var copied = 0
        for (rank, entry) in entries {
            output.append(contentsOf: bytes[copied..<valueStarts[rank]])
            let newStart = output.count
            try JSONWriter.appendSuiteValue(entry.value, forKey: entry.key, to: &output)
            edits.append((rank, newStart, output.count))
            copied = valueEnds[rank]
        }
        output.append(contentsOf: bytes[copied...])
        // Every value after an edit moved by the edits' total change in length. The values
        // between two edits move together: one tight loop per run (none while the total is
        // zero), not a check per key — this loop was most of a one-value flush of a 100,000-key
        // suite (callgrind: 6.0 of its 6.7 million instructions).
        var starts = Self.emptied(&spare.valueStarts)
        starts.append(contentsOf: valueStarts)
        var ends = Self.emptied(&spare.valueEnds)
        ends.append(contentsOf: valueEnds)
        starts.withUnsafeMutableBufferPointer { starts in
            ends.withUnsafeMutableBufferPointer { ends in
                var shift = 0
                var from = 0
                for edit in edits {
                    Self.move(starts, ends, from..<edit.rank, by: shift)
                    shift = edit.newEnd - ends[edit.rank]
                    starts[edit.rank] = edit.newStart
                    ends[edit.rank] = edit.newEnd
                    from = edit.rank + 1
                }
                Self.move(starts, ends, from..<starts.count, by: shift)
            }
        }
        return EncodedSuite(bytes: output, order: order, valueStarts: starts, valueEnds: ends, table: table)
    }

    /// `array`, emptied but keeping its storage, taken out of where it was (`[]` is left there,
    /// so that the storage has one owner and is written over rather than copied).
    private static func emptied<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// Moves the bounds of the values at `ranks` by `shift` bytes.
    private static func move(_ starts: UnsafeMutableBufferPointer<Int>, _ ends: UnsafeMutableBufferPointer<Int>, _ ranks: Range<Int>, by shift: Int) {
        guard shift != 0 else { return }
        for rank in ranks {
            starts[rank] &+= shift
            ends[rank] &+= shift
        }
    }
}

extension EncodedSuite {
    /// `table` encoded whole, in its file order (`order` when it is still the table's), with
    /// the schema version member when `schemaVersion` is given.
    init(suite table: SuiteTable, reusing order: SuiteTable.Order?, schemaVersion: MigrationMark?) throws(SuiteStoreError) {
        do {
            try self.init(encoding: table, order: table.order(reusing: order), schemaVersion: schemaVersion)
        } catch {
            throw .invalid(error)
        }
    }
}

extension JSONWriter {
    /// A whole suite file holding `entries`: a sorted, pretty object, one key per line.
    static func suiteFile(_ entries: [String: PrefValue]) throws(Unrepresentable) -> [UInt8] {
        let table = SuiteTable(entries)
        return try EncodedSuite(encoding: table, order: table.order(reusing: nil)).bytes
    }
}
