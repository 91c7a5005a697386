import Foundation
import RizqJSON
import RizqTestSupport
import XCTest

@testable import RizqPrefs

/// The store's in-memory table and the incremental file encoding built on it: they must behave
/// exactly as a `[String: PrefValue]` and a whole encoding do.
final class SuiteTableTests: XCTestCase {
    /// A repeatable pseudo-random sequence (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    func testMatchesADictionaryThroughInsertsUpdatesAndRemovals() {
        var random = Random(state: 7)
        var table = SuiteTable()
        var reference: [String: PrefValue] = [:]
        for step in 0..<20_000 {
            let key = "k\(random.next(3_000))"
            switch random.next(4) {
            case 0:
                XCTAssertEqual(table.removeValue(forKey: key), reference.removeValue(forKey: key), "step \(step)")
            default:
                let value: PrefValue = random.next(2) == 0 ? .int(step) : .string("v\(step)")
                XCTAssertEqual(table.updateValue(value, forKey: key), reference.updateValue(value, forKey: key), "step \(step)")
            }
            XCTAssertEqual(table.count, reference.count)
        }
        XCTAssertEqual(table.dictionary, reference)
        for index in 0..<3_100 {
            XCTAssertEqual(table["k\(index)"], reference["k\(index)"])
        }
        XCTAssertEqual(Set(table.keys), Set(reference.keys))
    }

    func testCanonicallyEquivalentKeysAreOneKeyAsInADictionary() {
        var table = SuiteTable()
        table.updateValue(1, forKey: "caf\u{E9}")
        table.updateValue(2, forKey: "cafe\u{301}")
        // U+212A KELVIN SIGN is canonically equivalent to the ASCII letter K.
        table.updateValue(3, forKey: "\u{212A}ey")
        XCTAssertEqual(table.count, 2)
        XCTAssertEqual(table["caf\u{E9}"], 2)
        XCTAssertEqual(table["Key"], 3)
        let reference: [String: PrefValue] = ["caf\u{E9}": 2, "Key": 3]
        XCTAssertEqual(table.dictionary, reference)
    }

    /// A key's hash is the same whether it is hashed as a `String` (its last bytes read with
    /// whole, overlapping loads) or from the two words a file's reader makes of its bytes, for
    /// every length a reader hashes that way (0–15).
    func testAKeysHashIsTheSameFromItsStringAndFromItsWords() {
        var random = Random(state: 11)
        for length in 0...15 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8(32 + random.next(95)) }
                var first: UInt64 = 0
                var second: UInt64 = 0
                for (index, byte) in bytes.enumerated() {
                    if index < 8 { first |= UInt64(byte) << UInt64(8 * index) } else { second |= UInt64(byte) << UInt64(8 * (index - 8)) }
                }
                let key = String(decoding: bytes, as: UTF8.self)
                XCTAssertEqual(SuiteTable.hash(key), SuiteTable.hash(asciiWords: first, second, count: length, seed: SuiteTable.seed), "\(bytes)")
                XCTAssertEqual(SuiteTable.hash(key), bytes.withUnsafeBufferPointer { SuiteTable.hash(ascii: $0) })
            }
        }
    }

    /// The table's own hash must agree with `String`'s `==`: equal keys, equal hashes. The three
    /// characters that normalize to ASCII ones are the cases a byte hash would get wrong.
    func testEqualKeysHashAlike() {
        let pairs: [(String, String)] = [
            ("Key", "\u{212A}ey"), ("a;b", "a\u{37E}b"), ("`x`", "\u{1FEF}x\u{1FEF}"),
            ("caf\u{E9}", "cafe\u{301}"), ("\u{212A}\u{E9}", "K\u{65}\u{301}"), ("\u{212B}", "\u{C5}"),
            ("a long key of more than sixteen bytes \u{212A}", "a long key of more than sixteen bytes K"),
        ]
        for (left, right) in pairs {
            XCTAssertEqual(left, right)
            XCTAssertEqual(SuiteTable.hash(left), SuiteTable.hash(right), "\(left.unicodeScalars.map(\.value)) vs \(right.unicodeScalars.map(\.value))")
            var table = SuiteTable()
            table.updateValue(1, forKey: left)
            table.updateValue(2, forKey: right)
            XCTAssertEqual(table.count, 1)
            XCTAssertEqual(table[left], 2)
        }
        // Different keys of every length up to 40 bytes: distinct hashes, as a good hash gives.
        let keys = (0..<2_000).map { "k\($0)" + String(repeating: "x", count: $0 % 40) }
        XCTAssertEqual(Set(keys.map(SuiteTable.hash)).count, keys.count)
        XCTAssertNotEqual(SuiteTable.hash("a"), SuiteTable.hash("a\u{0}"))
    }

    func testCopiesAreIndependent() {
        var original = SuiteTable(["a": 1, "b": 2])
        let snapshot = original
        original.updateValue(10, forKey: "a")
        original.removeValue(forKey: "b")
        original.updateValue(3, forKey: "c")
        XCTAssertEqual(snapshot.dictionary, ["a": 1, "b": 2])
        XCTAssertEqual(original.dictionary, ["a": 10, "c": 3])
    }

    /// A growing table moves its entries to the larger slots, placing each by the hash bits its
    /// slot kept: every key, ASCII or not, is found after many growths, values that live on the
    /// heap are intact, and a copy taken before the growth keeps its own entries.
    func testGrowingMovesEveryEntryAndLeavesCopiesAlone() {
        var table = SuiteTable()
        var reference: [String: PrefValue] = [:]
        var snapshots: [(SuiteTable, [String: PrefValue])] = []
        for index in 0..<5_000 {
            let key = index % 3 == 0 ? "caf\u{E9}-\(index)" : "a key long enough for the heap \(index)"
            let value: PrefValue = index % 2 == 0 ? .string(String(repeating: "v", count: 20) + "\(index)") : .array([.int(index)])
            table.updateValue(value, forKey: key)
            reference[key] = value
            if index % 7 == 0 { XCTAssertEqual(table.removeValue(forKey: key), value) ; reference[key] = nil }
            if index.nonzeroBitCount == 1 { snapshots.append((table, reference)) }
        }
        XCTAssertEqual(table.count, reference.count)
        for (key, value) in reference { XCTAssertEqual(table[key], value, key) }
        XCTAssertEqual(table.dictionary, reference)
        for (snapshot, expected) in snapshots {
            XCTAssertEqual(snapshot.dictionary, expected)
            for (key, value) in expected { XCTAssertEqual(snapshot[key], value, key) }
        }
    }

    func testLayoutChangesWithKeysNotWithValues() {
        var table = SuiteTable(["a": 1, "b": 2])
        let layout = table.layoutID
        table.updateValue(5, forKey: "a")
        XCTAssertEqual(table.layoutID, layout)
        table.updateValue(5, forKey: "c")
        XCTAssertNotEqual(table.layoutID, layout)
        let grown = table.layoutID
        table.removeValue(forKey: "c")
        XCTAssertNotEqual(table.layoutID, grown)
    }

    func testOrderIsCodePointOrder() {
        let table = SuiteTable(["b": 1, "a": 2, "ä": 3, "Z": 4, "a b": 5])
        let order = table.order(reusing: nil)
        XCTAssertEqual(order.slots.compactMap { table.entry(atSlot: $0)?.key }, ["Z", "a", "a b", "b", "ä"])
    }

    /// A table of many keys sorts its slots by bytes (the radix sort, from 256 keys on): the
    /// same code point order, also for keys alike in their first 16 bytes and for non-ASCII ones;
    /// and every slot's rank is its place in that order.
    func testOrderOfManyKeysIsCodePointOrder() {
        var keys: Set<String> = []
        var random = Random(state: 7)
        while keys.count < 3_000 {
            switch random.next(3) {
            case 0: keys.insert("key-\(random.next(100_000))")
            case 1: keys.insert(String(repeating: "alike ", count: 3) + "\(random.next(100_000))")
            default: keys.insert(["é", "e", "中", "\u{0}", "Z"][random.next(5)] + "\(random.next(1_000))")
            }
        }
        var table = SuiteTable()
        for key in keys { table.updateValue(1, forKey: key) }
        let order = table.order(reusing: nil)
        XCTAssertEqual(order.slots.compactMap { table.entry(atSlot: $0)?.key }.map { Array($0.utf8) },
                       keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { Array($0.utf8) })
        for (rank, slot) in order.slots.enumerated() { XCTAssertEqual(order.ranks[Int(slot)], Int32(rank)) }
    }

    /// The incremental encoding equals a whole encoding after every kind of change, including
    /// values whose text gets longer or shorter and a change log that starts over. It is made
    /// as the store makes it: into the arrays of the encoding before the last (`spare`), which
    /// leaves the one it starts from as it was and, most rounds, allocates no new storage.
    func testIncrementalEncodingEqualsAWholeEncoding() throws {
        var random = Random(state: 42)
        var table = SuiteTable()
        for index in 0..<500 { table.updateValue(.int(index), forKey: "key-\(index)") }
        var encoded = try EncodedSuite(encoding: table, order: table.order(reusing: nil))
        var spare = EncodedSuite.Buffers()
        var incremental = 0
        var reused = 0
        for round in 0..<200 {
            for _ in 0..<(1 + random.next(40)) {
                let key = "key-\(random.next(520))"
                switch random.next(20) {
                case 0: table.removeValue(forKey: key)
                case 1: table.updateValue(.array([.string("x\(round)"), .dictionary(["n": .int(round)])]), forKey: key)
                case 2: table.updateValue(.string(String(repeating: "é\"\n", count: random.next(5))), forKey: key)
                default:
                    // Only values of keys that exist: the layout stays, so the update is incremental.
                    if table[key] != nil { table.updateValue(.int(random.next(1_000_000) - 500_000), forKey: key) }
                }
            }
            let before = encoded.bytes
            let spareStorage = spare.bytes.withUnsafeBufferPointer { $0.baseAddress }
            if let updated = try encoded.updated(to: table, reusing: &spare) {
                incremental += 1
                XCTAssertEqual(encoded.bytes, before, "round \(round): the encoding updated from is left as it was")
                XCTAssertTrue(spare.bytes.isEmpty, "round \(round): the spare arrays were taken")
                if spareStorage != nil, updated.bytes.withUnsafeBufferPointer({ $0.baseAddress }) == spareStorage { reused += 1 }
                spare = encoded.buffers
                encoded = updated
            } else {
                encoded = try EncodedSuite(encoding: table, order: table.order(reusing: encoded.order))
            }
            let whole = try EncodedSuite(encoding: table, order: table.order(reusing: nil))
            XCTAssertEqual(String(decoding: encoded.bytes, as: UTF8.self), String(decoding: whole.bytes, as: UTF8.self), "round \(round)")
            XCTAssertEqual(try JSONReader.parse(encoded.bytes), .dictionary(table.dictionary), "round \(round)")
        }
        XCTAssertGreaterThan(incremental, 20, "most rounds change values only and should be incremental")
        // (Without the reuse, malloc handing back a just-freed block matched about a quarter.)
        XCTAssertGreaterThan(reused, incremental * 3 / 4, "most updates write into the spare arrays' storage")
    }

    func testAnEncodingOfAnotherTableIsNotReused() throws {
        let first = SuiteTable(["a": 1])
        let encoded = try EncodedSuite(encoding: first, order: first.order(reusing: nil))
        let second = SuiteTable(["a": 2])
        var spare = EncodedSuite.Buffers(bytes: [1, 2, 3])
        XCTAssertNil(try encoded.updated(to: second, reusing: &spare))
        XCTAssertEqual(spare.bytes, [1, 2, 3], "an update that cannot be made leaves the spare arrays alone")
        XCTAssertEqual(String(decoding: try EncodedSuite(encoding: SuiteTable(), order: SuiteTable().order(reusing: nil)).bytes, as: UTF8.self), "{}\n")
    }

    /// Through the store: each flush of a suite whose values change writes exactly the whole
    /// encoding of what the store holds, also after keys come and go and after a write that
    /// failed half-way (its changes are written by the next one).
    func testEveryWriteOfTheStoreIsExactlyTheWholeEncoding() throws {
        let root = TemporaryRoot()
        let store = try root.store()
        var random = Random(state: 3)
        var expected: [String: PrefValue] = [:]
        for index in 0..<2_000 {
            store.set(index, forKey: "key-\(index)")
            expected["key-\(index)"] = .int(index)
        }
        try store.flush()
        for round in 0..<30 {
            if round == 10 {
                // Read-only first: a write scheduled by the set must not slip in before.
                let undo = try makeReadOnly(root.path + "/groups")
                store.set("set before a failed write", forKey: "key-5")
                expected["key-5"] = "set before a failed write"
                XCTAssertThrowsError(try store.flush())
                undo()
            }
            for _ in 0..<(1 + random.next(50)) {
                let key = "key-\(random.next(2_100))"
                switch random.next(12) {
                case 0:
                    store.removeObject(forKey: key)
                    expected[key] = nil
                case 1:
                    let value: PrefValue = .dictionary(["round": .int(round), "text": "a \"quoted\" line\n"])
                    store.set(value, forKey: key)
                    expected[key] = value
                default:
                    // Mostly values of keys that exist: the writes that copy the unchanged text.
                    guard expected[key] != nil else { continue }
                    let value = random.next(2_000_000) - 1_000_000
                    store.set(value, forKey: key)
                    expected[key] = .int(value)
                }
            }
            try store.flush()
            XCTAssertEqual(root.fileBytes().map { Array($0) }, try JSONWriter.suiteFile(expected), "round \(round)")
            XCTAssertEqual(store.entries, expected, "round \(round)")
        }
        // A new process reads what was written.
        let output = try Child.run(root, "group.com.rizq.test", ["dump"])
        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(output.lines, [PrefValue.dictionary(expected).description])
    }

    /// The pending changes are keyed with the table's hash (``PendingKey``): canonically
    /// equivalent spellings are one pending change, as in the table, and the file gets the key
    /// once, with the last value; a key whose hash matches another's is still its own key.
    func testPendingChangesKeepTheTablesIdeaOfOneKey() throws {
        XCTAssertEqual(PendingKey("caf\u{E9}"), PendingKey("cafe\u{301}"))
        XCTAssertEqual(PendingKey("Key"), PendingKey("\u{212A}ey"))
        // The same hash given to two different keys does not make them one.
        XCTAssertNotEqual(PendingKey("a", hash: 7), PendingKey("b", hash: 7))
        var pending: [PendingKey: Int] = [PendingKey("a", hash: 7): 1, PendingKey("b", hash: 7): 2]
        pending[PendingKey("a", hash: 7)] = 3
        XCTAssertEqual(pending, [PendingKey("a", hash: 7): 3, PendingKey("b", hash: 7): 2])

        let root = TemporaryRoot()
        let store = try root.store()
        store.set(1, forKey: "caf\u{E9}")
        store.set(2, forKey: "cafe\u{301}")
        store.set(3, forKey: "\u{212A}ey")
        store.removeObject(forKey: "Key")
        store.set(4, forKey: "plain")
        try store.flush()
        let onDisk = try JSONSerialization.jsonObject(with: XCTUnwrap(root.fileBytes())) as? [String: Int]
        XCTAssertEqual(onDisk?.count, 2, "\(String(describing: onDisk))")
        XCTAssertEqual(onDisk?["plain"], 4)
        XCTAssertEqual(onDisk?.first { $0.key.precomposedStringWithCanonicalMapping == "caf\u{E9}" }?.value, 2)
    }
}
