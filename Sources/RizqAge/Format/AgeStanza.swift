#if Secrets
/// One recipient stanza of an age header: `-> TYPE ARG…` and a base64 body wrapped at 64
/// columns, ended by a shorter (possibly empty) line.
package struct AgeStanza: Sendable, Equatable {
    /// The first argument: `X25519`, `scrypt`, or another implementation's type.
    package var type: String
    /// The arguments after the type.
    package var arguments: [String]
    /// The decoded body.
    package var body: [UInt8]

    /// A stanza from its parts.
    package init(type: String, arguments: [String], body: [UInt8]) {
        self.type = type
        self.arguments = arguments
        self.body = body
    }

    /// Columns per body line; a full line carries 48 bytes.
    static let columnsPerLine = 64

    /// The stanza as it appears in a header.
    var encoded: [UInt8] {
        var output = Array("->".utf8)
        for argument in [type] + arguments {
            output.append(0x20)
            output += Array(argument.utf8)
        }
        output.append(0x0A)
        let text = Array(AgeBase64.encode(body).utf8)
        var start = 0
        // Full lines, then always one short line (empty when the text fills whole lines).
        while text.count - start >= Self.columnsPerLine {
            output += text[start..<(start + Self.columnsPerLine)]
            output.append(0x0A)
            start += Self.columnsPerLine
        }
        output += text[start...]
        output.append(0x0A)
        return output
    }
}
#endif
