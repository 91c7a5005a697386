import Crypto
import Foundation

/// The floor of a vault read: read `vault.age` (one `open` + `read`) and decrypt it with
/// swift-crypto directly — the X25519 agreement, the HKDFs, the stanza's ChaCha20-Poly1305, the
/// header's HMAC and the payload's chunks (c2sp.org/age) — with the header's layout found once,
/// outside the timing: what any reader of the same bytes must do, and nothing else.
struct AgeDecryptFloor {
    let path: String
    let privateKey: Curve25519.KeyAgreement.PrivateKey
    /// Offsets in the file, found once: the share, the stanza body, the MAC, the payload.
    let share: Data
    let body: Data
    let mac: Data
    let headerEnd: Int
    let payloadStart: Int

    /// The floor for `vaultPath`, whose identity is the age key file `keyFile`.
    init(vaultPath: String, keyFile: String) throws {
        path = vaultPath
        let keyText = try String(contentsOfFile: keyFile, encoding: .utf8)
        guard let line = keyText.split(separator: "\n").first(where: { $0.hasPrefix("AGE-SECRET-KEY-1") }) else {
            throw BenchError("no AGE-SECRET-KEY-1 line in \(keyFile)")
        }
        privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: try Self.bech32Payload(String(line.lowercased())))
        let file = try Data(contentsOf: URL(fileURLWithPath: vaultPath))
        guard let macLine = file.range(of: Data("\n--- ".utf8)) else { throw BenchError("no header MAC line in \(vaultPath)") }
        headerEnd = macLine.lowerBound + 4  // through "---"
        guard let macEnd = file[macLine.upperBound...].firstIndex(of: 0x0A) else { throw BenchError("no end of the MAC line") }
        payloadStart = macEnd + 1
        mac = try Self.base64(file[macLine.upperBound..<macEnd])
        let header = String(decoding: file[..<macLine.lowerBound], as: UTF8.self).split(separator: "\n")
        guard header.count >= 3, header[1].hasPrefix("-> X25519 ") else { throw BenchError("not one X25519 stanza") }
        share = try Self.base64(Data(header[1].dropFirst("-> X25519 ".count).utf8))
        body = try Self.base64(Data(header[2...].joined().utf8))
    }

    /// Reads and decrypts the file; returns the plaintext's length.
    func decrypt() throws -> Int {
        var length = 0
        try decrypt { length += $0.count }
        return length
    }

    /// The file's plaintext (for a floor that encrypts the same bytes; read outside any timing).
    func plaintext() throws -> [UInt8] {
        var bytes: [UInt8] = []
        try decrypt { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Reads and decrypts the file, handing each opened chunk to `chunk`.
    private func decrypt(chunk: (Data) -> Void) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("open \(path): errno \(errno)") }
        var info = stat()
        fstat(fd, &info)
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard count == bytes.count else { throw BenchError("short read") }

        let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: share)
        let shared = try privateKey.sharedSecretFromKeyAgreement(with: peer)
        let wrapKey = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: share + privateKey.publicKey.rawRepresentation, sharedInfo: Data("age-encryption.org/v1/X25519".utf8), outputByteCount: 32)
        let fileKey = try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: Data(count: 12) + body), using: wrapKey)
        let macKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: fileKey), salt: Data(), info: Data("header".utf8), outputByteCount: 32)
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: bytes[..<headerEnd], using: macKey) else { throw BenchError("bad MAC") }
        let nonce = bytes[payloadStart..<payloadStart + 16]
        let payloadKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: fileKey), salt: nonce, info: Data("payload".utf8), outputByteCount: 32)
        var offset = payloadStart + 16
        var counter: UInt64 = 0
        while offset < bytes.count {
            let end = min(offset + 65_536 + 16, bytes.count)
            var chunkNonce = Data(count: 3)
            withUnsafeBytes(of: counter.bigEndian) { chunkNonce.append(contentsOf: $0) }
            chunkNonce.append(end == bytes.count ? 1 : 0)
            let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: chunkNonce), ciphertext: bytes[offset..<end - 16], tag: bytes[end - 16..<end])
            chunk(try ChaChaPoly.open(box, using: payloadKey))
            offset = end
            counter += 1
        }
    }

    private static func base64(_ text: Data) throws -> Data {
        var string = String(decoding: text, as: UTF8.self)
        while string.count % 4 != 0 { string += "=" }
        guard let data = Data(base64Encoded: string) else { throw BenchError("not base64") }
        return data
    }

    /// The bytes of a bech32 string (its checksum is not checked: the key file is ours).
    private static func bech32Payload(_ text: String) throws -> Data {
        let alphabet = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l")
        guard let separator = text.lastIndex(of: "1") else { throw BenchError("not bech32") }
        let groups = try text[text.index(after: separator)...].dropLast(6).map { character -> UInt32 in
            guard let value = alphabet.firstIndex(of: character) else { throw BenchError("not bech32") }
            return UInt32(value)
        }
        var bytes = Data()
        var accumulator: UInt32 = 0
        var bits = 0
        for group in groups {
            accumulator = (accumulator << 5) | group
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((accumulator >> UInt32(bits)) & 0xFF))
            }
        }
        return bytes
    }
}
