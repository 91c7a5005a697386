#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONReader {
    /// What a suite file's text holds.
    enum SuiteFileContents {
        /// The top-level object, read straight into the store's table (the last of a repeated
        /// key wins), and the schema version the file records (``SchemaVersionMember``: taken
        /// out of the table; `nil` when there is none).
        case object(SuiteTable, schemaVersion: Int?)
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
        _ = try readMembers(PrefValueBuilder.self) { key, _, value in table.updateValue(value, forKey: key) }
        let version = SchemaVersionMember.take(from: &table)
        return .object(table, schemaVersion: version)
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
