import Foundation
import RizqPrefs

/// Reads fuzzer bytes as a little program that builds a ``PrefValue``: the first byte of each
/// value picks its kind, the next bytes give its contents. Every kind a suite can hold comes up,
/// with doubles and dates from raw bit patterns (NaN, infinities, subnormals, the whole range of
/// `Date`), strings of arbitrary scalars, and nesting.
public struct FuzzedValue {
    private var bytes: [UInt8]
    private var index = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = Array(bytes)
    }

    public var isAtEnd: Bool { index >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// Up to `limit` raw bytes (their count from the input).
    public mutating func bytes(upTo limit: Int) -> [UInt8] {
        let count = limit < 256 ? Int(byte()) % (limit + 1) : (Int(byte()) << 8 | Int(byte())) % (limit + 1)
        return (0..<count).map { _ in byte() }
    }

    public mutating func string() -> String {
        let count = Int(byte() % 24)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            let raw = UInt32(byte()) | (byte() < 0x40 ? UInt32(byte()) << 8 | UInt32(byte() % 0x11) << 16 : 0)
            scalars.append(Unicode.Scalar(raw) ?? "?")
        }
        return String(scalars)
    }

    public mutating func value(depth: Int = 0) -> PrefValue {
        switch byte() % (depth > 4 ? 9 : 13) {
        case 0: return .bool(byte() & 1 == 1)
        case 1: return .int(Int(truncatingIfNeeded: uint64()))
        case 2: return .unsigned(uint64() | 1 << 63)
        case 3: return .double(Double(bitPattern: uint64()))
        case 4: return .double(Double(Int64(truncatingIfNeeded: uint64()) >> Int64(byte() % 64)) / Double(1 << (byte() % 40)))
        case 5: return .string(string())
        case 6: return .data(Data((0..<Int(byte() % 32)).map { _ in byte() }))
        case 7: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: uint64())))
        case 8:
            // Inside the range a suite holds, with a fraction as fine as a Double has.
            let seconds = Double(Int64(truncatingIfNeeded: uint64()) % 32_000_000_000_000)
            return .date(Date(timeIntervalSinceReferenceDate: seconds + Double(uint64() >> 11) / Double(1 << 53)))
        case 9: return .array((0..<Int(byte() % 5)).map { _ in value(depth: depth + 1) })
        case 10:
            var entries: [String: PrefValue] = [:]
            for _ in 0..<Int(byte() % 5) { entries[string()] = value(depth: depth + 1) }
            return .dictionary(entries)
        case 11:
            // The tagged forms' look-alikes: a one-key object under $date, $data or $double.
            let tag = ["$date", "$data", "$double", "$double"][Int(byte() % 4)]
            let payload: PrefValue = byte() & 1 == 0 ? .string(string()) : value(depth: depth + 1)
            return .dictionary([tag: byte() % 3 == 0 ? .string(["inf", "-inf", "nan"][Int(byte() % 3)]) : payload])
        default:
            // Deep nesting around the reader's limit (511 levels under a file's top level):
            // arrays and one-key dictionaries in turns the input picks, around a leaf.
            var nested = value(depth: 5)
            let levels = 500 + Int(byte() % 24)
            for level in 0..<levels {
                nested = byte() & 1 == 0 || level == 0 ? .array([nested]) : .dictionary(["d": nested])
            }
            return nested
        }
    }
}

/// Equality that also tells doubles and dates apart by their bits (`-0.0` from `0.0`), which
/// `PrefValue`'s `==` does not.
public func identical(_ left: PrefValue?, _ right: PrefValue?) -> Bool {
    switch (left, right) {
    case (nil, nil): return true
    // A NaN is stored as `{"$double": "nan"}`: any NaN reads back as `Double.nan`.
    case (.double(let a)?, .double(let b)?): return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    case (.date(let a)?, .date(let b)?): return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
    case (.array(let a)?, .array(let b)?): return a.count == b.count && zip(a, b).allSatisfy { identical($0, $1) }
    case (.dictionary(let a)?, .dictionary(let b)?): return a.count == b.count && a.allSatisfy { identical($0.value, b[$0.key]) }
    default: return left == right
    }
}
