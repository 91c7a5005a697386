#if Secrets
import Crypto
import Foundation

/// Where an age payload's plaintext is written piece by piece (``Age/encrypt(to:plaintextCount:_:)``):
/// the pieces fill one 64 KiB chunk buffer, and each chunk is sealed into the file as soon as
/// more plaintext follows it — so the whole plaintext is never held in one buffer (a vault's
/// is every secret it keeps; issue 39).
///
/// The chunks are those of a plaintext written at once: every chunk but the last full, the last
/// sealed as final by ``finish()``, an empty plaintext one empty final chunk. The chunk buffer is
/// zeroed after each seal, and by ``discard()`` when the file is given up.
package struct AgePlaintextSink {
    private var chunk: [UInt8]
    private var counter: UInt64 = 0
    private let key: SymmetricKey
    private var output: Data

    /// A payload for `fileKey` appended to `output` (the header already in it): its nonce now,
    /// the chunks as the plaintext arrives.
    init(fileKey: SymmetricKey, output: consuming Data) {
        let nonce = AgeRandom.bytes(AgePayload.nonceSize)
        output.append(contentsOf: nonce)
        key = AgePayload.payloadKey(fileKey: fileKey, nonce: nonce)
        self.output = output
        chunk = []
        chunk.reserveCapacity(AgePayload.chunkSize)
    }

    /// Appends `bytes` to the plaintext.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) throws(AgeError) {
        var offset = 0
        while offset < bytes.count {
            // A full chunk with more plaintext after it is not the last: seal it now.
            if chunk.count == AgePayload.chunkSize { try seal(last: false) }
            let take = min(AgePayload.chunkSize - chunk.count, bytes.count - offset)
            chunk.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            offset += take
        }
    }

    /// Appends one byte to the plaintext.
    package mutating func append(byte: UInt8) throws(AgeError) {
        if chunk.count == AgePayload.chunkSize { try seal(last: false) }
        chunk.append(byte)
    }

    /// Appends `bytes` to the plaintext.
    package mutating func append(_ bytes: [UInt8]) throws(AgeError) {
        try append(contentsOf: bytes)
    }

    /// Appends `bytes` (each of their regions in turn) to the plaintext.
    package mutating func append(contentsOf bytes: some DataProtocol) throws(AgeError) {
        for region in bytes.regions {
            let appended = region.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Result<Void, AgeError> in
                Result { () throws(AgeError) in try append(buffer) }
            }
            try appended.get()
        }
    }

    /// Seals the last chunk as final and gives back the file.
    mutating func finish() throws(AgeError) -> Data {
        try seal(last: true)
        return output
    }

    private mutating func seal(last: Bool) throws(AgeError) {
        defer { discard() }
        do {
            let box = try ChaChaPoly.seal(chunk, using: key, nonce: try AgePayload.chunkNonce(counter, last: last))
            output.append(box.ciphertext)
            output.append(box.tag)
        } catch let error as AgeError {
            throw error
        } catch {
            throw .cryptoFailure("ChaCha20-Poly1305 sealing failed")
        }
        counter += 1
    }

    /// Zeroes and empties the chunk buffer: after each seal, and when the file is given up (a
    /// piece failed).
    mutating func discard() {
        chunk.zeroize()
        chunk.removeAll(keepingCapacity: true)
    }
}
#endif
