import Foundation

/// Writes UTF-8 JSON: strings escaped as little as JSON needs (non-ASCII text kept as is, so
/// that a file stays readable), integers without a temporary `String`, doubles in their
/// shortest exact form with a `.` or exponent (`1.0`, `0.1`, `1e+300`), keys sorted by code
/// point, two-space indents. RizqPrefs walks its values with these (`JSONWriter+PrefValue`).
///
/// The pieces are `@inlinable`, so that writing a large suite costs no call across modules.
public enum JSONWriter {
    /// A value that JSON cannot hold: a date beyond the years ±999,999, at `path`.
    public struct Unrepresentable: Error, Sendable, Equatable, CustomStringConvertible {
        /// Where the value is, as a JSON-pointer-like path (`/settings/ratio`).
        @usableFromInline package var path: String
        /// The value, as Swift prints it.
        @usableFromInline package var value: String
        /// "value date … at /when cannot be stored in JSON".
        public var description: String { "value \(value) at \(path.isEmpty ? "/" : path) cannot be stored in JSON" }

        /// A value that cannot be stored, at `path`.
        @inlinable package init(path: String, value: String) {
            self.path = path
            self.value = value
        }

        /// The same failure, one level further out.
        @inlinable package func inside(_ component: String) -> Unrepresentable {
            Unrepresentable(path: component + path, value: value)
        }
    }

    /// Orders keys by Unicode code point, as `jq -S` does (UTF-8 byte order is code point order).
    @inlinable package static func sortedKeys<Value>(_ entries: [String: Value]) -> [String] {
        sortedKeys(Array(entries.keys))
    }

    /// `keys` in code point order.
    @inlinable package static func sortedKeys(_ keys: [String]) -> [String] {
        var keys = keys
        sortByCodePoint(&keys) { $0 }
        return keys
    }

    /// Sorts `items` by the code point order of `key(item)`.
    ///
    /// Sorts the keys' first 16 UTF-8 bytes, as two big-endian integers, and compares whole
    /// keys (``codePointPrecedes(_:_:)``) only where those are equal: UTF-8 byte order is code
    /// point order, and most keys differ in their first 16 bytes. Comparing `String`s in the
    /// sort itself cost four times as much (retains, releases and the comparison's checks for
    /// every pair). From ``radixSortThreshold`` items on, the integers are sorted by their bytes
    /// (``radixSort(_:)``) rather than compared: a fifth of the time at 10,000 keys.
    @inlinable package static func sortByCodePoint<Item>(_ items: inout [Item], key: (Item) -> String) {
        guard items.count > 1 else { return }
        let original = items
        var prefixes: [PrefixedIndex] = []
        prefixes.reserveCapacity(original.count)
        for index in original.indices {
            let (high, low) = utf8Prefix(key(original[index]))
            prefixes.append(PrefixedIndex(high: high, low: low, index: index))
        }
        sortPrefixed(&prefixes) { codePointPrecedes(key(original[$0]), key(original[$1])) }
        for position in prefixes.indices {
            items[position] = original[prefixes[position].index]
        }
    }

    /// Sorts `prefixes` — each item's first 16 UTF-8 bytes (``utf8Prefix(_:)``) and its index —
    /// into the code point order of the items' keys: by the prefixes, then, among equal ones, by
    /// `wholeKeyPrecedes` of their indices. What ``sortByCodePoint(_:key:)`` does, for a caller
    /// that has the prefixes without an array of its keys (a table sorting its slots).
    @inlinable package static func sortPrefixed(_ prefixes: inout [PrefixedIndex], wholeKeyPrecedes: (Int, Int) -> Bool) {
        guard prefixes.count > 1 else { return }
        if prefixes.count < radixSortThreshold {
            prefixes.sort { a, b in
                if a.high != b.high { return a.high < b.high }
                if a.low != b.low { return a.low < b.low }
                return wholeKeyPrecedes(a.index, b.index)
            }
            return
        }
        radixSort(&prefixes)
        // Runs of equal prefixes (keys alike in their first 16 bytes): by their whole keys.
        var start = 0
        while start < prefixes.count {
            var end = start + 1
            while end < prefixes.count, prefixes[end].high == prefixes[start].high, prefixes[end].low == prefixes[start].low { end += 1 }
            if end - start > 1 { prefixes[start..<end].sort { wholeKeyPrecedes($0.index, $1.index) } }
            start = end
        }
    }

