#if Secrets
/// Why an age file could not be written or read.
///
/// Messages say what happened and what to do; none ever holds key material, a passphrase or a
/// plaintext byte (a header's text is public, but even that is not echoed: a damaged file could
/// hold anything).
package enum AgeError: Error, Sendable, Equatable {
    /// The header does not follow the age v1 grammar (C2SP age §Header), or a stanza of a type
    /// this implementation knows is malformed.
    case malformedHeader(String)
    /// The file is an age file of another version than v1.
    case unsupportedVersion
    /// An scrypt stanza shares the header with other stanzas (the spec forbids it: a passphrase
    /// file must not also open with a key).
    case scryptNotAlone
    /// The scrypt work factor (log2 N) in the file is above the limit this reader accepts.
    case workFactorTooLarge(logN: Int, limit: Int)
    /// None of the given identities opens any stanza of the file.
    case noMatchingIdentity
    /// The passphrase does not open the file's scrypt stanza.
    case wrongPassphrase
    /// A file key was unwrapped but the header's MAC does not match: the header was changed.
    case headerMACMismatch
    /// The file ends before the payload's 16-byte nonce.
    case missingPayloadNonce
    /// The encrypted payload is truncated, has trailing data, or a chunk fails authentication.
    case malformedPayload(String)
    /// A recipient string (`age1…`) could not be parsed.
    case invalidRecipient(String)
    /// An identity (`AGE-SECRET-KEY-1…`) could not be parsed; the identity itself is never quoted.
    case invalidIdentity(String)
    /// An scrypt work factor outside 1…30 was asked for when encrypting.
    case invalidWorkFactor(Int)
    /// The input is larger than the reader accepts.
    case tooLarge(size: Int, limit: Int)
    /// swift-crypto refused an operation (should not happen with valid keys).
    case cryptoFailure(String)
}

extension AgeError: CustomStringConvertible {
    /// One line: what happened and what to do.
    package var description: String {
        switch self {
        case .malformedHeader(let reason):
            return "not a valid age v1 file: \(reason); the file is damaged or is not an age file"
        case .unsupportedVersion:
            return "the file is an age file of a version other than v1; use a newer age tool to read it"
        case .scryptNotAlone:
            return "the age header mixes a passphrase (scrypt) stanza with other stanzas, which age forbids; the file is damaged or was made by a faulty tool"
        case .workFactorTooLarge(let logN, let limit):
            return "the file's scrypt work factor 2^\(logN) is above the accepted 2^\(limit); re-encrypt it with a lower work factor, or raise the limit if you trust the file"
        case .noMatchingIdentity:
            return "no identity given opens this age file; use the identity (AGE-SECRET-KEY-1…) of one of its recipients"
        case .wrongPassphrase:
            return "the passphrase does not open this age file; check the passphrase and try again"
        case .headerMACMismatch:
            return "the age header's MAC does not match: the header was changed after encryption; the file is damaged or was tampered with"
        case .missingPayloadNonce:
            return "the age file ends before its payload begins: it was truncated"
        case .malformedPayload(let reason):
            return "the age payload is damaged: \(reason)"
        case .invalidRecipient(let reason):
            return "invalid age recipient: \(reason); a recipient looks like age1… (from `age-keygen -y`)"
        case .invalidIdentity(let reason):
            return "invalid age identity: \(reason); an identity looks like AGE-SECRET-KEY-1… (from `age-keygen`)"
        case .invalidWorkFactor(let logN):
            return "scrypt work factor 2^\(logN) is out of range; use a log2 value from 1 to 30"
        case .tooLarge(let size, let limit):
            return "the input is \(size) bytes, more than the \(limit) accepted; this is not a file written here"
        case .cryptoFailure(let reason):
            return "the cryptography library failed: \(reason)"
        }
    }
}
#endif
