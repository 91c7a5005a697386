#if Secrets
import Foundation
import RizqJSON
import RizqPrefs

/// Reads the XML property list format: what Foundation's `UserDefaults` writes on Linux
/// (`$XDG_CONFIG_HOME/<suite>.plist`) and what `defaults export` writes on a Mac.
///
/// It reads the format as Core Foundation writes and reads it, and nothing more: UTF-8 text, an
/// optional XML declaration, comments, processing instructions and a `DOCTYPE` (skipped), a
/// `<plist>` root (or a bare value element), and the elements `dict`, `key`, `array`, `string`,
/// `integer` (decimal or `0x` hexadecimal, up to `UInt64.max`), `real` (`nan` and `inf` too,
/// which a suite cannot hold), `true`, `false`, `date` (`YYYY-MM-DDTHH:MM:SSZ`, Core Foundation's
/// only form) and `data` (base64). Text may use the five XML entities, character references and
/// `CDATA` sections; no other entity is expanded, so a `DOCTYPE` cannot make the file grow.
/// Character references to the two halves of a surrogate pair make one character, as Core
/// Foundation reads them; half a pair alone is not replaced: the string stays as stored
/// (``PropertyListNode/undecodableString(_:)``). Errors give the line and column, and never the
/// text of a value (it might be a token).
struct XMLPropertyListParser {
    private let bytes: [UInt8]
    private let source: String?
    private var index = 0
    private var depth = 0
    private(set) var warnings: [String] = []

    /// The top value of `bytes`, and what was odd about it.
    static func parse(_ bytes: [UInt8], source: String?) throws(ImportError) -> (root: PropertyListNode, warnings: [String]) {
        var parser = XMLPropertyListParser(bytes: bytes, source: source)
        let root = try parser.document()
        return (root, parser.warnings)
    }

    private init(bytes: [UInt8], source: String?) {
        self.bytes = bytes
        self.source = source
    }

    // MARK: Document

