#if Secrets
/// Serializes the few GVariant types of libsecret's file keyring (`y`, `u`, `t`, `s`, `ay`,
/// arrays of variable-size elements, structs and dict entries) in normal form, little-endian:
/// the bytes GLib's own serializer makes for the same value, which libsecret compares byte for
/// byte when it looks for the item a store replaces.
///
/// Each value is serialized on its own, as if it started at offset 0, and a container pads
/// before a member up to the member's alignment: a container starts at a multiple of its own
/// alignment, so offsets within it are aligned as they are within the outermost value.
///
/// The framing offsets of each container are as narrow as its size allows (1, 2, 4 or 8 bytes),
/// chosen per container as GLib chooses them. Structs whose members are all fixed-size (padded
/// at their end) are not among the types used, and not supported.
enum GVariantWriter {
    /// One member of a struct or dict entry.
    struct Member {
        /// The member's serialized bytes.
        var bytes: [UInt8]
        /// Its type's alignment (1, 4 or 8).
        var alignment: Int
        /// Whether its type has a fixed size (`y`, `u`, `t`): no framing offset records its end.
        var isFixedSize: Bool

        /// A variable-size member of alignment 1 (`s`, `ay`, an array or struct of such).
        static func variable(_ bytes: [UInt8]) -> Member { Member(bytes: bytes, alignment: 1, isFixedSize: false) }
        /// A `u`.
        static func uint32(_ value: UInt32) -> Member { Member(bytes: GVariantWriter.uint32(value), alignment: 4, isFixedSize: true) }
        /// A `t`.
        static func uint64(_ value: UInt64) -> Member { Member(bytes: GVariantWriter.uint64(value), alignment: 8, isFixedSize: true) }
    }

    /// An `s`: the UTF-8 bytes and a NUL (the caller has refused strings holding a NUL).
    static func string(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        bytes.append(0)
        return bytes
    }

    /// A `u`, little-endian.
    static func uint32(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A `t`, little-endian.
    static func uint64(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A struct or dict entry: the members in order, each after zero padding up to its
    /// alignment, then the ends of the variable-size members other than the last, in reverse
    /// order.
    static func structure(_ members: [Member]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(members.reduce(8) { $0 + $1.bytes.count + 8 })
        var ends: [Int] = []
        for (index, member) in members.enumerated() {
            pad(&bytes, to: member.alignment)
            bytes.append(contentsOf: member.bytes)
            if !member.isFixedSize, index != members.count - 1 { ends.append(bytes.count) }
        }
        let width = offsetWidth(bodySize: bytes.count, offsets: ends.count)
        for end in ends.reversed() { appendOffset(end, width: width, to: &bytes) }
        return bytes
    }

    /// An array of variable-size elements of `alignment`: the elements, each after padding up
    /// to it, then the end of each element in order. An empty array is no bytes at all.
    static func array(_ elements: [[UInt8]], alignment: Int = 1) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.reduce(0) { $0 + $1.count + 4 })
        var ends: [Int] = []
        ends.reserveCapacity(elements.count)
        for element in elements {
            pad(&bytes, to: alignment)
            bytes.append(contentsOf: element)
            ends.append(bytes.count)
        }
        let width = offsetWidth(bodySize: bytes.count, offsets: ends.count)
        for end in ends { appendOffset(end, width: width, to: &bytes) }
        return bytes
    }

    /// The narrowest offset width for a container of `bodySize` bytes before its `offsets`
    /// offsets: the smallest of 1, 2 and 4 bytes whose largest value still covers the whole
    /// container with its offsets, else 8 (GLib's `gvs_calculate_total_size`).
    static func offsetWidth(bodySize: Int, offsets: Int) -> Int {
        guard offsets > 0 else { return 0 }
        for (width, largest) in [(1, 0xFF), (2, 0xFFFF), (4, 0xFFFF_FFFF)] where bodySize + offsets * width <= largest {
            return width
        }
        return 8
    }

    private static func pad(_ bytes: inout [UInt8], to alignment: Int) {
        let remainder = bytes.count % alignment
        if remainder != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - remainder)) }
    }

    private static func appendOffset(_ offset: Int, width: Int, to bytes: inout [UInt8]) {
        var value = UInt64(offset)
        for _ in 0..<width {
            bytes.append(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }
}
#endif
