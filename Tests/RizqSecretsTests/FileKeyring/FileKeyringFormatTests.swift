import Foundation
import XCTest
@testable import RizqSecrets

/// The format on its own: the vectors libsecret wrote read back field by field, re-encoded byte
/// for byte, the deterministic vector v7 made byte for byte, the GVariant writer against GLib's
/// own serializer at the offset-width boundaries, and damaged or hostile bytes refused by name.
final class FileKeyringFormatTests: XCTestCase {
    // MARK: Vectors

    func testEveryLibsecretVectorDecodesAsExpected() throws {
        let passwords: [(String, [UInt8])] = [
            ("v1-single-text", Array("pw".utf8)), ("v2-libsecret-multi", Array("pw".utf8)),
            ("v4-portal-secret", (0..<64).map { UInt8($0) }), ("v5-empty-unicode-password", Array("pässwörd ✓".utf8)),
            ("v7-python-deterministic", Array("pw".utf8)),
        ]
        for (name, password) in passwords {
            let expected = try FileKeyringFixtures.expected(name)
            let file = try FileKeyringFile.decode(try FileKeyringFixtures.bytes(name))
            XCTAssertEqual(hexString(file.salt), expected.salt_hex, name)
            XCTAssertEqual(file.iterations, expected.iterations, name)
            XCTAssertEqual(file.modified, expected.modified, name)
            XCTAssertEqual(file.usageCount, expected.usage_count, name)
            let key = try password.withUnsafeBytes { try FileKeyringKey(password: $0, salt: file.salt, iterations: file.iterations) }
            key.key.withUnsafeBytes { XCTAssertEqual(hexString($0), expected.key_hex, name) }
            XCTAssertEqual(file.items.count, expected.items.count, name)
            for (index, (item, wanted)) in zip(file.items, expected.items).enumerated() {
                XCTAssertEqual(item.hashedAttributes.map(\.name), wanted.hashed_attribute_names, "\(name) item \(index)")
                let opened = try FileKeyringItem.decode(try key.open(item.blob), index: index)
                XCTAssertEqual(hexString(opened.secret), wanted.secret_hex, "\(name) item \(index)")
                XCTAssertEqual(opened.label, wanted.label, "\(name) item \(index)")
                XCTAssertEqual(opened.created, wanted.created, "\(name) item \(index)")
                XCTAssertEqual(opened.modified, wanted.modified, "\(name) item \(index)")
                XCTAssertEqual(Dictionary(uniqueKeysWithValues: opened.attributes.map { ($0.name, $0.value) }), wanted.attributes, "\(name) item \(index)")
                // Every hashed value is the MAC of the plaintext value of the same name.
                for hashed in item.hashedAttributes {
                    XCTAssertEqual(hashed.mac, key.hash(opened.value(of: hashed.name) ?? "\u{0}"), "\(name) item \(index) \(hashed.name)")
                }
            }
        }
    }

    /// libsecret's files are in normal form: decoding and encoding again gives every byte back,
    /// with 1-, 2- and 4-byte offsets (v3 holds a 70 000-byte secret).
    func testEveryVectorReencodesByteForByte() throws {
        for name in ["v1-single-text", "v2-libsecret-multi", "v3-libsecret-4byte-offsets", "v4-portal-secret", "v5-empty-unicode-password",
                     "v6-tampered-item0", "v7-python-deterministic"] {
            let bytes = try FileKeyringFixtures.bytes(name)
            XCTAssertEqual(try FileKeyringFile.decode(bytes).encoded(), bytes, name)
        }
        let big = try FileKeyringFile.decode(try FileKeyringFixtures.bytes("v3-libsecret-4byte-offsets"))
        let key = try Array("pw".utf8).withUnsafeBytes { try FileKeyringKey(password: $0, salt: big.salt, iterations: big.iterations) }
        let secrets = try big.items.enumerated().map { try FileKeyringItem.decode(try key.open($0.element.blob), index: $0.offset).secret }
        XCTAssertEqual(secrets.map(\.count), [3, 6, 70_000])
        XCTAssertEqual(secrets[2], Array(repeating: UInt8(ascii: "B"), count: 70_000))
    }