    /// An item's place in ``sortByCodePoint(_:key:)``: its key's first 16 bytes and its index.
    @usableFromInline package struct PrefixedIndex {
        @usableFromInline var high: UInt64
        @usableFromInline var low: UInt64
        /// The item's index (or, for a table, its slot).
        @usableFromInline package var index: Int

        @inlinable package init(high: UInt64, low: UInt64, index: Int) {
            self.high = high
            self.low = low
            self.index = index
        }

        /// Byte `position` of the 16 (0: the last, the least significant of `low`).
        @inlinable func byte(_ position: Int) -> Int {
            let word = position < 8 ? low : high
            return Int(truncatingIfNeeded: (word >> UInt64(8 * (position & 7))) & 0xFF)
        }
    }

    /// Below this many items, ``sortByCodePoint(_:key:)`` compares; from it on, it sorts by bytes.
    @usableFromInline static let radixSortThreshold = 256

    /// Sorts `items` by `high`, then `low` (stable: equal prefixes keep their order), a byte at a
    /// time from the least significant (LSD radix sort), skipping every byte that all items
    /// share (keys with a common start, or all shorter than 16 bytes, share many): a pass per
    /// byte that differs, each counting the byte's values, then moving every item once.
    @inlinable static func radixSort(_ items: inout [PrefixedIndex]) {
        guard let first = items.first else { return }
        // The bits in which some item differs from the first: the bytes that need a pass.
        var varyingHigh: UInt64 = 0
        var varyingLow: UInt64 = 0
        for item in items {
            varyingHigh |= item.high ^ first.high
            varyingLow |= item.low ^ first.low
        }
        var scratch = items
        var counts = [Int](repeating: 0, count: 256)
        for position in 0..<16 {
            let varying = position < 8 ? varyingLow : varyingHigh
            guard (varying >> UInt64(8 * (position & 7))) & 0xFF != 0 else { continue }
            items.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for digit in 0..<256 { counts[digit] = 0 }
                        for item in source { counts[item.byte(position)] += 1 }
                        var offset = 0
                        for digit in 0..<256 {
                            let digitCount = counts[digit]
                            counts[digit] = offset
                            offset += digitCount
                        }
                        for item in source {
                            let digit = item.byte(position)
                            target[counts[digit]] = item
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&items, &scratch)
        }
    }

    /// The first 16 UTF-8 bytes of `text` as two big-endian integers (zeros past its end): the
    /// integers compare as the bytes do.
    @inlinable package static func utf8Prefix(_ text: String) -> (high: UInt64, low: UInt64) {
        withUTF8(of: text, prefixWords)
    }

