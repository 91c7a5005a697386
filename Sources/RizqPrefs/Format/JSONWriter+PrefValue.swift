import Foundation
import RizqJSON

// Writes ``PrefValue``s as UTF-8 JSON, with RizqJSON's pieces: keys sorted by code point,
// `Date`, `Data` and non-finite doubles in their tagged forms (``TaggedValue``).
extension JSONWriter {
    /// The JSON text of `value` as bytes; `pretty` indents by two spaces, one member per line.
    package static func bytes(_ value: PrefValue, pretty: Bool = true) throws(Unrepresentable) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        try write(value, into: &output, pretty: pretty, indent: 0)
        if pretty { output.append(0x0A) }
        return output
    }

    /// The JSON text of `value` as a string.
    package static func string(_ value: PrefValue, pretty: Bool = false) throws(Unrepresentable) -> String {
        let output = try bytes(value, pretty: pretty)
        return String(decoding: pretty ? output.dropLast() : output[...], as: UTF8.self)
    }

    /// Appends the start of a top-level member of a suite file: the line break, the indent, the
    /// key and `: `.
    static func appendSuiteKey(_ key: String, to output: inout [UInt8]) {
        writeMemberKey(key, into: &output, pretty: true, indent: 0)
    }

    /// Appends the value of a top-level member of a suite file (after its key).
    static func appendSuiteValue(_ value: PrefValue, forKey key: String, to output: inout [UInt8]) throws(Unrepresentable) {
        try writeMemberValue(value, forKey: key, into: &output, pretty: true, indent: 0)
    }

    static func write(
        _ value: PrefValue, into output: inout [UInt8], pretty: Bool, indent: Int
    ) throws(Unrepresentable) {
        switch value {
        case .null: append("null", to: &output)
        case .bool(let flag): append(flag ? "true" : "false", to: &output)
        case .int(let number): appendInteger(number, to: &output)
        case .unsigned(let number): append(String(number), to: &output)
        case .double(let number):
            if number.isFinite {
                append(formatDouble(number), to: &output)
            } else {
                writeTag(TaggedValue.doubleTag, TaggedValue.encode(nonFinite: number), into: &output, pretty: pretty, indent: indent)
            }
        case .string(let text): writeString(text, into: &output)
        case .date(let date):
            guard let payload = TaggedValue.encode(date: date) else {
                throw Unrepresentable(path: "", value: "date \(date.timeIntervalSince1970) s from 1970")
            }
            writeTag(TaggedValue.dateTag, payload, into: &output, pretty: pretty, indent: indent)
        case .data(let data): writeTag(TaggedValue.dataTag, TaggedValue.encode(data: data), into: &output, pretty: pretty, indent: indent)
        case .array(let items):
            guard !items.isEmpty else { return append("[]", to: &output) }
            output.append(UInt8(ascii: "["))
            for (position, item) in items.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, pretty: pretty, indent: indent + 1)
                do {
                    try write(item, into: &output, pretty: pretty, indent: indent + 1)
                } catch {
                    throw error.inside("/\(position)")
                }
            }
            newline(&output, pretty: pretty, indent: indent)
            output.append(UInt8(ascii: "]"))
        case .dictionary(let entries):
            try writeObject(entries, into: &output, pretty: pretty, indent: indent)
        }
    }

    static func writeObject(
        _ entries: [String: PrefValue], into output: inout [UInt8], pretty: Bool, indent: Int
    ) throws(Unrepresentable) {
        guard !entries.isEmpty else { return append("{}", to: &output) }
        output.append(UInt8(ascii: "{"))
        for (position, key) in sortedKeys(entries).enumerated() {
            guard let value = entries[key] else { continue }
            if position > 0 { output.append(UInt8(ascii: ",")) }
            writeMemberKey(key, into: &output, pretty: pretty, indent: indent)
            try writeMemberValue(value, forKey: key, into: &output, pretty: pretty, indent: indent)
        }
        newline(&output, pretty: pretty, indent: indent)
        output.append(UInt8(ascii: "}"))
    }

    /// The value of a member of an object at `indent`, after its key.
    static func writeMemberValue(
        _ value: PrefValue, forKey key: String, into output: inout [UInt8], pretty: Bool, indent: Int
    ) throws(Unrepresentable) {
        do {
            try write(value, into: &output, pretty: pretty, indent: indent + 1)
        } catch {
            throw error.inside("/" + key)
        }
    }
}
