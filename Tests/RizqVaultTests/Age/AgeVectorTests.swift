import Crypto
import Foundation
import RizqAge
import RizqTestSupport
import XCTest

/// Every age test vector of C2SP's CCTV (Fixtures/age-testkit, ASCII armor left out) decrypted
/// by RizqAge: the outcome class and the SHA-256 of the plaintext released, which for a payload
/// failure covers the chunks authenticated before it.
final class AgeVectorTests: XCTestCase {
    struct Vector {
        var expect = ""
        var payloadHash: String?
        var identities: [String] = []
        var passphrases: [String] = []
        var compressed = false
        var file = Data()
    }

    static var folder: String {
        repositoryRoot().appendingPathComponent("Tests/RizqVaultTests/Fixtures/age-testkit").path
    }

    func testEveryVectorGivesItsExpectedOutcomeAndPlaintext() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0 != "README.md" }.sorted()
        XCTAssertEqual(names.count, 110, "the vector files")
        var ran = 0
        var skipped: [String] = []
        for name in names {
            let vector = try load(name)
            // Post-quantum (ML-KEM) identities are not implemented: a vector with nothing else
            // to decrypt with cannot be run.
            let classic = vector.identities.filter { !$0.hasPrefix("AGE-SECRET-KEY-PQ-") }
            if classic.isEmpty, vector.passphrases.isEmpty, !vector.identities.isEmpty {
                skipped.append(name)
                continue
            }
            var identities: [any AgeIdentity] = try classic.map { try AgeX25519Identity(parsing: $0) }
            // A vector with no key at all fails before any identity is tried: give it a stranger's.
            if vector.identities.isEmpty, vector.passphrases.isEmpty { identities = [AgeX25519Identity()] }
            identities += vector.passphrases.map { AgeScryptIdentity(passphrase: Array($0.utf8)) }
            var released = SHA256()
            let outcome: String
            do {
                try Age.decrypt(vector.file, with: identities) { (chunk: Data) throws(AgeError) in released.update(data: chunk) }
                outcome = "success"
            } catch {
                outcome = Self.outcome(of: error)
                XCTAssertFalse(error.description.isEmpty)
            }
            XCTAssertEqual(outcome, vector.expect, name)
            if let expected = vector.payloadHash {
                XCTAssertEqual(hex(Array(released.finalize())), expected, "\(name): the plaintext released")
            }
            ran += 1
        }
        XCTAssertEqual(ran, 110 - skipped.count)
        XCTAssertEqual(skipped.filter { !$0.hasPrefix("hybrid") }, [], "only post-quantum vectors are skipped")
        XCTAssertEqual(skipped.count, 17)
        print("age vectors: \(ran) run, \(skipped.count) skipped (post-quantum identity only): \(skipped.joined(separator: " "))")
    }

    /// The vectors' outcome classes (CCTV age/README.md).
    static func outcome(of error: AgeError) -> String {
        switch error {
        case .malformedHeader, .unsupportedVersion, .scryptNotAlone, .workFactorTooLarge, .missingPayloadNonce:
            return "header failure"
        case .noMatchingIdentity, .wrongPassphrase:
            return "no match"
        case .headerMACMismatch:
            return "HMAC failure"
        case .malformedPayload:
            return "payload failure"
        case .invalidRecipient, .invalidIdentity, .invalidWorkFactor, .tooLarge, .cryptoFailure:
            return "other: \(error)"
        }
    }

    private func load(_ name: String) throws -> Vector {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))
        guard let blank = data.firstRange(of: Data("\n\n".utf8)) else {
            XCTFail("\(name): no blank line after the vector's header")
            return Vector()
        }
        var vector = Vector()
        for line in String(decoding: data[..<blank.lowerBound], as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstRange(of: ": ") else { continue }
            let key = line[..<colon.lowerBound]
            let value = String(line[colon.upperBound...])
            switch key {
            case "expect": vector.expect = value
            case "payload": vector.payloadHash = value
            case "identity": vector.identities.append(value)
            case "passphrase": vector.passphrases.append(value)
            case "compressed": vector.compressed = value == "zlib"
            default: break
            }
        }
        vector.file = Data(data[blank.upperBound...])
        if vector.compressed {
            // zlib is not in Foundation on Linux; Python's is on every machine that runs these tests.
            let inflate = "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))"
            let result = try runProcess("/usr/bin/python3", ["-c", inflate], input: vector.file)
            XCTAssertEqual(result.status, 0, "\(name): zlib: \(String(decoding: result.stderr, as: UTF8.self))")
            vector.file = result.stdout
        }
        return vector
    }
}

/// Lower-case hex.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
