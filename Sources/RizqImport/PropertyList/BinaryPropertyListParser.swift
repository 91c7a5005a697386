#if Secrets
import Foundation
import RizqJSON
import RizqPrefs

/// Reads the binary property list format, `bplist00`: what macOS and iOS keep in
/// `Library/Preferences/<id>.plist`.
///
/// The file is a header, the objects, a table of their offsets and a 32-byte trailer that says
/// how wide offsets and references are, how many objects there are, which is the top one, and
/// where the table starts. Containers refer to other objects by index, so one object may be
/// shared (writers share equal strings and numbers) and a hostile file may make a container
/// contain itself or share containers so that the tree it stands for is enormous: both are
/// refused, as is nesting deeper than ``JSONReader/maximumDepth``. Every offset, count and
/// reference is checked against the file before it is used.
///
/// Values are read exactly: 1-, 2-, 4- and 8-byte integers and 16-byte ones up to `UInt64.max`,
/// 4- and 8-byte reals, dates (seconds since 2001-01-01), data, ASCII and UTF-16 strings. A
/// UTF-16 string with half a surrogate pair is not replaced: it becomes
/// ``PropertyListNode/unsupported(what:)`` naming the problem, as do UIDs, sets and markers that
/// preferences never hold.
struct BinaryPropertyListParser {
    /// More values than this, once shared objects are counted each time they are used, is a
    /// hostile file (a real preferences file holds thousands at most).
    static let maximumExpandedValues = 10_000_000

    static let magic: [UInt8] = Array("bplist".utf8)

    private let bytes: [UInt8]
    private let source: String?
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var tableOffset = 0
    /// Where objects may lie: between the header and the trailer.
    private var objectsEnd = 0
    private var parsed: [(node: PropertyListNode, values: Int)?] = []
    private var inProgress: [Bool] = []
    private(set) var warnings: [String] = []

    /// The top object of `bytes` (which start with `bplist`), and what was odd about it.
    static func parse(_ bytes: [UInt8], source: String?) throws(ImportError) -> (root: PropertyListNode, warnings: [String]) {
        var parser = BinaryPropertyListParser(bytes: bytes, source: source)
        let top = try parser.readTrailer()
        let root = try parser.object(top, depth: 0, path: "")
        return (root.node, parser.warnings)
    }

    private init(bytes: [UInt8], source: String?) {
        self.bytes = bytes
        self.source = source
    }

    // MARK: Trailer

    private mutating func readTrailer() throws(ImportError) -> Int {
        guard bytes.count >= 8 else {
            throw error(.truncated, at: bytes.count, "it is \(bytes.count) bytes, too short to hold even the header")
        }
        let version = String(decoding: bytes[6..<8], as: UTF8.self)
        guard version == "00" else {
            throw error(.unsupported, at: 6, "it is a binary property list of version '\(version)'; this reader reads version 00, the one preferences files use")
        }
        guard bytes.count >= 8 + 32 + 2 else {
            throw error(.truncated, at: bytes.count, "it is \(bytes.count) bytes, too short to hold a header, one object and the 32-byte trailer")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = readUnsigned(at: trailer + 8, size: 8)
        let top = readUnsigned(at: trailer + 16, size: 8)
        let table = readUnsigned(at: trailer + 24, size: 8)
        func damaged(_ detail: String) -> ImportError {
            error(.truncated, at: trailer, "its last 32 bytes are not the trailer of this file (\(detail))")
        }
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw damaged("offsets of \(offsetSize) bytes and references of \(referenceSize) bytes")
        }
        guard count >= 1, count <= UInt64(trailer) else { throw damaged("it claims \(count) objects") }
        guard top < count else { throw damaged("its top object \(top) is not one of its \(count) objects") }
        guard table >= 9, table < UInt64(trailer), (UInt64(trailer) - table) / UInt64(offsetSize) >= count else {
            throw damaged("its offset table at byte \(table) does not fit between the header and the trailer")
        }
        objectCount = Int(count)
        tableOffset = Int(table)
        objectsEnd = tableOffset
        parsed = Array(repeating: nil, count: objectCount)
        inProgress = Array(repeating: false, count: objectCount)
        return Int(top)
    }

    private func offset(ofObject index: Int) throws(ImportError) -> Int {
        let entry = tableOffset + index * offsetSize
        let offset = readUnsigned(at: entry, size: offsetSize)
        guard offset >= 8, offset < UInt64(objectsEnd) else {
            throw error(.malformed, at: entry, "object \(index) is said to start at byte \(offset), outside the objects (bytes 8 to \(objectsEnd))")
        }
        return Int(offset)
    }

    // MARK: Objects

