#if Secrets
import Crypto

/// The text header of an age v1 file: the version line, the recipient stanzas, the MAC.
package struct AgeHeader: Sendable {
    /// The stanzas, in file order.
    package var stanzas: [AgeStanza]
    /// The MAC from the `---` line.
    var mac: [UInt8]
    /// The bytes the MAC covers: the header up to and including `---`, as read.
    var authenticatedBytes: [UInt8]
    /// Where the payload begins in the file.
    package var length: Int

    static let versionLine = Array("age-encryption.org/v1".utf8)
    static let versionPrefix = Array("age-encryption.org/".utf8)
    /// The largest header read. Ours are a few hundred bytes; a header is text read before any
    /// key is tried, so a damaged or hostile file must not make the reader hold more than this.
    package static let maximumLength = 1 << 20

    /// The header and MAC for `stanzas`, encrypted under `fileKey`.
    static func encode(stanzas: [AgeStanza], fileKey: SymmetricKey) -> [UInt8] {
        var output = versionLine
        output.append(0x0A)
        for stanza in stanzas { output += stanza.encoded }
        output += Array("---".utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: output, using: macKey(fileKey))
        output.append(0x20)
        output += Array(AgeBase64.encode(Array(mac)).utf8)
        output.append(0x0A)
        return output
    }

    static func macKey(_ fileKey: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, salt: [UInt8](), info: Array("header".utf8), outputByteCount: 32)
    }

    /// Whether the MAC matches under `fileKey` (compared in constant time by swift-crypto).
    func isAuthentic(fileKey: SymmetricKey) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: authenticatedBytes, using: Self.macKey(fileKey))
    }

    /// Parses the header at the start of `file`, strictly (C2SP age §"ABNF definition of file
    /// header"): any deviation is `malformedHeader`, so that one header has one encoding.
    package static func parse<File: RandomAccessCollection>(_ file: File) throws(AgeError) -> AgeHeader where File.Element == UInt8, File.Index == Int {
        if file.isEmpty { throw .malformedHeader("the file is empty") }
        let limit = min(file.endIndex, file.startIndex + maximumLength)
        var position = file.startIndex

        func nextLine() throws(AgeError) -> File.SubSequence {
            guard let end = file[position..<limit].firstIndex(of: 0x0A) else {
                throw .malformedHeader(limit < file.endIndex ? "the header is longer than \(maximumLength) bytes" : "the file ends inside the header")
            }
            let line = file[position..<end]
            position = end + 1
            return line
        }

        let version = try nextLine()
        if !version.elementsEqual(versionLine) {
            if version.starts(with: versionPrefix) { throw .unsupportedVersion }
            throw .malformedHeader("it does not start with the line age-encryption.org/v1")
        }
        var stanzas: [AgeStanza] = []
        while true {
            let lineStart = position
            let line = try nextLine()
            if line.starts(with: Array("---".utf8)) {
                // "--- " and 43 base64 characters: a 32-byte MAC.
                guard line.count == 47, line[line.startIndex + 3] == 0x20,
                    let mac = AgeBase64.decode(line.dropFirst(4)), mac.count == 32
                else {
                    throw .malformedHeader("the MAC line is not '--- ' followed by the canonical base64 of 32 bytes")
                }
                let authenticated = Array(file[file.startIndex..<(lineStart + 3)])
                return AgeHeader(stanzas: stanzas, mac: mac, authenticatedBytes: authenticated, length: position - file.startIndex)
            }
            guard line.starts(with: Array("->".utf8)) else {
                throw .malformedHeader("a header line is neither a stanza (->) nor the MAC line (---)")
            }
            let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].elementsEqual(Array("->".utf8)) else {
                throw .malformedHeader("a stanza line has no type after '-> '")
            }
            var arguments: [String] = []
            for part in parts.dropFirst() {
                guard !part.isEmpty, part.allSatisfy({ $0 >= 33 && $0 <= 126 }) else {
                    throw .malformedHeader("a stanza argument is empty or has a character outside printable ASCII")
                }
                arguments.append(String(decoding: part, as: UTF8.self))
            }
            var body: [UInt8] = []
            while true {
                let bodyLine = try nextLine()
                guard bodyLine.count <= AgeStanza.columnsPerLine, let bytes = AgeBase64.decode(bodyLine) else {
                    throw .malformedHeader("a stanza body line is not canonical base64 of at most 64 columns (or the stanza lacks its final short line)")
                }
                body += bytes
                if bodyLine.count < AgeStanza.columnsPerLine { break }
            }
            stanzas.append(AgeStanza(type: arguments[0], arguments: Array(arguments.dropFirst()), body: body))
        }
    }
}
#endif
