import Foundation

/// An identity file as `age-keygen` writes it and `age -i` reads it: `#` comments, blank lines,
/// and one `AGE-SECRET-KEY-1…` per line.
package enum AgeIdentityFile {
    /// The largest identity file read: a few identities, not a data file.
    package static let maximumLength = 64 * 1024

    /// The text of a file holding `identity`, in `age-keygen`'s layout.
    package static func render(_ identity: AgeX25519Identity, created: Date = Date()) -> String {
        let stamp = ISO8601DateFormatter().string(from: created)
        return "# created: \(stamp)\n# public key: \(identity.recipient.string)\n\(identity.string)\n"
    }

    /// The identities in `text`. Errors name the line number, never its content.
    package static func parse(_ bytes: some Collection<UInt8>) throws(AgeError) -> [AgeX25519Identity] {
        guard bytes.count <= maximumLength else { throw .tooLarge(size: bytes.count, limit: maximumLength) }
        guard let text = String(bytes: Array(bytes), encoding: .utf8) else { throw .invalidIdentity("the identity file is not UTF-8 text") }
        var identities: [AgeX25519Identity] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                identities.append(try AgeX25519Identity(parsing: String(line)))
            } catch {
                throw .invalidIdentity("line \(index + 1) of the identity file is not an X25519 identity (\(error))")
            }
        }
        guard !identities.isEmpty else { throw .invalidIdentity("the identity file holds no AGE-SECRET-KEY-1… line") }
        return identities
    }
}
