/// Moving past a value without building it, at any depth: what a salvaging read uses to leave
/// out a member nested deeper than ``JSONReader/maximumDepth`` and go on with the next one.
extension JSONReader {
    /// Moves past the value that starts at `index` — an object or an array nested as deep as it
    /// likes — with a loop and a stack of the brackets still open, never recursion, so that no
    /// depth can exhaust the stack. What it checks: every string and scalar as the reader
    /// scans them (escapes, UTF-8, numbers, the three words), and that each bracket closes the
    /// one opened last; not where commas and colons stand between them. A value that breaks
    /// those rules fails as the reader fails.
    @inlinable package mutating func skipValue() throws(Failure) {
        var open: [UInt8] = []
        repeat {
            skipWhitespace()
            guard index < bytes.count else { throw fail(.truncated(open.last == UInt8(ascii: "}") ? .object : open.isEmpty ? .value : .array)) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                open.append(UInt8(ascii: "}"))
                index += 1
            case UInt8(ascii: "["):
                open.append(UInt8(ascii: "]"))
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open.last == byte else {
                    if open.last == UInt8(ascii: "}") { throw fail(.missingCommaOrBrace(found: byte)) }
                    throw fail(.missingCommaOrBracket(found: byte))
                }
                open.removeLast()
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard !open.isEmpty else { throw fail(.notAValue(byte)) }
                index += 1
            case UInt8(ascii: "\""):
                _ = try scanStringKeepingASCII()
            case UInt8(ascii: "t"):
                try scanWord("true")
            case UInt8(ascii: "f"):
                try scanWord("false")
            case UInt8(ascii: "n"):
                try scanWord("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try scanNumber()
            default:
                throw fail(.notAValue(byte))
            }
        } while !open.isEmpty
    }

    /// Reads an object's members like ``readMembers(_:_:)``, except that a member whose value
    /// nests deeper than ``maximumDepth`` is moved past (``skipValue()``) and handed to
    /// `skipped` (its key) instead of failing the whole text.
    @inlinable package mutating func readMembersSkippingTooDeep<Builder: JSONTreeBuilder>(
        _: Builder.Type, _ add: (String, Int, Builder.Value) -> Void, skipped: (String) -> Void
    ) throws(Failure) -> Range<Int> {
        let start = index
        guard try openObject() else { return start..<index }
        repeat {
            try expectKey()
            let keyOffset = index
            let key = try scanString()
            try expectColon()
            let valueStart = index
            let depthBefore = depth
            do {
                add(key, keyOffset, try readValue(Builder.self))
            } catch where error.problem == .tooDeep {
                index = valueStart
                depth = depthBefore
                try skipValue()
                skipped(key)
            }
        } while try nextMember()
        return start..<index
    }
}
