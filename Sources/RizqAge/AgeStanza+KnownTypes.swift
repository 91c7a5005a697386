#if Secrets
// Above Format/, X25519/ and Scrypt/: the format knows no stanza type, and each type's identity
// knows its own stanza; what every known type must look like is checked here.
extension AgeStanza {
    /// Checks the stanza types this implementation knows, whoever they are addressed to: the
    /// spec requires a malformed X25519 or scrypt stanza to fail the file, not to be skipped.
    func validateKnownType() throws(AgeError) {
        switch type {
        case AgeX25519Identity.stanzaType:
            guard arguments.count == 1 else { throw .malformedHeader("an X25519 stanza has \(arguments.count) arguments after its type, not 1") }
            guard let share = AgeBase64.decode(Array(arguments[0].utf8)), share.count == 32 else {
                throw .malformedHeader("an X25519 stanza's share is not the canonical base64 of 32 bytes")
            }
            guard body.count == 32 else { throw .malformedHeader("an X25519 stanza's body is \(body.count) bytes, not 32") }
        case AgeScryptIdentity.stanzaType:
            guard arguments.count == 2 else { throw .malformedHeader("an scrypt stanza has \(arguments.count) arguments after its type, not 2") }
            guard let salt = AgeBase64.decode(Array(arguments[0].utf8)), salt.count == 16 else {
                throw .malformedHeader("an scrypt stanza's salt is not the canonical base64 of 16 bytes")
            }
            _ = try AgeScryptIdentity.parseWorkFactor(arguments[1])
            guard body.count == 32 else { throw .malformedHeader("an scrypt stanza's body is \(body.count) bytes, not 32") }
        default:
            break
        }
    }
}
#endif