    private mutating func document() throws(ImportError) -> PropertyListNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw error(.malformed, at: bad, "byte 0x\(hex(bytes[bad])) is not UTF-8, the only encoding this reader reads")
        }
        try skipMisc()
        guard index < bytes.count else { throw error(.truncated, at: index, "the file ends before any element") }
        let tag = try openTag()
        let root: PropertyListNode
        if tag.name == "plist" {
            guard !tag.selfClosing else { throw error(.malformed, at: tag.start, "the <plist> element holds no value") }
            try skipMisc()
            guard !peek("</") else { throw error(.malformed, at: index, "the <plist> element holds no value") }
            root = try value(try openTag(), path: "")
            try skipMisc()
            try closeTag("plist", openedAt: tag.start)
        } else {
            root = try value(tag, path: "")
        }
        try skipMisc()
        guard index == bytes.count else {
            throw error(.malformed, at: index, "there is more after the end of the property list")
        }
        return root
    }

    /// White space, comments, processing instructions (the XML declaration among them) and a
    /// `DOCTYPE`, wherever XML allows them between elements.
    private mutating func skipMisc() throws(ImportError) {
        while true {
            skipWhiteSpace()
            if peek("<!--") {
                try skipComment()
            } else if peek("<?") {
                let start = index
                if peek("<?xml "), let declared = declaredEncoding(from: start) {
                    let name = declared.lowercased()
                    guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(name) else {
                        throw error(.unsupported, at: start, "it declares the encoding \(declared); this reader reads UTF-8 XML property lists")
                    }
                }
                try skip(past: "?>", what: "a processing instruction", opener: 2)
            } else if peek("<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    private func declaredEncoding(from start: Int) -> String? {
        guard let end = find("?>", from: start) else { return nil }
        let declaration = String(decoding: bytes[start..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private mutating func skipDoctype() throws(ImportError) {
        let start = index
        index += "<!DOCTYPE".utf8.count
        var inSubset = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let quote = bytes[index]
                index += 1
                while index < bytes.count, bytes[index] != quote { index += 1 }
            case UInt8(ascii: "["):
                inSubset = true
            case UInt8(ascii: "]"):
                inSubset = false
            case UInt8(ascii: ">") where !inSubset:
                index += 1
                return
            default:
                break
            }
            index += 1
        }
        throw error(.truncated, at: start, "the file ends inside the <!DOCTYPE> that starts here")
    }

    private mutating func skipComment() throws(ImportError) {
        try skip(past: "-->", what: "a comment", opener: 4)
    }

    // MARK: Elements

    private struct Tag {
        var name: String
        var start: Int
        var selfClosing: Bool
    }

    /// `<name attributes…>` or `<name …/>` at the cursor.
    private mutating func openTag() throws(ImportError) -> Tag {
        let start = index
        guard index + 1 < bytes.count else { throw error(.truncated, at: index, "the file ends where an element should start") }
        guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] != UInt8(ascii: "/") else {
            if bytes[index] == UInt8(ascii: "<") { throw error(.malformed, at: index, "expected an element, found the end tag \(describeEndTag(at: index))") }
            throw error(.malformed, at: index, "expected an element, found text")
        }
        index += 1
        let name = readName()
        guard !name.isEmpty else { throw error(.malformed, at: start, "'<' does not start an element name") }
        while true {
            skipWhiteSpace()
            guard index < bytes.count else { throw error(.truncated, at: start, "the file ends inside the <\(name)> tag that starts here") }
            switch bytes[index] {
            case UInt8(ascii: ">"):
                index += 1
                return Tag(name: name, start: start, selfClosing: false)
            case UInt8(ascii: "/"):
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                    throw error(.malformed, at: index, "'/' inside the <\(name)> tag is not followed by '>'")
                }
                index += 2
                return Tag(name: name, start: start, selfClosing: true)
            default:
                try skipAttribute(in: name)
            }
        }
    }

    private mutating func skipAttribute(in element: String) throws(ImportError) {
        let start = index
        guard !readName().isEmpty else { throw error(.malformed, at: start, "unexpected character in the <\(element)> tag") }
        skipWhiteSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            throw error(.malformed, at: index, "an attribute of <\(element)> has no value")
        }
        index += 1
        skipWhiteSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw error(.malformed, at: index, "an attribute value of <\(element)> is not quoted")
        }
        let quote = bytes[index]
        index += 1
        while index < bytes.count, bytes[index] != quote { index += 1 }
        guard index < bytes.count else { throw error(.truncated, at: start, "the file ends inside an attribute of <\(element)>") }
        index += 1
    }

    private mutating func closeTag(_ name: String, openedAt start: Int) throws(ImportError) {
        guard index < bytes.count else {
            throw error(.truncated, at: index, "the file ends inside the <\(name)> opened at \(SourcePosition(offset: start, in: bytes))")
        }
        let at = index
        guard peek("</") else {
            throw error(.malformed, at: at, "expected </\(name)>, found \(peek("<") ? "another element" : "text")")
        }
        index += 2
        let found = readName()
        skipWhiteSpace()
        guard found == name, index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            if index >= bytes.count { throw error(.truncated, at: at, "the file ends inside the end tag of <\(name)>") }
            throw error(.malformed, at: at, "expected </\(name)> (to close the <\(name)> at \(SourcePosition(offset: start, in: bytes))), found </\(found)>")
        }
        index += 1
    }

    /// The value of the element whose start tag was just read.
    private mutating func value(_ tag: Tag, path: String) throws(ImportError) -> PropertyListNode {
        switch tag.name {
        case "dict": return try nested(tag) { (parser: inout Self) throws(ImportError) in try parser.dictionary(tag, path: path) }
        case "array": return try nested(tag) { (parser: inout Self) throws(ImportError) in try parser.array(tag, path: path) }
        case "string":
            let text = try self.text(of: tag)
            return text.stored.map(PropertyListNode.undecodableString) ?? .string(text.value)
        case "integer": return try integer(tag)
        case "real": return try real(tag)
        case "true", "false":
            let text = try self.text(of: tag)
            guard text.value.allSatisfy(\.isWhitespace) else {
                throw error(.malformed, at: tag.start, "<\(tag.name)> holds text; write it as <\(tag.name)/>")
            }
            return .bool(tag.name == "true")
        case "date": return try date(tag)
        case "data": return try data(tag)
        case "key":
            throw error(.malformed, at: tag.start, "a <key> outside a <dict>")
        default:
            throw error(.malformed, at: tag.start, "<\(tag.name)> is not a property list element (dict, array, key, string, integer, real, true, false, date, data)")
        }
    }

    private mutating func nested(_ tag: Tag, _ read: (inout Self) throws(ImportError) -> PropertyListNode) throws(ImportError) -> PropertyListNode {
        depth += 1
        guard depth <= JSONReader.maximumDepth else {
            throw error(.malformed, at: tag.start, "nesting deeper than \(JSONReader.maximumDepth) levels")
        }
        let node = try read(&self)
        depth -= 1
        return node
    }

    private mutating func dictionary(_ tag: Tag, path: String) throws(ImportError) -> PropertyListNode {
        guard !tag.selfClosing else { return .dictionary([]) }
        var members = PropertyListMembers()
        while true {
            try skipMisc()
            if peek("</") { break }
            let keyTag = try openTag()
            guard keyTag.name == "key" else {
                throw error(.malformed, at: keyTag.start, "expected a <key> in the <dict> at \(display(path)), found <\(keyTag.name)>")
            }
            let key = try text(of: keyTag)
            try skipMisc()
            guard !peek("</") else {
                throw error(.malformed, at: index, "the <key> '\(key.value)' in the <dict> at \(display(path)) has no value after it")
            }
            let node = try value(try openTag(), path: path + "/" + key.value)
            members.add(PropertyListNode.Member(key: key.value, value: node, undecodableKey: key.stored))
        }
        try closeTag("dict", openedAt: tag.start)
        warnings += members.repeatWarnings(at: path)
        return .dictionary(members.members)
    }

    private mutating func array(_ tag: Tag, path: String) throws(ImportError) -> PropertyListNode {
        guard !tag.selfClosing else { return .array([]) }
        var elements: [PropertyListNode] = []
        while true {
            try skipMisc()
            if peek("</") { break }
            elements.append(try value(try openTag(), path: path + "/\(elements.count)"))
        }
        try closeTag("array", openedAt: tag.start)
        return .array(elements)
    }

    // MARK: Text

    /// The text inside `tag` up to its end tag, with entities, character references and CDATA
    /// sections resolved and comments left out. Character references to surrogates are joined
    /// as UTF-16 (a pair makes one character, as Core Foundation reads them); when one is left
    /// alone the text is not valid Unicode and comes back as stored (``StoredString``), with
    /// `value` its ``StoredString/displayText``.
    private mutating func text(of tag: Tag) throws(ImportError) -> (value: String, stored: StoredString?) {
        if tag.selfClosing { return ("", nil) }
        // Most text holds no reference, CDATA or comment: one slice up to the end tag.
        if let end = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }),
            bytes[end] == UInt8(ascii: "<"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "/")
        {
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end
            try closeTag(tag.name, openedAt: tag.start)
            return (text, nil)
        }
        var scalars = String.UnicodeScalarView()
        // Only once a surrogate is referred to: the text as UTF-16 code units.
        var units: [UInt16]?
        var runStart = index
        func append(_ text: Substring.UnicodeScalarView) {
            if units != nil { units? += String(String.UnicodeScalarView(text)).utf16 } else { scalars.append(contentsOf: text) }
        }
        func flush(_ end: Int) {
            if end > runStart { append(Substring(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars) }
        }
        while true {
            guard index < bytes.count else {
                throw error(.truncated, at: index, "the file ends inside the <\(tag.name)> opened at \(SourcePosition(offset: tag.start, in: bytes))")
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                flush(index)
                switch try characterReference() {
                case .scalar(let scalar):
                    append(Substring(String(scalar)).unicodeScalars)
                case .surrogate(let unit):
                    if units == nil { units = Array(String(scalars).utf16) }
                    units?.append(unit)
                }
                runStart = index
            } else if byte == UInt8(ascii: "<") {
                flush(index)
                runStart = index
                if peek("<![CDATA[") {
                    let start = index
                    index += 9
                    guard let end = find("]]>", from: index) else {
                        throw error(.truncated, at: start, "the file ends inside the CDATA section that starts here")
                    }
                    append(Substring(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars)
                    index = end + 3
                } else if peek("<!--") {
                    try skipComment()
                } else if peek("</") {
                    break
                } else {
                    throw error(.malformed, at: index, "<\(tag.name)> holds an element; it may hold only text")
                }
                runStart = index
            } else {
                index += 1
            }
        }
        try closeTag(tag.name, openedAt: tag.start)
        guard let units else { return (String(scalars), nil) }
        let stored = StoredString(utf16LE: units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] })
        return (stored.text ?? stored.displayText, stored.isText ? nil : stored)
    }

    private enum Reference {
        case scalar(Unicode.Scalar)
        /// Half of a UTF-16 surrogate pair, which XML text cannot hold by itself.
        case surrogate(UInt16)
    }

    /// `&name;` or `&#…;` at the cursor.
    private mutating func characterReference() throws(ImportError) -> Reference {
        let start = index
        guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw error(.malformed, at: start, "'&' does not start an entity such as &amp; (write a literal '&' as &amp;)")
        }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        switch name {
        case "lt": return .scalar("<")
        case "gt": return .scalar(">")
        case "amp": return .scalar("&")
        case "quot": return .scalar("\"")
        case "apos": return .scalar("'")
        default: break
        }
        guard name.hasPrefix("#") else {
            throw error(.malformed, at: start, "unknown entity &\(name); (property lists use only &lt; &gt; &amp; &quot; &apos; and character references)")
        }
        let digits = name.dropFirst()
        let number = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let number else { throw error(.malformed, at: start, "&\(name); is not a character reference") }
        if let scalar = Unicode.Scalar(number) { return .scalar(scalar) }
        guard number <= 0xFFFF else { throw error(.malformed, at: start, "&\(name); refers to no character (beyond U+10FFFF)") }
        return .surrogate(UInt16(number))
    }

    // MARK: Scalars

    private mutating func integer(_ tag: Tag) throws(ImportError) -> PropertyListNode {
        let text = try trimmedText(of: tag)
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }), let magnitude = UInt64(digits, radix: radix) else {
            throw error(.malformed, at: tag.start, text.isEmpty ? "an empty <integer>" : "<integer> holds \(text.count) character(s) that are not an integer from -2^63 to 2^64 − 1")
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw error(.malformed, at: tag.start, "<integer> holds a number below -2^63")
            }
            return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .unsignedInteger(magnitude)
    }

    private mutating func real(_ tag: Tag) throws(ImportError) -> PropertyListNode {
        let text = try trimmedText(of: tag)
        guard !text.isEmpty, let value = Double(text) else {
            throw error(.malformed, at: tag.start, text.isEmpty ? "an empty <real>" : "<real> holds \(text.count) character(s) that are not a number")
        }
        return .real(value)
    }

    /// Core Foundation's one date form, `YYYY-MM-DDTHH:MM:SSZ` (the year may have any number of
    /// digits and a '-'); fractional seconds, which other writers add, are read too.
    private mutating func date(_ tag: Tag) throws(ImportError) -> PropertyListNode {
        let text = try trimmedText(of: tag)
        guard let date = Self.parseDate(text) else {
            throw error(.malformed, at: tag.start, "<date> holds \(text.count) character(s) that are not a date of the form 2026-11-22T13:47:00Z")
        }
        return .date(date)
    }

    static func parseDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int?) -> Int64? {
            let start = index
            var value: Int64 = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, count.map({ index - start < $0 }) ?? (index - start < 9) {
                value = value * 10 + Int64(bytes[index] - 0x30)
                index += 1
            }
            guard index > start, count.map({ index - start == $0 }) ?? true else { return nil }
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        let negative = expect("-")
        guard let year = number(nil), expect("-"), let month = number(2), expect("-"), let day = number(2), expect("T"),
            let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        if expect(".") {
            let start = index
            var scale = 0.1
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard expect("Z"), index == bytes.count else { return nil }
        let days = ISO8601Micro.days(fromCivil: negative ? -year : year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private mutating func data(_ tag: Tag) throws(ImportError) -> PropertyListNode {
        let text = try self.text(of: tag).value
        let base64 = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: base64) else {
            throw error(.malformed, at: tag.start, "<data> is not base64")
        }
        return .data(data)
    }

    /// The text with XML white space (space, tab, line feed, carriage return) trimmed from its ends.
    private mutating func trimmedText(of tag: Tag) throws(ImportError) -> String {
        let text = try self.text(of: tag).value
        let utf8 = text.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        return first == utf8.startIndex && last == utf8.index(before: utf8.endIndex) ? text : String(Substring(utf8[first...last]))
    }

    // MARK: Scanning

    private mutating func skipWhiteSpace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            index += 1
        }
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isNameByte = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte >= 0x80
            guard isNameByte else { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func peek(_ text: String) -> Bool {
        bytes[index...].starts(with: text.utf8)
    }

    private func find(_ text: String, from start: Int) -> Int? {
        let needle = Array(text.utf8)
        guard let first = needle.first, start < bytes.count else { return nil }
        var position = start
        while position < bytes.count, let found = bytes[position...].firstIndex(of: first) {
            if bytes[found...].starts(with: needle) { return found }
            position = found + 1
        }
        return nil
    }

    /// Moves past the next `end`, looking from after the `opener` bytes at the cursor.
    private mutating func skip(past end: String, what: String, opener: Int) throws(ImportError) {
        guard let found = find(end, from: index + opener) else {
            throw error(.truncated, at: index, "the file ends inside \(what) that starts here")
        }
        index = found + end.utf8.count
    }

    private func describeEndTag(at offset: Int) -> String {
        let name = bytes[min(offset + 2, bytes.count)...].prefix { $0 != UInt8(ascii: ">") }.prefix(40)
        return "</" + String(decoding: name, as: UTF8.self) + ">"
    }

    private func error(_ kind: ImportError.PropertyListProblem.Kind, at offset: Int, _ reason: String) -> ImportError {
        .dump(.propertyList(ImportError.PropertyListProblem(file: source, encoding: .xml, kind: kind, offset: offset, position: SourcePosition(offset: offset, in: bytes), reason: reason)))
    }

    private func display(_ path: String) -> String {
        path.isEmpty ? "the top level" : path
    }

    private func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}
#endif