    private mutating func object(_ index: Int, depth: Int, path: String) throws(ImportError) -> (node: PropertyListNode, values: Int) {
        if let done = parsed[index] { return done }
        guard !inProgress[index] else {
            throw error(.malformed, at: try offset(ofObject: index), "object \(index) (at \(display(path))) contains itself")
        }
        guard depth <= JSONReader.maximumDepth else {
            throw error(.malformed, at: try offset(ofObject: index), "nesting deeper than \(JSONReader.maximumDepth) levels")
        }
        inProgress[index] = true
        let result = try read(index, depth: depth, path: path)
        inProgress[index] = false
        parsed[index] = result
        return result
    }

    private mutating func read(_ index: Int, depth: Int, path: String) throws(ImportError) -> (node: PropertyListNode, values: Int) {
        let start = try offset(ofObject: index)
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return (.bool(false), 1)
            case 0x09: return (.bool(true), 1)
            case 0x00: return (.unsupported(what: "a null marker, which no property list value stands for"), 1)
            case 0x0C, 0x0D: return (.unsupported(what: "a URL object, which preferences do not hold"), 1)
            case 0x0E: return (.unsupported(what: "a UUID object, which preferences do not hold"), 1)
            default: return (.unsupported(what: "an object of unknown type 0x\(hex(marker))"), 1)
            }
        case 0x1:
            return (try integer(at: start, info: info), 1)
        case 0x2:
            if info == 2 { return (.real(Double(Float(bitPattern: UInt32(try unsigned(at: start + 1, size: 4))))), 1) }
            if info == 3 { return (.real(Double(bitPattern: try unsigned(at: start + 1, size: 8))), 1) }
            throw error(.malformed, at: start, "a real number of \(1 << info) bytes (reals have 4 or 8)")
        case 0x3:
            guard info == 3 else { return (.unsupported(what: "an object of unknown type 0x\(hex(marker))"), 1) }
            let seconds = Double(bitPattern: try unsigned(at: start + 1, size: 8))
            guard seconds.isFinite else { return (.unsupported(what: "a date that is not a finite time (\(seconds))"), 1) }
            return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 1)
        case 0x4:
            let (length, first) = try count(at: start, info: info)
            try require(first, length, for: "data")
            return (.data(Data(bytes[first..<first + length])), 1)
        case 0x5, 0x6, 0x7:
            switch try string(at: start) {
            case .text(let text): return (.string(text), 1)
            case .stored(let stored): return (.undecodableString(stored), 1)
            }
        case 0x8:
            return (.unsupported(what: "a keyed-archiver UID (a reference inside an NSKeyedArchiver archive)"), 1)
        case 0xA:
            let (length, first) = try count(at: start, info: info)
            try require(first, length * referenceSize, for: "an array of \(length) references")
            var elements: [PropertyListNode] = []
            elements.reserveCapacity(length)
            var values = 1
            for position in 0..<length {
                let child = try object(try reference(at: first + position * referenceSize), depth: depth + 1, path: path + "/\(position)")
                elements.append(child.node)
                values = try add(values, child.values, at: start)
            }
            return (.array(elements), values)
        case 0xB, 0xC:
            return (.unsupported(what: "a set, which preferences do not hold"), 1)
        case 0xD:
            return try dictionary(at: start, info: info, depth: depth, path: path)
        default:
            return (.unsupported(what: "an object of unknown type 0x\(hex(marker))"), 1)
        }
    }

    private mutating func dictionary(at start: Int, info: Int, depth: Int, path: String) throws(ImportError) -> (node: PropertyListNode, values: Int) {
        let (length, first) = try count(at: start, info: info)
        try require(first, length * 2 * referenceSize, for: "a dictionary of \(length) keys")
        var members = PropertyListMembers()
        var values = 1
        for position in 0..<length {
            let keyIndex = try reference(at: first + position * referenceSize)
            let keyStart = try offset(ofObject: keyIndex)
            guard [0x5, 0x6, 0x7].contains(bytes[keyStart] >> 4) else {
                throw error(.malformed, at: keyStart, "a key of the dictionary at \(display(path)) is an object of type 0x\(hex(bytes[keyStart])), not a string")
            }
            let member: PropertyListNode.Member
            switch try string(at: keyStart) {
            case .text(let text): member = PropertyListNode.Member(key: text, value: .bool(false), undecodableKey: nil)
            case .stored(let stored): member = PropertyListNode.Member(key: stored.displayText, value: .bool(false), undecodableKey: stored)
            }
            let child = try object(try reference(at: first + (length + position) * referenceSize), depth: depth + 1, path: path + "/" + member.key)
            values = try add(values, child.values, at: start)
            members.add(PropertyListNode.Member(key: member.key, value: child.node, undecodableKey: member.undecodableKey))
        }
        warnings += members.repeatWarnings(at: path)
        return (.dictionary(members.members), values)
    }

    // MARK: Scalars

    private func integer(at start: Int, info: Int) throws(ImportError) -> PropertyListNode {
        switch info {
        case 0, 1, 2:
            return .integer(Int64(try unsigned(at: start + 1, size: 1 << info)))
        case 3:
            return .integer(Int64(bitPattern: try unsigned(at: start + 1, size: 8)))
        case 4:
            // 128 bits, big-endian: writers use them for values above Int64.max.
            let high = try unsigned(at: start + 1, size: 8)
            let low = try unsigned(at: start + 9, size: 8)
            if high == 0 { return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low) }
            if high == UInt64.max, low > UInt64(Int64.max) { return .integer(Int64(bitPattern: low)) }
            return .unsupported(what: "an integer wider than 64 bits")
        default:
            throw error(.malformed, at: start, "an integer of \(1 << info) bytes (integers have 1, 2, 4, 8 or 16)")
        }
    }

    /// A string as read: text, or the stored string when it is not valid Unicode.
    private enum StringObject {
        case text(String)
        case stored(StoredString)
    }

    /// A string object (ASCII, UTF-16BE or UTF-8). UTF-16 that is not valid Unicode is kept as
    /// its code units (little-endian, as ``StoredString`` holds UTF-16).
    private func string(at start: Int) throws(ImportError) -> StringObject {
        let marker = bytes[start]
        let (length, first) = try count(at: start, info: Int(marker & 0x0F))
        switch marker >> 4 {
        case 0x5:
            try require(first, length, for: "an ASCII string")
            let slice = bytes[first..<first + length]
            if let bad = slice.firstIndex(where: { $0 >= 0x80 }) {
                return .stored(StoredString(undecodable: Array(slice), problem: "byte 0x\(hex(bytes[bad])) at \(bad - first) of a string marked ASCII"))
            }
            return .text(String(decoding: slice, as: UTF8.self))
        case 0x6:
            try require(first, length * 2, for: "a UTF-16 string of \(length) units")
            var littleEndian: [UInt8] = []
            littleEndian.reserveCapacity(length * 2)
            for unit in 0..<length { littleEndian += [bytes[first + 2 * unit + 1], bytes[first + 2 * unit]] }
            let stored = StoredString(utf16LE: littleEndian)
            return stored.text.map(StringObject.text) ?? .stored(stored)
        default:
            try require(first, length, for: "a UTF-8 string")
            let stored = StoredString(utf8: Array(bytes[first..<first + length]))
            return stored.text.map(StringObject.text) ?? .stored(stored)
        }
    }

    // MARK: Counts, references and bounds

    /// The element count of the object at `start` (in its marker, or in the integer after it
    /// when the marker says 0xF), and where its contents begin.
    private func count(at start: Int, info: Int) throws(ImportError) -> (Int, Int) {
        guard info == 0x0F else { return (info, start + 1) }
        try require(start + 1, 1, for: "a length")
        let marker = bytes[start + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw error(.malformed, at: start + 1, "a length that is not a 1- to 8-byte integer (marker 0x\(hex(marker)))")
        }
        let size = 1 << Int(marker & 0x0F)
        let value = try unsigned(at: start + 2, size: size)
        guard value <= UInt64(objectsEnd) else {
            throw error(.malformed, at: start + 1, "a length of \(value), more than the file holds")
        }
        return (Int(value), start + 2 + size)
    }

    private func reference(at position: Int) throws(ImportError) -> Int {
        let index = readUnsigned(at: position, size: referenceSize)
        guard index < UInt64(objectCount) else {
            throw error(.malformed, at: position, "a reference to object \(index), but there are \(objectCount)")
        }
        return Int(index)
    }

    private func require(_ start: Int, _ length: Int, for what: String) throws(ImportError) {
        guard length >= 0, start <= objectsEnd, length <= objectsEnd - start else {
            throw error(.malformed, at: start, "\(what) runs past the objects, into the offset table or beyond the end")
        }
    }

    private func unsigned(at start: Int, size: Int) throws(ImportError) -> UInt64 {
        try require(start, size, for: "a \(size)-byte number")
        return readUnsigned(at: start, size: size)
    }

    /// Big-endian; the caller has checked the bounds.
    private func readUnsigned(at start: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<start + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private func add(_ values: Int, _ more: Int, at start: Int) throws(ImportError) -> Int {
        let total = values + more
        guard total <= Self.maximumExpandedValues else {
            throw error(.malformed, at: start, "its containers share objects so that it stands for more than \(Self.maximumExpandedValues) values; a preferences file holds far fewer")
        }
        return total
    }

    private func error(_ kind: ImportError.PropertyListProblem.Kind, at offset: Int, _ reason: String) -> ImportError {
        .dump(.propertyList(ImportError.PropertyListProblem(file: source, encoding: .binary, kind: kind, offset: offset, reason: reason)))
    }

    private func display(_ path: String) -> String {
        path.isEmpty ? "the top level" : path
    }

    private func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}
#endif
