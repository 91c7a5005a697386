import Foundation
import RizqJSON

/// Builds ``PrefValue``s for ``JSONReader/parse(_:)``: the last of a repeated key wins,
/// integers keep their full 64-bit range, a number beyond a `Double`'s range reads as a string
/// holding its text, and `{"$date": …}` / `{"$data": …}` become `.date` /
/// `.data` (see ``TaggedValue``).
enum PrefValueBuilder: JSONTreeBuilder {
    static func string(_ text: String, range: Range<Int>) -> PrefValue { .string(text) }

    static func number(_ text: UnsafeBufferPointer<UInt8>, isInteger: Bool, range: Range<Int>) -> PrefValue? {
        if isInteger {
            if let value = parseInt(text) { return .int(value) }
            if text[0] != UInt8(ascii: "-"), let value = parseUnsigned(text) { return .unsigned(value) }
        }
        let written = String(decoding: text, as: UTF8.self)
        guard let value = Double(written) else { return nil }
        // Beyond a Double's range (1e400): the number's text, so that one such value neither
        // fails the whole file nor loses its digits.
        return value.isFinite ? .double(value) : .string(written)
    }

    static func shortInteger(_ value: Int, text: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> PrefValue { .int(value) }
    static func bool(_ value: Bool, range: Range<Int>) -> PrefValue { .bool(value) }
    static func null(range: Range<Int>) -> PrefValue { .null }

    static func makeMembers() -> [String: PrefValue] { [:] }

    static func add(key: String, keyOffset: Int, value: PrefValue, to members: inout [String: PrefValue]) -> Bool {
        members.updateValue(value, forKey: key) != nil
    }

    static func object(_ members: [String: PrefValue], range: Range<Int>) -> PrefValue {
        if members.count == 1, let (key, payload) = members.first, key.hasPrefix("$"),
            let tagged = TaggedValue.decode(key: key, payload: payload)
        {
            return tagged
        }
        return .dictionary(members)
    }

    static func makeElements() -> [PrefValue] { [] }
    static func append(_ value: PrefValue, to elements: inout [PrefValue]) { elements.append(value) }
    static func array(_ elements: [PrefValue], range: Range<Int>) -> PrefValue { .array(elements) }

    private static func parseInt(_ run: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let negative = run[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var value = 0
        while i < run.count {
            let digit = Int(run[i] - UInt8(ascii: "0"))
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
            i += 1
        }
        return value
    }

    private static func parseUnsigned(_ run: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for byte in run {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }
}
