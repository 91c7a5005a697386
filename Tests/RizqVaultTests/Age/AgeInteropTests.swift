import Crypto
import Foundation
import RizqAge
import RizqTestSupport
import XCTest

/// RizqAge against Debian's `age` 1.1.1, both ways, and against damaged input.
final class AgeInteropTests: VaultTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireTool("/usr/bin/age")
        try requireTool("/usr/bin/age-keygen")
    }

    /// Bytes of every value, a size that spans chunks (three full 64 KiB chunks and a partial one).
    private func sample(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
    }

    private func run(_ tool: String, _ arguments: [String], input: Data? = nil) throws -> Data {
        let result = try runProcess(tool, arguments, input: input)
        XCTAssertEqual(result.status, 0, "\(tool) \(arguments): \(String(decoding: result.stderr, as: UTF8.self))")
        return result.stdout
    }

    func testAgeKeygenKeysParseToTheSameRecipient() throws {
        let keyFile = scratch + "/key.txt"
        _ = try run("/usr/bin/age-keygen", ["-o", keyFile])
        let recipient = String(decoding: try run("/usr/bin/age-keygen", ["-y", keyFile]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let identities = try AgeIdentityFile.parse(try Data(contentsOf: URL(fileURLWithPath: keyFile)))
        XCTAssertEqual(identities.count, 1)
        XCTAssertEqual(identities[0].recipient.string, recipient)
        XCTAssertEqual(try AgeX25519Recipient(parsing: recipient).string, recipient)
        // Our encoding of the key is age's, character for character.
        XCTAssertTrue(String(decoding: try Data(contentsOf: URL(fileURLWithPath: keyFile)), as: UTF8.self).contains(identities[0].string))
    }

    func testDebianAgeDecryptsWhatWeEncryptAndWeDecryptWhatItEncrypts() throws {
        let identity = AgeX25519Identity()
        let keyFile = try writeFile("identity.txt", AgeIdentityFile.render(identity))
        let other = AgeX25519Identity()
        for size in [0, 1, 65536, 65537, 3 * 65536 + 1000] {
            let plaintext = sample(size)
            // Ours, to two recipients → age -d with one of them.
            let ours = try Age.encrypt(plaintext, to: [other.recipient, identity.recipient])
            let oursPath = scratch + "/ours-\(size).age"
            try ours.write(to: URL(fileURLWithPath: oursPath))
            let outPath = scratch + "/out-\(size)"
            _ = try run("/usr/bin/age", ["-d", "-i", keyFile, "-o", outPath, oursPath])
            // age creates its -o file at its first write: none for an empty plaintext.
            let output = FileManager.default.contents(atPath: outPath) ?? Data()
            XCTAssertEqual(output, plaintext, "size \(size): age -d of our file")
            // age -r → ours. (Files, not pipes: a pipe both ways would fill while the other end
            // waits.)
            let plainPath = scratch + "/plain-\(size)"
            try plaintext.write(to: URL(fileURLWithPath: plainPath))
            let theirsPath = scratch + "/theirs-\(size).age"
            _ = try run("/usr/bin/age", ["-r", identity.recipient.string, "-o", theirsPath, plainPath])
            let theirs = try Data(contentsOf: URL(fileURLWithPath: theirsPath))
            XCTAssertEqual(try Age.decrypt(theirs, with: [identity]), plaintext, "size \(size): our decryption of age -r")
            XCTAssertThrowsError(try Age.decrypt(theirs, with: [other])) { error in
                XCTAssertEqual(error as? AgeError, .noMatchingIdentity)
            }
        }
    }

    /// A plaintext written piece by piece (a vault's: its items' members streamed into age's
    /// chunks) is the file of the same plaintext written at once, byte for byte once decrypted by
    /// Debian's `age` and by us — pieces of every size, crossing chunk boundaries, ending on one
    /// exactly (no empty chunk after it) and a byte past it.
    func testAPlaintextWrittenInPiecesOpensInAgeAsTheWhole() throws {
        let identity = AgeX25519Identity()
        let keyFile = try writeFile("identity.txt", AgeIdentityFile.render(identity))
        // Piece sizes; 0 is one byte through `append(byte:)`.
        let layouts: [[Int]] = [[], [0], [65535, 0], [65536], [65535, 1, 0], [1, 7, 65536, 0, 100_000, 3], [200_000], [0, 0, 131_072]]
        for (number, pieces) in layouts.enumerated() {
            var expected = Data()
            let file = try Age.encrypt(to: [identity.recipient], plaintextCount: 10) { (sink: inout AgePlaintextSink) throws(AgeError) in
                for (index, size) in pieces.enumerated() {
                    if size == 0 {
                        let byte = UInt8(truncatingIfNeeded: index &* 37 &+ expected.count)
                        expected.append(byte)
                        try sink.append(byte: byte)
                    } else {
                        let piece = sample(size + index).suffix(size)
                        expected.append(contentsOf: piece)
                        if index % 2 == 0 { try sink.append(Array(piece)) } else { try sink.append(contentsOf: piece) }
                    }
                }
            }
            let path = scratch + "/pieces-\(number).age"
            try file.write(to: URL(fileURLWithPath: path))
            let outPath = scratch + "/pieces-\(number).out"
            _ = try run("/usr/bin/age", ["-d", "-i", keyFile, "-o", outPath, path])
            XCTAssertEqual(FileManager.default.contents(atPath: outPath) ?? Data(), expected, "pieces \(pieces): age -d")
            XCTAssertEqual(try Age.decrypt(file, with: [identity]), expected, "pieces \(pieces): ours")
            // The same number of chunks as the whole written at once: the file's size says so.
            let whole = try Age.encrypt(expected, to: [identity.recipient])
            XCTAssertEqual(file.count, whole.count, "pieces \(pieces): the file's size")
        }
    }

    func testAgePassphraseFilesOpenHereAndOursOpenInAge() throws {
        let passphrase = "staple battery horse \(UUID().uuidString)"
        let plaintext = sample(70000)
        let input = try writeFile("plain", "")
        try plaintext.write(to: URL(fileURLWithPath: input))
        // age -p, its prompts answered on a pseudo-terminal: age reads passphrases from /dev/tty.
        let theirsPath = scratch + "/theirs.age"
        let made = try runProcess(Self.python, [Self.scripts + "/pty-answer.py", "/usr/bin/age", "-p", "-o", theirsPath, input], input: Data((passphrase + "\n").utf8))
        XCTAssertEqual(made.status, 0, String(decoding: made.stdout, as: UTF8.self))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: theirsPath))
        XCTAssertTrue(theirs.starts(with: Data("age-encryption.org/v1\n-> scrypt ".utf8)))
        XCTAssertEqual(try Age.decrypt(theirs, with: [AgeScryptIdentity(passphrase: Array(passphrase.utf8))]), plaintext)
        XCTAssertThrowsError(try Age.decrypt(theirs, with: [AgeScryptIdentity(passphrase: Array("wrong".utf8))])) { error in
            XCTAssertEqual(error as? AgeError, .wrongPassphrase)
        }
        // Ours at the vault's work factor → age -d.
        let ours = try Age.encrypt(plaintext, to: [try AgeScryptRecipient(passphrase: Array(passphrase.utf8), workFactor: 16)])
        let oursPath = scratch + "/ours.age"
        try ours.write(to: URL(fileURLWithPath: oursPath))
        let outPath = scratch + "/out"
        let opened = try runProcess(Self.python, [Self.scripts + "/pty-answer.py", "/usr/bin/age", "-d", "-o", outPath, oursPath], input: Data((passphrase + "\n").utf8))
        XCTAssertEqual(opened.status, 0, String(decoding: opened.stdout, as: UTF8.self))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: outPath)), plaintext)
        XCTAssertFalse(opened.stdout.contains(Data(passphrase.utf8)), "the passphrase is not echoed")
    }

    func testAWorkFactorAboveTheLimitIsRefusedBeforeAnyWork() throws {
        let file = try Age.encrypt(Data("x".utf8), to: [try AgeScryptRecipient(passphrase: Array("p".utf8), workFactor: 10)])
        // The same file, its work factor rewritten to 2^30 (the MAC no longer matters: the
        // limit is checked before scrypt runs, and before the MAC can be).
        var text = file
        let stanza = Data("-> scrypt ".utf8)
        let start = try XCTUnwrap(text.range(of: stanza)).upperBound
        let end = try XCTUnwrap(text[start...].firstIndex(of: 0x0A))
        let line = String(decoding: text[start..<end], as: UTF8.self)
        let salt = try XCTUnwrap(line.split(separator: " ").first)
        text.replaceSubrange(start..<end, with: Data("\(salt) 30".utf8))
        XCTAssertThrowsError(try Age.decrypt(text, with: [AgeScryptIdentity(passphrase: Array("p".utf8))])) { error in
            XCTAssertEqual(error as? AgeError, .workFactorTooLarge(logN: 30, limit: AgeScryptIdentity.defaultMaximumWorkFactor))
        }
    }

    /// Every prefix of a file and every single-bit change of it fails with an AgeError: no crash,
    /// no plaintext released before the change is detected beyond authenticated chunks.
    func testEveryTruncationAndEveryFlippedBitIsATypedError() throws {
        let identity = AgeX25519Identity()
        let plaintext = Data("the vault's JSON would be here".utf8)
        let file = try Age.encrypt(plaintext, to: [identity.recipient])
        XCTAssertEqual(try Age.decrypt(file, with: [identity]), plaintext)
        for length in 0..<file.count {
            XCTAssertThrowsError(try Age.decrypt(file.prefix(length), with: [identity]), "prefix of \(length) bytes") { error in
                XCTAssertTrue(error is AgeError)
            }
        }
        for index in 0..<file.count {
            for bit in [0, 3, 7] {
                var changed = file
                changed[index] ^= UInt8(1 << bit)
                XCTAssertThrowsError(try Age.decrypt(changed, with: [identity]), "bit \(bit) of byte \(index)") { error in
                    XCTAssertTrue(error is AgeError)
                }
            }
        }
        XCTAssertThrowsError(try Age.decrypt(file + Data([0]), with: [identity]), "a trailing byte")
    }

    func testBech32RejectsTyposAndMixedCase() throws {
        let recipient = AgeX25519Identity().recipient.string
        XCTAssertNoThrow(try AgeX25519Recipient(parsing: recipient.uppercased()))
        var typo = Array(recipient)
        typo[10] = typo[10] == "q" ? "p" : "q"
        XCTAssertThrowsError(try AgeX25519Recipient(parsing: String(typo)))
        XCTAssertThrowsError(try AgeX25519Recipient(parsing: recipient.prefix(10).uppercased() + recipient.dropFirst(10)))
        XCTAssertThrowsError(try AgeX25519Recipient(parsing: String(recipient.dropLast())))
        XCTAssertThrowsError(try AgeX25519Identity(parsing: recipient), "a recipient is not an identity")
        // An identity's error never quotes it.
        let identity = AgeX25519Identity().string
        do {
            _ = try AgeX25519Identity(parsing: String(identity.dropLast()))
            XCTFail("a truncated identity parsed")
        } catch {
            XCTAssertFalse(error.description.contains(identity.dropLast(8)))
        }
    }
}
