import Foundation

/// The forms a secret could leak in: raw, hex (both cases), base64 (both alphabets) at each
/// alignment it could have inside a longer base64 text.
public func leakForms(of secret: String) -> [Data] {
    let bytes = Data(secret.utf8)
    let hexLower = bytes.map { String(format: "%02x", $0) }.joined()
    var forms = [bytes, Data(hexLower.utf8), Data(hexLower.uppercased().utf8)]
    for offset in 0..<3 {
        var text = (Data(repeating: 0, count: offset) + bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
        if offset > 0 { text = String(text.dropFirst(4)) }
        if (offset + bytes.count) % 3 != 0 { text = String(text.dropLast(4)) }
        forms.append(Data(text.utf8))
        forms.append(Data(text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").utf8))
    }
    return forms
}

/// Every file under `folder` whose bytes hold `secret` in any of its ``leakForms(of:)``.
public func filesLeaking(_ secret: String, under folder: String) -> [String] {
    let forms = leakForms(of: secret)
    return fileSnapshot(under: folder).filter { _, bytes in forms.contains { bytes.range(of: $0) != nil } }.keys.sorted()
}
