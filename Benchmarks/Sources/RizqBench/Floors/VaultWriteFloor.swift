import Crypto
import Foundation

/// The second floor of a vault write (issue 39): what any sealed, rollback-checked vault of the
/// same plaintext must do for one set, each step with swift-crypto directly or a bare system call:
///
/// 1. the seal: HMAC-SHA256 over the whole plaintext (the vault is one file, and the seal covers
///    every item);
/// 2. age encryption to the vault's recipient: an ephemeral X25519 agreement, the HKDFs, the
///    file key's ChaCha20-Poly1305 wrap, the header's HMAC, and the payload in 64 KiB
///    ChaCha20-Poly1305 chunks into one buffer (c2sp.org/age);
/// 3. the durable write of the result (``DurableWriteFloor``, as the first floor);
/// 4. the durable write of a record of the generation as small as ours (write, `fsync`,
///    `rename`; its folder not flushed, as ours is not), without which an older copy put back
///    goes unnoticed.
///
/// No JSON, no locks, no checks of who owns what, no per-item work: those are ours to keep small.
struct VaultWriteFloor {
    let plaintext: [UInt8]
    let recipient: Curve25519.KeyAgreement.PublicKey
    let sealKey = SymmetricKey(size: .bits256)
    let vault: DurableWriteFloor
    let record: DurableWriteFloor
    let recordBytes: [UInt8]

    /// The floor for the vault at `vaultPath` (its identity in `keyFile`), the record the size of
    /// `recordPath`'s; its files go in folders of their own under `home`.
    init(home: BenchHome, vaultPath: String, keyFile: String, recordPath: String) throws {
        let decrypt = try AgeDecryptFloor(vaultPath: vaultPath, keyFile: keyFile)
        plaintext = try decrypt.plaintext()
        recipient = decrypt.privateKey.publicKey
        vault = try DurableWriteFloor(home: home, suitePath: vaultPath)
        record = try DurableWriteFloor(folder: home.path + "/floor-record", name: "record.json")
        recordBytes = try DurableWriteFloor.bytes(of: recordPath)
    }

    /// Nanoseconds for one write: seal, encrypt, and both durable writes.
    func write() throws -> Double {
        var file: [UInt8] = []
        let crypto = try elapsedNanoseconds { file = try encrypt(sealed: plaintext) }
        return crypto + (try vault.write(file)) + (try record.write(recordBytes, syncFolder: false))
    }

    /// The age file of `plaintext` with its seal appended (the seal's 32 bytes stand for the
    /// vault's `mac` member).
    private func encrypt(sealed plaintext: [UInt8]) throws -> [UInt8] {
        let seal = HMAC<SHA256>.authenticationCode(for: plaintext, using: sealKey)
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let share = ephemeral.publicKey.rawRepresentation
        let wrapKey = try ephemeral.sharedSecretFromKeyAgreement(with: recipient).hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: share + recipient.rawRepresentation, sharedInfo: Data("age-encryption.org/v1/X25519".utf8), outputByteCount: 32)
        var fileKey = [UInt8](repeating: 0, count: 16)
        for index in fileKey.indices { fileKey[index] = UInt8.random(in: 0...255) }
        let wrapped = try ChaChaPoly.seal(fileKey, using: wrapKey, nonce: ChaChaPoly.Nonce(data: Data(count: 12)))
        var header = "age-encryption.org/v1\n-> X25519 \(Self.base64(share))\n\(Self.base64(wrapped.ciphertext + wrapped.tag))\n---"
        let macKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: fileKey), salt: Data(), info: Data("header".utf8), outputByteCount: 32)
        header += " \(Self.base64(Data(HMAC<SHA256>.authenticationCode(for: Data(header.utf8), using: macKey))))\n"
        let sealed = plaintext.count + 32
        var file = [UInt8](header.utf8)
        file.reserveCapacity(file.count + 16 + sealed + (sealed / 65_536 + 1) * 16)
        let nonce = (0..<16).map { _ in UInt8.random(in: 0...255) }
        file.append(contentsOf: nonce)
        let payloadKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: fileKey), salt: nonce, info: Data("payload".utf8), outputByteCount: 32)
        var counter: UInt64 = 0
        var offset = 0
        let tail = Array(seal)
        repeat {
            let end = min(offset + 65_536, sealed)
            var chunkNonce = [UInt8](repeating: 0, count: 3)
            withUnsafeBytes(of: counter.bigEndian) { chunkNonce.append(contentsOf: $0) }
            chunkNonce.append(end == sealed ? 1 : 0)
            // The plaintext's bytes, then the seal's, as one stream.
            let box: ChaChaPoly.SealedBox
            if end <= plaintext.count {
                box = try ChaChaPoly.seal(plaintext[offset..<end], using: payloadKey, nonce: ChaChaPoly.Nonce(data: chunkNonce))
            } else {
                box = try ChaChaPoly.seal(plaintext[min(offset, plaintext.count)...] + tail[max(0, offset - plaintext.count)...], using: payloadKey, nonce: ChaChaPoly.Nonce(data: chunkNonce))
            }
            file.append(contentsOf: box.ciphertext)
            file.append(contentsOf: box.tag)
            offset = end
            counter += 1
        } while offset < sealed
        return file
    }

    private static func base64(_ bytes: some DataProtocol) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
