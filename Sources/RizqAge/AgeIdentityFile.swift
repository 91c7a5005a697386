#if Secrets
import Foundation

/// An identity file as `age-keygen` writes it and `age -i` reads it: `#` comments, blank lines,
/// and one `AGE-SECRET-KEY-1…` per line.
///
/// Rendered and parsed as bytes, never as a `String` (whose storage cannot be zeroed): the
/// caller zeroes what it got (``Swift/Array/zeroize()``) once it is used.
package enum AgeIdentityFile {
    /// The largest identity file read: a few identities, not a data file.
    package static let maximumLength = 64 * 1024

    /// The text of a file holding `identity`, in `age-keygen`'s layout.
    package static func render(_ identity: AgeX25519Identity, created: Date = Date()) -> String {
        var bytes = renderBytes([identity], created: created)
        defer { bytes.zeroize() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of a file holding `identities`, each in `age-keygen`'s layout (`age -d -i`
    /// tries each); the caller zeroes them.
    package static func renderBytes(_ identities: [AgeX25519Identity], created: Date = Date()) -> [UInt8] {
        let stamp = ISO8601DateFormatter().string(from: created)
        var output: [UInt8] = []
        output.reserveCapacity(identities.count * 160)
        for identity in identities {
            output += Array("# created: \(stamp)\n# public key: \(identity.recipient.string)\n".utf8)
            var key = identity.encodedBytes
            output += key
            key.zeroize()
            output.append(0x0A)
        }
        return output
    }

    /// The identities in `text`. Errors name the line number, never its content.
    package static func parse(_ bytes: some Collection<UInt8>) throws(AgeError) -> [AgeX25519Identity] {
        guard bytes.count <= maximumLength else { throw .tooLarge(size: bytes.count, limit: maximumLength) }
        var text = Array(bytes)
        defer { text.zeroize() }
        guard isUTF8(text) else { throw .invalidIdentity("the identity file is not UTF-8 text") }
        var identities: [AgeX25519Identity] = []
        var lineNumber = 0
        var start = 0
        while start <= text.count {
            let end = text[start...].firstIndex(of: 0x0A) ?? text.count
            lineNumber += 1
            var line = Array(text[start..<end])
            defer { line.zeroize() }
            start = end + 1
            if line.last == 0x0D { line.removeLast() }
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            do {
                identities.append(try AgeX25519Identity(parsing: line))
            } catch {
                throw .invalidIdentity("line \(lineNumber) of the identity file is not an X25519 identity (\(error))")
            }
        }
        guard !identities.isEmpty else { throw .invalidIdentity("the identity file holds no AGE-SECRET-KEY-1… line") }
        return identities
    }

    /// Whether `bytes` are valid UTF-8, checked in place (no `String` is made of them).
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
#endif
