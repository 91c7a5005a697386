#if Secrets
/// Reads the few GVariant types of libsecret's file keyring out of bytes nobody vouches for: the
/// counterpart of ``GVariantWriter``, strict where GLib is lenient.
///
/// A value is a range of one buffer (`bytes[range]`); positions inside a container are counted
/// from its start, which the format aligns to the container's own alignment. Every framing
/// offset, size and count is checked against the container before it is used: a member that
/// would run outside it, offsets that go backwards, an offset table that is not whole offsets,
/// a string without its NUL, more elements than ``GVariantReader/elements(_:alignment:maximum:field:)``
/// is told to accept — each is a ``FileKeyringFormatError`` naming the part, never a trap and
/// never a default value (where GLib would hand back an empty one).
struct GVariantReader {
    /// The shape of one struct member: its alignment, and its size when the type is fixed-size.
    struct Shape {
        /// The type's alignment (1, 4 or 8).
        var alignment: Int
        /// The type's size (`u`: 4, `t`: 8), `nil` for a variable-size type.
        var fixedSize: Int?

        /// A variable-size member of alignment 1 (`s`, `ay`, an array or struct of such).
        static let variable = Shape(alignment: 1, fixedSize: nil)
        /// A `u`.
        static let uint32 = Shape(alignment: 4, fixedSize: 4)
        /// A `t`.
        static let uint64 = Shape(alignment: 8, fixedSize: 8)
    }

    /// The buffer every value is a range of.
    let bytes: [UInt8]

    /// The width of the framing offsets of a container of `size` bytes (GLib's rule).
    static func offsetWidth(containerSize size: Int) -> Int {
        switch size {
        case 0: return 0
        case ...0xFF: return 1
        case ...0xFFFF: return 2
        case ...0xFFFF_FFFF: return 4
        default: return 8
        }
    }

    /// The ranges of a struct's (or dict entry's) members, laid out as `shapes` say.
    func members(_ container: Range<Int>, _ shapes: [Shape], field: @autoclosure () -> String) throws(FileKeyringFormatError) -> [Range<Int>] {
        let size = container.count
        let width = Self.offsetWidth(containerSize: size)
        let framed = shapes.dropLast().filter { $0.fixedSize == nil }.count
        guard framed * width <= size else {
            throw FileKeyringFormatError(field: field(), problem: .truncated(needed: framed * width, available: size))
        }
        let limit = size - framed * width
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(shapes.count)
        var position = 0
        var framedIndex = 0
        for (index, shape) in shapes.enumerated() {
            position = Self.align(position, shape.alignment)
            let end: Int
            if let fixed = shape.fixedSize {
                end = position + fixed
            } else if index == shapes.count - 1 {
                end = limit
            } else {
                framedIndex += 1
                let stored = offset(at: container.lowerBound + size - framedIndex * width, width: width)
                guard stored <= UInt64(limit) else {
                    throw FileKeyringFormatError(field: field(), problem: .offsetOutOfRange(offset: stored, limit: limit))
                }
                end = Int(stored)
            }
            guard position <= end, end <= limit else {
                throw FileKeyringFormatError(field: field(), problem: .truncated(needed: max(end, position), available: limit))
            }
            ranges.append(container.lowerBound + position..<container.lowerBound + end)
            position = end
        }
        return ranges
    }

    /// The ranges of the elements of an array of variable-size elements of `alignment`, at
    /// most `maximum` of them.
    func elements(_ container: Range<Int>, alignment: Int = 1, maximum: Int, field: @autoclosure () -> String) throws(FileKeyringFormatError) -> [Range<Int>] {
        let size = container.count
        guard size > 0 else { return [] }
        let width = Self.offsetWidth(containerSize: size)
        guard width <= size else {
            throw FileKeyringFormatError(field: field(), problem: .truncated(needed: width, available: size))
        }
        // The last offset is the end of the last element: where the table of offsets starts.
        let tableStart = offset(at: container.upperBound - width, width: width)
        guard tableStart <= UInt64(size - width) else {
            throw FileKeyringFormatError(field: field(), problem: .offsetOutOfRange(offset: tableStart, limit: size - width))
        }
        let table = size - Int(tableStart)
        guard table % width == 0 else {
            throw FileKeyringFormatError(field: field(), problem: .offsetTableMisaligned(tableSize: table, width: width))
        }
        let count = table / width
        guard count <= maximum else {
            throw FileKeyringFormatError(field: field(), problem: .tooMany(count: count, maximum: maximum))
        }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        var position = 0
        for index in 0..<count {
            position = Self.align(position, alignment)
            let stored = offset(at: container.lowerBound + Int(tableStart) + index * width, width: width)
            guard stored <= tableStart, stored >= UInt64(position) else {
                throw FileKeyringFormatError(field: field() + ", element \(index)", problem: .offsetOutOfRange(offset: stored, limit: Int(tableStart)))
            }
            let end = Int(stored)
            ranges.append(container.lowerBound + position..<container.lowerBound + end)
            position = end
        }
        return ranges
    }

    /// An `s`: UTF-8, its last byte its only NUL.
    func string(_ range: Range<Int>, field: @autoclosure () -> String) throws(FileKeyringFormatError) -> String {
        guard let last = range.last, bytes[last] == 0 else { throw FileKeyringFormatError(field: field(), problem: .stringNotTerminated) }
        let content = bytes[range.lowerBound..<last]
        guard !content.contains(0) else { throw FileKeyringFormatError(field: field(), problem: .stringHasNul) }
        guard let text = String(validating: content, as: UTF8.self) else { throw FileKeyringFormatError(field: field(), problem: .stringNotUTF8) }
        return text
    }

    /// A `u` (its range is 4 bytes: ``members(_:_:field:)`` made it).
    func uint32(_ range: Range<Int>) -> UInt32 {
        UInt32(truncatingIfNeeded: offset(at: range.lowerBound, width: 4))
    }

    /// A `t` (its range is 8 bytes).
    func uint64(_ range: Range<Int>) -> UInt64 {
        offset(at: range.lowerBound, width: 8)
    }

    /// The little-endian unsigned integer of `width` bytes at `position` (checked in range by
    /// the caller).
    private func offset(at position: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in stride(from: width - 1, through: 0, by: -1) {
            value = value << 8 | UInt64(bytes[position + index])
        }
        return value
    }

    private static func align(_ position: Int, _ alignment: Int) -> Int {
        (position + alignment - 1) / alignment * alignment
    }
}
#endif
