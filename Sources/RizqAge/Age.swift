#if Secrets
import Crypto
import Foundation

/// The age v1 file format (c2sp.org/age): X25519 and passphrase (scrypt) recipients, a header
/// MAC, and a ChaCha20-Poly1305 STREAM payload; every primitive from swift-crypto.
///
/// Files written here open with Debian's `age` tool, and files it writes (binary, not armored)
/// open here:
///
/// ```swift
/// let identity = AgeX25519Identity()
/// let file = try Age.encrypt(Data("hello".utf8), to: [identity.recipient])
/// let plaintext = try Age.decrypt(file, with: [identity])
/// ```
package enum Age {
    /// The largest file decrypted in one piece: bounds what a reader holds for a damaged or
    /// hostile file.
    package static let maximumFileSize = 512 << 20

    /// `plaintext` encrypted to `recipients`: a fresh file key wrapped for each, the header MAC,
    /// then the payload. A passphrase recipient must be the only one.
    package static func encrypt(_ plaintext: some DataProtocol, to recipients: [any AgeRecipient]) throws(AgeError) -> Data {
        try encrypt(to: recipients, plaintextCount: plaintext.count) { (sink: inout AgePlaintextSink) throws(AgeError) in
            try sink.append(contentsOf: plaintext)
        }
    }

    /// The plaintext that `write` gives the sink, piece by piece, encrypted to `recipients` as
    /// ``encrypt(_:to:)`` encrypts it — without ever holding it in one buffer: each 64 KiB chunk
    /// is sealed as soon as it is full and more follows. `plaintextCount` (the plaintext's size,
    /// or an estimate) sizes the file's buffer once.
    package static func encrypt(
        to recipients: [any AgeRecipient], plaintextCount: Int, _ write: (inout AgePlaintextSink) throws(AgeError) -> Void
    ) throws(AgeError) -> Data {
        guard !recipients.isEmpty else { throw .invalidRecipient("no recipient given") }
        if recipients.count > 1, recipients.contains(where: { $0 is AgeScryptRecipient }) { throw .scryptNotAlone }
        let fileKey = AgeRandom.fileKey()
        var stanzas: [AgeStanza] = []
        for recipient in recipients { stanzas.append(try recipient.wrap(fileKey: fileKey)) }
        var output = Data(AgeHeader.encode(stanzas: stanzas, fileKey: fileKey))
        let count = max(0, plaintextCount)
        output.reserveCapacity(output.count + count + (count / AgePayload.chunkSize + 1) * AgePayload.tagSize + AgePayload.nonceSize)
        var sink = AgePlaintextSink(fileKey: fileKey, output: consume output)
        do {
            try write(&sink)
            return try sink.finish()
        } catch {
            sink.discard()
            throw error
        }
    }

    /// The plaintext of `file`, opened by the first of `identities` that unwraps a stanza.
    /// Nothing is returned unless the whole file authenticates.
    package static func decrypt(_ file: Data, with identities: [any AgeIdentity]) throws(AgeError) -> Data {
        var plaintext = Data()
        try decrypt(file, with: identities) { (chunk: Data) throws(AgeError) in plaintext.append(chunk) }
        return plaintext
    }

    /// Decrypts `file`, handing each authenticated payload chunk to `chunk` as a streaming
    /// reader would release it (an error may follow chunks already handed over).
    package static func decrypt(_ file: Data, with identities: [any AgeIdentity], chunk: (Data) throws(AgeError) -> Void) throws(AgeError) {
        guard file.count <= maximumFileSize else { throw .tooLarge(size: file.count, limit: maximumFileSize) }
        try decrypt(file, header: try AgeHeader.parse(file), with: identities, chunk: chunk)
    }

    /// The plaintext of `file` whose header the caller has already parsed (`AgeHeader.parse`
    /// of the same bytes), so that a reader that looks at the header first (to report damage
    /// before asking for a key) parses it once.
    package static func decrypt(_ file: Data, header: AgeHeader, with identities: [any AgeIdentity]) throws(AgeError) -> Data {
        guard file.count <= maximumFileSize else { throw .tooLarge(size: file.count, limit: maximumFileSize) }
        var plaintext = Data()
        try decrypt(file, header: header, with: identities) { (chunk: Data) throws(AgeError) in plaintext.append(chunk) }
        return plaintext
    }

    private static func decrypt(_ file: Data, header: AgeHeader, with identities: [any AgeIdentity], chunk: (Data) throws(AgeError) -> Void) throws(AgeError) {
        let fileKey = try unwrapFileKey(header, identities: identities)
        guard header.isAuthentic(fileKey: fileKey) else { throw .headerMACMismatch }
        try AgePayload.open(file[(file.startIndex + header.length)...], fileKey: fileKey, chunk: chunk)
    }

    /// The file key, after the checks every reader must make whatever its identities: known
    /// stanza types well formed, and a passphrase stanza alone.
    static func unwrapFileKey(_ header: AgeHeader, identities: [any AgeIdentity]) throws(AgeError) -> SymmetricKey {
        guard !header.stanzas.isEmpty else { throw .malformedHeader("the header has no recipient stanza") }
        for stanza in header.stanzas { try stanza.validateKnownType() }
        let hasScrypt = header.stanzas.contains { $0.type == AgeScryptIdentity.stanzaType }
        if hasScrypt, header.stanzas.count > 1 { throw .scryptNotAlone }
        var triedPassphrase = false
        for identity in identities {
            for stanza in header.stanzas {
                if identity is AgeScryptIdentity, stanza.type == AgeScryptIdentity.stanzaType { triedPassphrase = true }
                if let fileKey = try identity.unwrap(stanza) { return fileKey }
            }
        }
        throw triedPassphrase ? .wrongPassphrase : .noMatchingIdentity
    }
}
#endif
