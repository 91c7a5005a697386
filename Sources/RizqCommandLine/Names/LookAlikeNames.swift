#if CLI
import Foundation

/// Suite names that can pass for others on screen: a name holding hidden characters (see
/// ``DisplayText``), characters that look like ASCII letters, digits or punctuation (Cyrillic
/// `а`, Greek `ο`, fullwidth `ａ`, a one-dot leader for `.`), or a name that is not in Unicode
/// normal form C (an `é` written as `e` and a combining accent). Each is flagged with the name it
/// imitates — and, when such a suite exists, that it does.
///
/// The table covers the characters most used to imitate ASCII names (from Unicode's
/// confusables data), not all of them: a flag is a warning to look, and no flag is no proof.
package enum LookAlikeNames {
    /// One flagged name.
    package struct Warning: Equatable {
        /// The name as stored.
        package var name: String
        /// Why it is flagged, for the user: what it holds and what it looks like.
        package var reason: String
    }

    /// Characters that look like an ASCII one, with it.
    static let confusables: [Unicode.Scalar: Character] = {
        var table: [Unicode.Scalar: Character] = [:]
        func add(_ ascii: Character, _ scalars: [UInt32]) {
            for value in scalars { if let scalar = Unicode.Scalar(value) { table[scalar] = ascii } }
        }
        // Cyrillic
        add("a", [0x0430]); add("c", [0x0441]); add("d", [0x0501]); add("e", [0x0435]); add("h", [0x04BB]); add("i", [0x0456])
        add("j", [0x0458]); add("o", [0x043E]); add("p", [0x0440]); add("q", [0x051B]); add("s", [0x0455]); add("w", [0x051D])
        add("x", [0x0445]); add("y", [0x0443]); add("A", [0x0410]); add("B", [0x0412]); add("C", [0x0421]); add("E", [0x0415])
        add("H", [0x041D]); add("I", [0x0406]); add("J", [0x0408]); add("K", [0x041A]); add("M", [0x041C]); add("O", [0x041E])
        add("P", [0x0420]); add("S", [0x0405]); add("T", [0x0422]); add("X", [0x0425]); add("Y", [0x04AE])
        // Greek
        add("a", [0x03B1]); add("i", [0x03B9]); add("o", [0x03BF]); add("p", [0x03C1]); add("u", [0x03C5]); add("v", [0x03BD])
        add("A", [0x0391]); add("B", [0x0392]); add("E", [0x0395]); add("H", [0x0397]); add("I", [0x0399]); add("K", [0x039A])
        add("M", [0x039C]); add("N", [0x039D]); add("O", [0x039F]); add("P", [0x03A1]); add("T", [0x03A4]); add("X", [0x03A7])
        add("Y", [0x03A5]); add("Z", [0x0396])
        // Latin look-alikes and digits
        add("i", [0x0131, 0x2170]); add("l", [0x04CF, 0x2113, 0x217C]); add("0", [0x2070]); add("1", [0x00B9])
        // Punctuation used in reverse-DNS names
        add(".", [0x2024, 0x3002, 0xFF0E, 0xFF61, 0x00B7, 0x0701, 0x0702]); add("-", [0x2010, 0x2011, 0x2012, 0x2013, 0x2212, 0xFE63, 0xFF0D])
        add("_", [0xFF3F]); add("/", [0x2215, 0x2044])
        // Fullwidth ASCII
        for value in UInt32(0xFF01)...0xFF5E {
            if let wide = Unicode.Scalar(value), let ascii = Unicode.Scalar(value - 0xFF01 + 0x21) { table[wide] = Character(ascii) }
        }
        return table
    }()

    /// The ASCII name `name` imitates (its look-alike characters replaced), or `nil` when it has none.
    static func skeleton(of name: String) -> String? {
        var changed = false
        var result = ""
        for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars {
            if let ascii = confusables[scalar] {
                result.append(ascii)
                changed = true
            } else if !DisplayText.isHidden(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                changed = true
            }
        }
        return changed ? result : nil
    }

    /// The warnings for `names` (each suite's name, as stored), against each other.
    package static func warnings(for names: [String]) -> [Warning] {
        let existing = Set(names.map { Array($0.unicodeScalars) })
        var warnings: [Warning] = []
        var seen = Set<[Unicode.Scalar]>()
        for name in names where seen.insert(Array(name.unicodeScalars)).inserted {
            var causes: [String] = []
            let hidden = name.unicodeScalars.filter(DisplayText.isHidden)
            if !hidden.isEmpty {
                causes.append("it holds invisible or direction-changing characters (" + hidden.map(codePoint).joined(separator: ", ") + ")")
            }
            let lookAlikes = name.unicodeScalars.filter { confusables[$0] != nil }
            if !lookAlikes.isEmpty {
                causes.append("it holds characters that look like ASCII ones (" + lookAlikes.map { "\(codePoint($0)) looks like '\(confusables[$0] ?? "?")'" }.joined(separator: ", ") + ")")
            }
            let normal = name.precomposedStringWithCanonicalMapping
            if Array(normal.unicodeScalars) != Array(name.unicodeScalars) {
                causes.append("it is not in Unicode normal form C: it shows as '\(DisplayText.escaped(normal))' but is another file name")
            }
            guard !causes.isEmpty else { continue }
            var reason = causes.joined(separator: "; ")
            let target = skeleton(of: name) ?? normal
            if target != name, existing.contains(Array(target.unicodeScalars)) {
                reason += "; it imitates the suite '\(DisplayText.escaped(target))', which exists: check which one your apps use"
            } else if target != name {
                reason += "; it looks like '\(DisplayText.escaped(target))'"
            }
            warnings.append(Warning(name: name, reason: reason))
        }
        return warnings
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        "U+" + String(format: "%04X", scalar.value)
    }
}
#endif
