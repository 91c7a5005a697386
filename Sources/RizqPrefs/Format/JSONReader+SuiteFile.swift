#if canImport(Glibc)
import Glibc
import RizqJSON
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONReader {
    /// What a suite file's text holds.
    enum SuiteFileContents {
        /// The top-level object, read straight into the store's table (the last of a repeated
        /// key wins), and the schema version the file records (``SchemaVersionMember``: taken
        /// out of the table; `nil` when there is none).
        case object(SuiteTable, schemaVersion: MigrationMark?)
        /// Another kind of value (``PrefValue/kindName``): the file is damaged.
        case notAnObject(kindName: String)
    }

    /// Parses a suite file: the members of its top-level object go straight into a
    /// ``SuiteTable``, without a dictionary in between (building and growing that dictionary
    /// was most of the time of opening a large suite).
    /// - Throws: ``Failure`` when the text is not JSON.
    static func parseSuiteFile(_ bytes: [UInt8]) throws(Failure) -> SuiteFileContents {
        let read = bytes.withUnsafeBufferPointer { buffer -> Result<SuiteFileContents, Failure> in
            var reader = JSONReader(buffer, loneSurrogates: .reject)
            do throws(Failure) {
                return .success(try reader.readDocument { reader throws(Failure) in try reader.readSuiteTop() })
            } catch {
                return .failure(error)
            }
        }
        return try read.get()
    }

    private mutating func readSuiteTop() throws(Failure) -> SuiteFileContents {
        guard bytes[index] == UInt8(ascii: "{") else {
            return .notAnObject(kindName: try readValue(PrefValueBuilder.self).kindName)
        }
        // Made at its final size: grown member by member, the table rehashed every key at each
        // doubling (a quarter of opening a 100,000-key suite, in callgrind's instruction counts).
        var table = SuiteTable(minimumCapacity: memberCountHint())
        try readTopMembers(into: &table)
        let version = SchemaVersionMember.take(from: &table)
        return .object(table, schemaVersion: version)
    }

    /// Reads the top-level object, `{` to `}`, straight into `table` (the last of a repeated key
    /// wins): the grammar and the failures of ``readMembers(_:_:)``, written out for the one
    /// object that holds nearly all of a suite file, so that
    /// - each key and value moves into the table (through `readMembers`' closure, each was
    ///   copied and the copy released: a tenth of opening a large suite, in callgrind);
    /// - a key of up to 15 ASCII bytes without escapes, nearly every key, is read as two words
    ///   that are its `String` and its hash (``scanShortASCIIKey()``), and a longer ASCII key is
    ///   hashed from the file's bytes (the same hashes as from the `String`, without making it
    ///   through an initializer or copying it again to hash it);
    /// - an integer, nearly every number, is read here rather than through ``readValue(_:topLevel:)``.
    /// Everything else goes through the same scanners as anywhere else, so that a file reads,
    /// and fails, as the general parser reads it (SuiteFileReaderTests compares the two).
    private mutating func readTopMembers(into table: inout SuiteTable) throws(Failure) {
        let shortStrings = ShortASCIIString.maker
        let seed = SuiteTable.seed
        guard try openObject() else { return }
        while true {
            try expectKey()
            let key: String
            let hash: Int
            if let shortStrings, let short = scanShortASCIIKey(shortStrings, seed: seed) {
                (key, hash) = short
            } else {
                let (text, ascii) = try scanStringKeepingASCII()
                (key, hash) = (text, ascii.map(SuiteTable.hash(ascii:)) ?? SuiteTable.hash(text))
            }
            try expectColon()
            guard index < bytes.count else { throw fail(.truncated(.value)) }
            let value: PrefValue
            if let number = scanShortInteger() {
                value = .int(number)
            } else {
                value = try readValue(PrefValueBuilder.self)
            }
            table.addReading(consume value, forKey: consume key, hash: hash)
            guard try nextMember() else { return }
            // The line break and indent this library writes before each member, at once.
            if index + 3 < bytes.count, bytes[index] == 0x0A, bytes[index + 1] == 0x20, bytes[index + 2] == 0x20 { index += 3 }
        }
    }

    /// The key whose opening quote is at `index` and its hash, moving past its closing quote,
    /// when it is at most 15 ASCII bytes without escapes (nearly every key of a suite): read as
    /// two words, which are already the key's `String` (``ShortASCIIString``) and what its hash
    /// is made of. `nil`, not moving, for any other key (``scanStringKeepingASCII()`` reads it),
    /// or when fewer than 16 bytes follow the quote.
    @inline(__always)
    private mutating func scanShortASCIIKey(_ strings: ShortASCIIString, seed: UInt64) -> (key: String, hash: Int)? {
        let start = index + 1
        guard start + 16 <= bytes.count, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base + start)
        var first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        var second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let count: Int
        let firstStops = Self.stopBytes(in: first)
        if firstStops != 0 {
            count = firstStops.trailingZeroBitCount / 8
            first &= (1 << UInt64(8 * count)) &- 1
            second = 0
        } else {
            let secondStops = Self.stopBytes(in: second)
            guard secondStops != 0 else { return nil }
            count = 8 + secondStops.trailingZeroBitCount / 8
            second &= (1 << UInt64(8 * (count - 8))) &- 1
        }
        // Ended by its closing quote (not an escape or a control character), all ASCII.
        guard base[start + count] == UInt8(ascii: "\""), (first | second) & 0x8080_8080_8080_8080 == 0,
            let key = strings.make(first, second, count: count)
        else { return nil }
        index = start + count + 1
        return (key, SuiteTable.hash(asciiWords: first, second, count: count, seed: seed))
    }

    /// How many members the top-level object has, as a file this library wrote lays them out:
    /// each on a line of its own that starts with two spaces and a quote (a nested member is
    /// indented further). Only a hint for the size of the table — a file written otherwise may
    /// count fewer, and the table then grows as it reads — and never more than one member per
    /// six bytes (`"":0,` and its line), so that no input can make it reserve much more than
    /// its size.
    private func memberCountHint() -> Int {
        guard let base = bytes.baseAddress, bytes.count >= 4 else { return 0 }
        var count = 0
        var position = index
        let end = bytes.count - 3
        while position < end, let found = memchr(base + position, 0x0A, end - position) {
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if base[newline + 1] == 0x20, base[newline + 2] == 0x20, base[newline + 3] == 0x22 { count += 1 }
            position = newline + 1
        }
        return min(count, bytes.count / 6)
    }
}
