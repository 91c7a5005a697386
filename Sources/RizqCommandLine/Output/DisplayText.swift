#if CLI
/// Text made safe to show on a terminal: the characters that can hide or rewrite what is shown
/// are written as escapes, so that a suite or key name holding them cannot spoof a line of
/// `suites`, `doctor` or an error.
///
/// Escaped: C0 and C1 control characters and DEL (a newline or an escape sequence), the
/// bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE turns `moc.ppa` into what reads as
/// `app.com`), and invisible characters (zero-width spaces and joiners, word joiners, the byte
/// order mark, soft hyphens, Hangul fillers, the tag characters U+E0000–U+E007F).
package enum DisplayText {
    /// Whether `scalar` is shown as an escape.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x3164, 0xFEFF, 0xFFA0: return true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F: return true  // zero-width, bidi, invisible operators
        case 0xFFF9...0xFFFB, 0xE0000...0xE007F: return true  // interlinear annotations, tags
        default: return false
        }
    }

    /// Whether `text` holds a character that ``escaped(_:)`` would escape.
    package static func hasHidden(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isHidden)
    }

    /// `text` with every hidden character written as `\u{XXXX}` (and a backslash before such an
    /// escape as `\\`, so that the escape is unambiguous).
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isHidden($0) || $0 == "\\" }) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if isHidden(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "u" {
                // A literal "\u" would read as an escape: double the backslash.
                result += "\\\\"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// JSON text with every hidden character inside its strings written as a `\uXXXX` escape: the
    /// same JSON to a parser (the escape decodes to the same character), and nothing hidden on a
    /// terminal. Safe on any JSON text: outside strings, JSON holds only ASCII structure.
    package static func escapedJSON(_ json: String) -> String {
        // Below DEL, JSON text holds control characters only as white space between tokens
        // (inside strings the writer escapes them already): those stay.
        let hidden = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && isHidden(scalar) }
        guard json.unicodeScalars.contains(where: hidden) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            guard hidden(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }
}
#endif