    /// v7, made from its spec with the vector's salt and IVs, is the vector byte for byte: the
    /// encoder writes what the research codec wrote and libsecret then read back.
    func testDeterministicVectorIsMadeByteForByte() throws {
        let salt = (0..<32).map { UInt8($0) }
        let key = try Array("pw".utf8).withUnsafeBytes { try FileKeyringKey(password: $0, salt: salt, iterations: 100_000) }
        key.key.withUnsafeBytes { XCTAssertEqual(hexString($0), "dc1472a596f3d33fa5f5156e0c4418d8") }
        let items = [
            FileKeyringItem(attributes: [.init(name: "service", value: "S"), .init(name: "account", value: "A")], label: "x",
                            created: 1_700_000_000, modified: 1_700_000_000, secret: Array("hunter2".utf8)),
            FileKeyringItem(attributes: [.init(name: "xdg:schema", value: "org.rizq.Prefs.Secret"), .init(name: "service", value: "bin"), .init(name: "Z", value: "ü")],
                            label: "Ünïcødé ✓", created: 1_700_000_001, modified: 1_700_000_002, secret: [0x00, 0x01, 0xff, 0xfe]),
        ]
        let ivs = [(0..<16).map { UInt8($0) }, (16..<32).map { UInt8($0) }]
        let sealed = try zip(items, ivs).map { item, iv in
            FileKeyringFile.SealedItem(
                hashedAttributes: item.attributes.map { .init(name: $0.name, mac: key.hash($0.value)) }, blob: try key.seal(item.encoded(), iv: iv))
        }
        XCTAssertEqual(hexString(items[0].encoded()), "6163636f756e740041000873657276696365005300080b16780000000000000000f1536500000000"
            + "00f153650000000068756e746572321a18")
        let file = FileKeyringFile(salt: salt, iterations: 100_000, modified: 1_700_000_003, usageCount: 2, items: sealed)
        XCTAssertEqual(file.encoded(), try FileKeyringFixtures.bytes("v7-python-deterministic"))
    }

    // MARK: GLib as the oracle

