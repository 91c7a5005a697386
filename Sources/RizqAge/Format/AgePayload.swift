#if Secrets
import Crypto
import Foundation

/// The payload of an age file: a 16-byte nonce, then the plaintext in 64 KiB chunks, each sealed
/// with ChaCha20-Poly1305 under the payload key (STREAM, C2SP age §Payload). Sealed as the
/// plaintext arrives by ``AgePlaintextSink``; opened here.
enum AgePayload {
    static let chunkSize = 64 * 1024
    static let tagSize = 16
    static let nonceSize = 16
    static var sealedChunkSize: Int { chunkSize + tagSize }

    static func payloadKey(fileKey: SymmetricKey, nonce: some DataProtocol) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, salt: nonce, info: Array("payload".utf8), outputByteCount: 32)
    }

    /// The 12-byte ChaCha20-Poly1305 nonce of chunk `counter`: an 11-byte big-endian counter,
    /// then 1 for the final chunk and 0 before it.
    static func chunkNonce(_ counter: UInt64, last: Bool) throws(AgeError) -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 { bytes[3 + index] = UInt8(truncatingIfNeeded: counter >> UInt64(8 * (7 - index))) }
        bytes[11] = last ? 1 : 0
        do {
            return try ChaChaPoly.Nonce(data: bytes)
        } catch {
            throw .cryptoFailure("a 12-byte ChaCha20-Poly1305 nonce was refused")
        }
    }

    /// Opens the payload chunk by chunk, handing each authenticated chunk to `chunk` before the
    /// next is read, as a streaming reader releases it. A full-size chunk that does not open as a
    /// middle chunk is tried as the final one, so a file whose last chunk is exactly 64 KiB
    /// reads, and then anything after it is an error.
    static func open(_ payload: Data, fileKey: SymmetricKey, chunk: (Data) throws(AgeError) -> Void) throws(AgeError) {
        guard payload.count >= nonceSize else { throw .missingPayloadNonce }
        let nonceEnd = payload.startIndex + nonceSize
        let key = payloadKey(fileKey: fileKey, nonce: Array(payload[payload.startIndex..<nonceEnd]))
        var position = nonceEnd
        var counter: UInt64 = 0
        while true {
            let remaining = payload.endIndex - position
            if remaining == 0 {
                throw .malformedPayload(counter == 0 ? "it has no chunks (truncated)" : "it ends without a final chunk (truncated)")
            }
            let full = remaining >= sealedChunkSize
            let length = full ? sealedChunkSize : remaining
            if !full, counter > 0, length == tagSize {
                throw .malformedPayload("its final chunk is empty, which only an empty file may have")
            }
            guard length >= tagSize else { throw .malformedPayload("chunk \(counter) is shorter than its tag (truncated)") }
            let sealed = payload[position..<(position + length)]
            var last = !full
            var plaintext = try openChunk(sealed, key: key, counter: counter, last: last)
            if plaintext == nil, full {
                last = true
                plaintext = try openChunk(sealed, key: key, counter: counter, last: true)
            }
            guard let plaintext else {
                throw .malformedPayload("chunk \(counter) fails authentication (changed or truncated)")
            }
            try chunk(plaintext)
            position += length
            if last {
                if position != payload.endIndex { throw .malformedPayload("data follows the final chunk") }
                return
            }
            counter += 1
        }
    }

    private static func openChunk(_ sealed: Data, key: SymmetricKey, counter: UInt64, last: Bool) throws(AgeError) -> Data? {
        let split = sealed.endIndex - tagSize
        let box: ChaChaPoly.SealedBox
        do {
            box = try ChaChaPoly.SealedBox(nonce: try chunkNonce(counter, last: last), ciphertext: sealed[sealed.startIndex..<split], tag: sealed[split...])
        } catch let error as AgeError {
            throw error
        } catch {
            throw .cryptoFailure("a sealed chunk could not be assembled")
        }
        return try? ChaChaPoly.open(box, using: key)
    }
}
#endif