    /// Calls `body` with `text`'s UTF-8 where it lies (a small string's on the stack), with no
    /// copy of the string; a string without contiguous UTF-8 (a bridged one) is made native
    /// first.
    @inlinable static func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    /// ``utf8Prefix(_:)`` of the bytes `utf8`: two loads, byte-swapped so that the first byte is
    /// the most significant.
    @inlinable static func prefixWords(_ utf8: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64) {
        let raw = UnsafeRawBufferPointer(utf8)
        var words: (UInt64, UInt64) = (0, 0)
        if raw.count >= 16 {
            words = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        } else {
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: raw) }
        }
        return (UInt64(bigEndian: words.0), UInt64(bigEndian: words.1))
    }

    /// Code point order by comparing UTF-8 bytes with `memcmp`: ten times faster than
    /// `utf8.lexicographicallyPrecedes`, and unlike `String.<` it never reorders canonically
    /// equivalent text.
    @inlinable package static func codePointPrecedes(_ left: String, _ right: String) -> Bool {
        var left = left
        var right = right
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let common = min(a.count, b.count)
                if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
                    let order = memcmp(pa, pb, common)
                    if order != 0 { return order < 0 }
                }
                return a.count < b.count
            }
        }
    }

    /// The start of a member of an object at `indent`: its line break and indent, the key, `:`.
    @inlinable package static func writeMemberKey(_ key: String, into output: inout [UInt8], pretty: Bool, indent: Int) {
        newline(&output, pretty: pretty, indent: indent + 1)
        writeString(key, into: &output)
        output.append(UInt8(ascii: ":"))
        if pretty { output.append(UInt8(ascii: " ")) }
    }

    @inlinable package static func writeTag(_ tag: String, _ payload: String, into output: inout [UInt8], pretty: Bool, indent: Int) {
        output.append(UInt8(ascii: "{"))
        writeString(tag, into: &output)
        output.append(UInt8(ascii: ":"))
        if pretty { output.append(UInt8(ascii: " ")) }
        writeString(payload, into: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// Swift's shortest round-trip form, which always has a `.` or an `e` for finite doubles
    /// (`1.0`, `1e-05`, `1e+300`): a reader sees a double, never an integer.
    @inlinable package static func formatDouble(_ number: Double) -> String {
        number.description
    }

    @inlinable package static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        withUTF8(of: text) { appendEscaped($0, into: &output) }
        output.append(UInt8(ascii: "\""))
    }

    /// The bytes of a string's JSON text between its quotes: `utf8`, escaped where JSON needs.
    @inlinable static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        // Nearly every key and string has nothing to escape: one append, after a check of eight
        // bytes at a time.
        guard needsEscaping(utf8) else { return output.append(contentsOf: utf8) }
        var runStart = 0
        // An index loop, not `enumerated()`: unoptimized builds (the tests') spent a minute
        // in the generic iterator on a 100 MiB value.
        for position in 0..<utf8.count {
            let byte = utf8[position]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
            runStart = position + 1
            switch byte {
            case 0x22: append("\\\"", to: &output)
            case 0x5C: append("\\\\", to: &output)
            case 0x0A: append("\\n", to: &output)
            case 0x0D: append("\\r", to: &output)
            case 0x09: append("\\t", to: &output)
            case 0x08: append("\\b", to: &output)
            case 0x0C: append("\\f", to: &output)
            default:
                let hex = String(byte, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex, to: &output)
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }

    /// Whether some byte of `utf8` is a control character, `"` or a backslash (which JSON escapes).
    @inlinable static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(utf8)
        var index = 0
        while index + 8 <= raw.count {
            if wordNeedsEscaping(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
            index += 8
        }
        while index < raw.count {
            let byte = raw[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return true }
            index += 1
        }
        return false
    }

    /// Whether one of the eight bytes of `word` is below 0x20, 0x22 or 0x5C. Exact: the usual
    /// word-at-a-time tests ("has a zero byte", "has a byte less than n") flag a byte only
    /// when some byte of the word really is one (a borrow starts only at such a byte).
    @inlinable static func wordNeedsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote & highBits
        let isBackslash = (backslash &- ones) & ~backslash & highBits
        return control | isQuote | isBackslash != 0
    }

    /// Decimal digits without a temporary `String`.
    @inlinable package static func appendInteger(_ number: Int, to output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // Room for 20 digits, filled from the end, on the stack; appended as typed bytes
        // (appending a slice of raw bytes took the generic path, three times the digits' cost).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits.initializeElement(at: start, to: UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    @inlinable package static func newline(_ output: inout [UInt8], pretty: Bool, indent: Int) {
        guard pretty else { return }
        output.append(0x0A)
        for _ in 0..<(indent * 2) { output.append(0x20) }
    }

    @inlinable package static func append(_ text: String, to output: inout [UInt8]) {
        output.append(contentsOf: text.utf8)
    }
}