    /// The writer's bytes for items around the 255- and 65 535-byte boundaries (where offsets
    /// widen, per container) are GLib's own, from Debian's python3-gi.
    func testWriterMatchesGLibAtOffsetWidthBoundaries() throws {
        var cases: [(label: String, secret: [UInt8], attributes: [FileKeyringItem.Attribute])] = []
        for size in [0, 1, 180, 190, 200, 210, 220, 230, 240, 65_450, 65_460, 65_470, 65_480, 65_490, 65_500, 70_000] {
            cases.append(("l\(size)", (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }, [.init(name: "service", value: "s"), .init(name: "account", value: "é\u{301}")]))
        }
        let script = """
        import json, sys
        from gi.repository import GLib
        for line in open(sys.argv[1]):
            c = json.loads(line)
            v = GLib.Variant('(a{ss}sttay)', (dict(c['a']), c['l'], 1700000000, 1800000000, bytes.fromhex(c['s'])))
            print(v.get_data_as_bytes().get_data().hex())
        """
        var input = ""
        for entry in cases {
            // GLib keeps the order it is given: the pairs in libsecret's order, which ours sorts to.
            let pairs = FileKeyringItem.sorted(entry.attributes).map { "[\(json($0.name)), \(json($0.value))]" }.joined(separator: ", ")
            input += "{\"a\": [\(pairs)], \"l\": \(json(entry.label)), \"s\": \"\(hexString(entry.secret))\"}\n"
        }
        let result = try runCommand("/usr/bin/python3", ["-c", script, try inputFile(input)])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, cases.count)
        for (entry, glib) in zip(cases, lines) {
            let item = FileKeyringItem(attributes: entry.attributes, label: entry.label, created: 1_700_000_000, modified: 1_800_000_000, secret: entry.secret)
            XCTAssertEqual(item.attributes.map(\.name), ["account", "service"])
            let ours = hexString(item.encoded())
            XCTAssertTrue(ours == glib, "secret of \(entry.secret.count) bytes: ours \(ours.count / 2) bytes ending \(ours.suffix(16)), GLib's \(glib.count / 2) ending \(glib.suffix(16))")
        }
    }

    /// `text` in a file of this test's (a large input on a pipe, with a large output on another,
    /// would block both processes).
    private func inputFile(_ text: String) throws -> String {
        let path = try temporaryKeyringFolder(self) + "/input.jsonl"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func json(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self)
    }

    /// Whole files, with item blobs of sizes that put the items array and the file around the
    /// boundaries, against GLib's `(uayutua(a{say}ay))`.
    func testFileEncodingMatchesGLib() throws {
        let script = """
        import json, sys
        from gi.repository import GLib
        for line in open(sys.argv[1]):
            c = json.loads(line)
            items = [(dict((n, bytes.fromhex(m)) for n, m in i['h']), bytes.fromhex(i['b'])) for i in c['items']]
            v = GLib.Variant('(uayutua(a{say}ay))', (len(bytes.fromhex(c['salt'])), bytes.fromhex(c['salt']), 100000, 1700000003, 7, items))
            print(v.get_data_as_bytes().get_data().hex())
        """
        var files: [FileKeyringFile] = []
        for (count, blob) in [(0, 64), (1, 64), (1, 112), (2, 64), (3, 32), (1, 65_400), (1, 65_500), (2, 40_000), (20, 3_000)] {
            let items = (0..<count).map { index in
                FileKeyringFile.SealedItem(
                    hashedAttributes: [.init(name: "account", mac: Array(repeating: UInt8(index), count: 32)), .init(name: "service", mac: Array(repeating: 0xAB, count: 32))],
                    blob: Array(repeating: UInt8(truncatingIfNeeded: index), count: blob))
            }
            files.append(FileKeyringFile(salt: Array(repeating: 9, count: 32), iterations: 100_000, modified: 1_700_000_003, usageCount: 7, items: items))
        }
        var input = ""
        for file in files {
            let items = file.items.map { item in
                "{\"h\": [" + item.hashedAttributes.map { "[\"\($0.name)\", \"\(hexString($0.mac))\"]" }.joined(separator: ", ") + "], \"b\": \"\(hexString(item.blob))\"}"
            }
            input += "{\"salt\": \"\(hexString(file.salt))\", \"items\": [\(items.joined(separator: ", "))]}\n"
        }
        let result = try runCommand("/usr/bin/python3", ["-c", script, try inputFile(input)])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, files.count)
        for (file, glib) in zip(files, lines) {
            let encoded = file.encoded()
            XCTAssertEqual(Array(encoded.prefix(18)), FileKeyringFile.magic + [1, 0])
            let ours = hexString(encoded.dropFirst(18))
            XCTAssertTrue(ours == glib, "\(file.items.count) items: ours \(ours.count / 2) bytes ending \(ours.suffix(16)), GLib's \(glib.count / 2) ending \(glib.suffix(16))")
            XCTAssertEqual(try FileKeyringFile.decode(encoded), file)
        }
    }

    // MARK: Damaged and hostile bytes

    /// Every truncation of a libsecret file is refused with a format error (libsecret itself
    /// aborts the process on most of them: `g_assert (n_data == salt_size)`).
    func testEveryTruncationIsRefused() throws {
        for name in ["v1-single-text", "v2-libsecret-multi"] {
            let bytes = try FileKeyringFixtures.bytes(name)
            for length in 0..<bytes.count {
                XCTAssertThrowsError(try FileKeyringFile.decode(Array(bytes.prefix(length))), "\(name) cut at \(length)") { error in
                    XCTAssertTrue(error is FileKeyringFormatError)
                }
            }
        }
    }

    /// Any single changed byte either decodes (into something else) or is refused: never a trap.
    func testEveryChangedByteDecodesOrIsRefused() throws {
        let bytes = try FileKeyringFixtures.bytes("v2-libsecret-multi")
        var refused = 0
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0xff, bytes[index] ^ 0x01] {
                var changed = bytes
                changed[index] = value
                do {
                    _ = try FileKeyringFile.decode(changed)
                } catch {
                    refused += 1
                }
            }
        }
        // The framing offsets and header fields are checked: many changes are caught there
        // (the rest fall in MACs, blobs and names, which the key checks later).
        XCTAssertGreaterThan(refused, 100)
    }

    func testHostileHeadersAreRefusedByName() throws {
        let v1 = try FileKeyringFixtures.bytes("v1-single-text")
        func refusal(_ bytes: [UInt8]) -> FileKeyringFormatError? {
            do {
                _ = try FileKeyringFile.decode(bytes)
                return nil
            } catch {
                return error
            }
        }
        func edited(_ offset: Int, _ values: [UInt8]) -> [UInt8] {
            var copy = v1
            copy.replaceSubrange(offset..<offset + values.count, with: values)
            return copy
        }
        XCTAssertEqual(refusal([])?.problem, .notAKeyring)
        XCTAssertEqual(refusal(Array("not a keyring at all, but long enough".utf8))?.problem, .notAKeyring)
        XCTAssertEqual(refusal(Array(v1.prefix(16)))?.problem, .truncated(needed: 2, available: 0))
        XCTAssertEqual(refusal(edited(16, [0, 0]))?.problem, .unsupportedVersion(major: 0, minor: 0))
        XCTAssertEqual(refusal(edited(16, [1, 1]))?.problem, .unsupportedVersion(major: 1, minor: 1))
        XCTAssertEqual(refusal(Array(v1.prefix(18)))?.field, "the keyring's header")
        // salt_size: libsecret aborts on a mismatch.
        XCTAssertEqual(refusal(edited(18, [0xff, 0xff, 0xff, 0xff]))?.problem, .saltSizeMismatch(declared: 0xFFFF_FFFF, actual: 32))
        XCTAssertEqual(refusal(edited(54, [0, 0, 0, 0]))?.problem, .iterationsOutOfRange(count: 0, maximum: FileKeyringFile.maximumIterations))
        XCTAssertEqual(refusal(edited(54, [0xff, 0xff, 0xff, 0xff]))?.problem, .iterationsOutOfRange(count: 0xFFFF_FFFF, maximum: FileKeyringFile.maximumIterations))
        // The file's one framing offset (the salt's end, the last byte) pointing past the body.
        XCTAssertEqual(refusal(edited(v1.count - 1, [0xfe]))?.problem, .offsetOutOfRange(offset: 0xfe, limit: v1.count - 18 - 1))
        // The items array's last offset (its table's start) pointing outside it.
        XCTAssertEqual(refusal(edited(v1.count - 2, [0xff]))?.field, "the items")
    }

    /// A count of elements beyond the bound is refused before anything is allocated for them.
    func testElementCountsAreBounded() throws {
        // An array of 300 one-byte elements read with a bound of 100.
        let array = GVariantWriter.array((0..<300).map { [UInt8($0 & 0x7f)] })
        let reader = GVariantReader(bytes: array)
        XCTAssertThrowsError(try reader.elements(0..<array.count, maximum: 100, field: "the test array")) { error in
            XCTAssertEqual((error as? FileKeyringFormatError)?.problem, .tooMany(count: 300, maximum: 100))
        }
        XCTAssertEqual(try reader.elements(0..<array.count, maximum: 300, field: "the test array").count, 300)
    }

    func testStringsMustBeTerminatedUTF8WithoutNul() throws {
        let reader = GVariantReader(bytes: [0x61, 0x62, 0x00, 0x61, 0x00, 0x62, 0x00, 0xff, 0x00, 0x61])
        XCTAssertEqual(try reader.string(0..<3, field: "s"), "ab")
        XCTAssertThrowsError(try reader.string(3..<7, field: "s")) { XCTAssertEqual(($0 as? FileKeyringFormatError)?.problem, .stringHasNul) }
        XCTAssertThrowsError(try reader.string(7..<9, field: "s")) { XCTAssertEqual(($0 as? FileKeyringFormatError)?.problem, .stringNotUTF8) }
        XCTAssertThrowsError(try reader.string(9..<10, field: "s")) { XCTAssertEqual(($0 as? FileKeyringFormatError)?.problem, .stringNotTerminated) }
        XCTAssertThrowsError(try reader.string(3..<3, field: "s")) { XCTAssertEqual(($0 as? FileKeyringFormatError)?.problem, .stringNotTerminated) }
    }

    // MARK: Items

    func testBlobsOpenOnlyWithTheirKeyAndIntact() throws {
        let key = FileKeyringKey(bytes: bytes(hex: "dc1472a596f3d33fa5f5156e0c4418d8"))
        let other = FileKeyringKey(bytes: bytes(hex: "00000000000000000000000000000000"))
        let plaintext = Array("a plaintext of some length".utf8)
        let blob = try key.seal(plaintext)
        XCTAssertEqual(blob.count % 16, 0)
        XCTAssertEqual(try key.open(blob), plaintext)
        XCTAssertTrue(key.verifies(blob))
        XCTAssertFalse(other.verifies(blob))
        XCTAssertThrowsError(try other.open(blob)) { XCTAssertEqual($0 as? FileKeyringKey.Failure, .macMismatch) }
        var changed = blob
        changed[3] ^= 0x80
        XCTAssertThrowsError(try key.open(changed)) { XCTAssertEqual($0 as? FileKeyringKey.Failure, .macMismatch) }
        XCTAssertThrowsError(try key.open(Array(blob.prefix(63)))) { XCTAssertEqual($0 as? FileKeyringKey.Failure, .blobLength(63)) }
        XCTAssertThrowsError(try key.open([])) { XCTAssertEqual($0 as? FileKeyringKey.Failure, .blobLength(0)) }
        // A plaintext of whole blocks gets a whole block of padding, as libsecret writes it.
        XCTAssertEqual(try key.seal(Array(repeating: 1, count: 32)).count, 48 + 48)
    }

    func testAnEmptyPasswordDerivesNoKey() {
        XCTAssertNil(FileKeyringPassword.copying([]))
        XCTAssertThrowsError(try [UInt8]().withUnsafeBytes { try FileKeyringKey(password: $0, salt: [1], iterations: 1) }) {
            XCTAssertEqual($0 as? FileKeyringKey.Failure, .derivation)
        }
    }
}
