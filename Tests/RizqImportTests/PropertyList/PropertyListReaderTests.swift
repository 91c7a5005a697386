import Foundation
import XCTest
import RizqPrefs
@testable import RizqImport

/// The property-list reader, on files written by Python's plistlib (committed fixtures), by
/// Foundation's own writer, and by hand for what no writer makes; compared with Foundation's
/// reader where both read the file.
final class PropertyListReaderTests: XCTestCase {
    func testXMLAndBinaryKeepEveryTypeInFileOrder() throws {
        for (name, binary) in [("typed.xml.plist", false), ("typed.binary.plist", true)] {
            let dump = try ImportDump(contentsOfFile: PlistFixtures.path(name))
            let expected = PlistFixtures.typed(binary: binary)
            XCTAssertEqual(dump.format, .plist, name)
            XCTAssertEqual(dump.keys, expected.map(\.key), "\(name): keys in file order")
            XCTAssertEqual(dump.warnings, [], name)
            for (key, value) in expected {
                let entry = try XCTUnwrap(dump.entries.first { $0.key == key })
                XCTAssertEqual(entry.typedValue, value, "\(name): \(key)")
                XCTAssertNil(entry.problem, "\(name): \(key)")
            }
            XCTAssertEqual(dump.entries.first { $0.key == "streak" }?.originalKind, .number)
            XCTAssertEqual(dump.entries.first { $0.key == "whole_date" }?.originalKind, .date)
            XCTAssertEqual(dump.entries.first { $0.key == "bytes" }?.originalKind, .data)
            XCTAssertEqual(dump.entries.first { $0.key == "flag_on" }?.originalKind, .boolean)
            XCTAssertEqual(dump["theme_mode"], "dark")
            XCTAssertEqual(dump["streak"], "12", "a typed entry's text is its JSON")
            let bytes = try PlistFixtures.bytes(name)
            XCTAssertEqual(dump.digest, "sha256:" + InputDigest.hex(bytes))
        }
    }

    /// Foundation's own reader (Core Foundation's parser, numbers typed by their objCType) sees
    /// the same values in every fixture, and in plists Foundation's own writer made.
    func testEveryValueMatchesFoundationsReading() throws {
        var inputs: [(String, Data)] = try ["typed.xml.plist", "typed.binary.plist"].map { ($0, Data(try PlistFixtures.bytes($0))) }
        let object: [String: Any] = [
            "b": true, "i": -7, "big": Int64.max, "d": 2.25, "whole": 3.0, "s": "ümlaut ✓", "date": Date(timeIntervalSinceReferenceDate: 1234.5),
            "data": Data([1, 2, 3]), "list": [1, "two", [false]] as [Any], "dict": ["k": ["x": 1.5]],
        ]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            inputs.append(("Foundation \(format == .xml ? "XML" : "binary")", try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)))
        }
        for (name, data) in inputs {
            let foundation = try XCTUnwrap(foundationPrefValue(try PropertyListSerialization.propertyList(from: data, format: nil)), name)
            let ours = try ImportDump(bytes: [UInt8](data), source: name)
            XCTAssertEqual(PrefValue.dictionary(ours.typedValues), foundation, name)
            XCTAssertEqual(ours.entries.count, ours.typedValues.count, "\(name): no entry has a problem")
        }
    }

    func testValuesASuiteCannotHoldAreNamedNotReplaced() throws {
        let dump = try ImportDump(contentsOfFile: PlistFixtures.path("odd.binary.plist"))
        XCTAssertEqual(dump.keys, ["fine", "archived_uid", "nested_uid", "not_a_number", "infinite", "lone_surrogate", "after"])
        XCTAssertEqual(dump.typedValues, ["fine": .string("ok"), "after": .int(7)])
        func problem(_ key: String) -> String { dump.entries.first { $0.key == key }?.problem ?? "none" }
        XCTAssertTrue(problem("archived_uid").contains("keyed-archiver UID"), problem("archived_uid"))
        XCTAssertTrue(problem("nested_uid").contains("UID") && problem("nested_uid").contains("at /x/0"), problem("nested_uid"))
        XCTAssertTrue(problem("not_a_number").contains("nan"), problem("not_a_number"))
        XCTAssertTrue(problem("infinite").contains("inf"), problem("infinite"))
        // A string that is not valid Unicode is kept as stored, for the importer's undecodable path.
        let lone = try XCTUnwrap(dump.entries.first { $0.key == "lone_surrogate" })
        XCTAssertNil(lone.problem)
        XCTAssertEqual(lone.undecodable?.value.problem, "a lone UTF-16 surrogate (0xD800) at code unit 1")
        XCTAssertEqual(lone.undecodable?.value.bytes, [0x61, 0x00, 0x00, 0xD8, 0x62, 0x00])
        XCTAssertEqual(lone.value, "a\\uD800b")
    }

    func testXMLTextForms() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <!-- written by hand -->
            <plist version="1.0"><dict>
              <key>entities</key><string>&lt;&gt;&amp;&quot;&apos; &#233;&#x1F600;</string>
              <key>cdata</key><string><![CDATA[<not a tag> & raw]]></string>
              <key>commented</key><string>a<!-- gone -->b</string>
              <key>empty</key><string/>
              <key>hex</key><integer> 0x1F </integer>
              <key>plus</key><integer>+5</integer>
              <key>whole real</key><real>1</real>
              <key>longer true</key><true></true>
              <key>wrapped data</key><data>
                AAEC
                /w==
              </data>
              <key>fraction</key><date>2024-11-22T13:47:00.5Z</date>
              <key>ancient</key><date>0100-03-01T00:00:00Z</date>
              <key>twice</key><integer>1</integer>
              <key>twice</key><integer>2</integer>
              <key>nested</key><dict><key>a</key><true/><key>a</key><false/></dict>
              <key>surrogate</key><string>x&#xD800;y</string>
              <key>pair</key><string>&#xD83D;&#xDE00;!</string>
              <key>nan</key><real>nan</real>
              <key></key><string>empty key</string>
            </dict></plist>
            """
        let dump = try ImportDump(bytes: Array(xml.utf8), source: "hand.plist")
        let values = dump.typedValues
        XCTAssertEqual(values["entities"], .string("<>&\"' é😀"))
        XCTAssertEqual(values["cdata"], .string("<not a tag> & raw"))
        XCTAssertEqual(values["commented"], .string("ab"))
        XCTAssertEqual(values["empty"], .string(""))
        XCTAssertEqual(values["hex"], .int(31))
        XCTAssertEqual(values["plus"], .int(5))
        XCTAssertEqual(values["whole real"], .double(1.0))
        XCTAssertEqual(values["longer true"], .bool(true))
        XCTAssertEqual(values["wrapped data"], .data(Data([0, 1, 2, 255])))
        XCTAssertEqual(values["fraction"], .date(PlistFixtures.wholeDate.addingTimeInterval(0.5)))
        XCTAssertEqual(values["ancient"], .date(Date(timeIntervalSince1970: -59_006_361_600)), "proleptic Gregorian, as Core Foundation reads it")
        XCTAssertEqual(values["twice"], .int(2))
        XCTAssertEqual(values["nested"], .dictionary(["a": .bool(false)]))
        XCTAssertEqual(values[""], .string("empty key"))
        XCTAssertEqual(dump.keys.filter { $0 == "twice" }.count, 1)
        XCTAssertTrue(dump.warnings.contains("key 'twice' appears 2 times; the last value wins"), "\(dump.warnings)")
        XCTAssertTrue(dump.warnings.contains("key 'a' appears 2 times in the dictionary at /nested; the last value wins"), "\(dump.warnings)")
        XCTAssertEqual(values["pair"], .string("😀!"), "two references to the halves of a pair make one character")
        let surrogate = dump.entries.first { $0.key == "surrogate" }
        XCTAssertNil(surrogate?.typedValue)
        XCTAssertEqual(surrogate?.undecodable?.value.problem, "a lone UTF-16 surrogate (0xD800) at code unit 1")
        XCTAssertNil(dump.entries.first { $0.key == "nan" }?.typedValue)
    }

    func testABareDictionaryRootIsRead() throws {
        let dump = try ImportDump(bytes: Array("<?xml version=\"1.0\"?>\n<dict><key>a</key><integer>1</integer></dict>\n".utf8), format: .plist)
        XCTAssertEqual(dump.typedValues, ["a": .int(1)])
    }

    // MARK: Bad input

    func testATopLevelThatIsNotADictionaryIsRefusedNamingTheFile() throws {
        for name in ["root-array.binary.plist", "root-array.xml.plist"] {
            let path = PlistFixtures.path(name)
            XCTAssertThrowsError(try ImportDump(contentsOfFile: path)) { error in
                guard case .dump(.propertyList(let plistError))? = error as? ImportError else { return XCTFail("\(error)") }
                XCTAssertEqual(plistError.kind, .notDictionary)
                XCTAssertEqual(plistError.file, path)
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix(path + ": its top level is an array"), message)
                XCTAssertTrue(message.contains("nothing was imported"), message)
            }
        }
    }

    /// Every cut of a binary plist is refused with a property-list error (never a crash, never a
    /// partial read), and so is every cut of an XML one short of its end tag.
    func testEveryTruncationIsRefused() throws {
        let binary = try PlistFixtures.bytes("typed.binary.plist")
        for length in 6..<binary.count {
            guard let error = propertyListError(Array(binary.prefix(length))) else { continue }
            XCTAssertEqual(error.encoding, .binary, "cut at \(length)")
            XCTAssertTrue([.truncated, .malformed].contains(error.kind), "cut at \(length): \(error)")
        }
        let cut = propertyListError(Array(binary.prefix(binary.count / 2)))
        XCTAssertEqual(cut?.kind, .truncated)
        XCTAssertTrue(cut?.description.hasPrefix("test.plist, byte ") == true, cut?.description ?? "")
        XCTAssertTrue(cut?.description.contains("cut short") == true, cut?.description ?? "")

        let xml = try PlistFixtures.bytes("typed.xml.plist")
        let end = try XCTUnwrap(String(decoding: xml, as: UTF8.self).range(of: "</plist>")).lowerBound.utf16Offset(in: String(decoding: xml, as: UTF8.self))
        // From "<?xml " on, which is where the file says it is XML.
        for length in 6..<(end + 7) {
            guard let error = propertyListError(Array(xml.prefix(length))) else { continue }
            XCTAssertEqual(error.encoding, .xml, "cut at \(length)")
        }
        let xmlCut = propertyListError(Array(xml.prefix(xml.count / 2)))
        XCTAssertEqual(xmlCut?.kind, .truncated)
        XCTAssertNotNil(xmlCut?.position)
    }

    /// Every byte of a binary plist changed in turn: each result is read or refused, never a
    /// crash or a hang.
    func testDamagedBytesNeverCrash() throws {
        let binary = try PlistFixtures.bytes("typed.binary.plist")
        for index in 0..<binary.count {
            for flip: UInt8 in [0xFF, 0x01, 0x80] {
                var damaged = binary
                damaged[index] ^= flip
                _ = try? ImportDump(bytes: damaged, source: "damaged.plist", format: .plist)
            }
        }
    }

    func testFilesThatAreNotPropertyListsAreCalledThat() throws {
        let cases: [(String, String)] = [
            ("{\n    theme = dark;\n    streak = 12;\n}\n", "defaults export"),
            (#"{"theme": "dark"}"#, "JSON"),
            ("just text", "neither bplist nor XML"),
            ("", "empty"),
        ]
        for (text, hint) in cases {
            let error = propertyListError(Array(text.utf8), format: .plist)
            XCTAssertEqual(error?.kind, .notPropertyList, text)
            XCTAssertTrue(error?.description.contains(hint) == true, error?.description ?? "")
            XCTAssertTrue(error?.description.hasPrefix("test.plist") == true, error?.description ?? "")
        }
    }

    func testMalformedXMLIsRefusedWithItsPosition() throws {
        let cases: [(String, String)] = [
            ("<plist><dict><key>a</key></dict></plist>", "has no value"),
            ("<plist><dict><string>a</string></dict></plist>", "expected a <key>"),
            ("<plist><dict><key>a</key><integer>1</integer></array></plist>", "expected </dict>"),
            ("<plist><dict><key>a</key><integer>twelve</integer></dict></plist>", "not an integer"),
            ("<plist><dict><key>a</key><integer>18446744073709551616</integer></dict></plist>", "not an integer"),
            ("<plist><dict><key>a</key><date>yesterday</date></dict></plist>", "not a date"),
            ("<plist><dict><key>a</key><data>!!</data></dict></plist>", "not base64"),
            ("<plist><dict><key>a</key><colour>red</colour></dict></plist>", "not a property list element"),
            ("<plist><dict><key>a</key><string>&bogus;</string></dict></plist>", "unknown entity"),
            ("<plist><dict><key>a</key><string>x<b/></string></dict></plist>", "only text"),
            ("<plist><dict/></plist><plist/>", "more after the end"),
            ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><dict/></plist>", "ISO-8859-1"),
        ]
        for (text, expected) in cases {
            let error = propertyListError(Array(text.utf8))
            XCTAssertTrue(error?.reason.contains(expected) == true, "\(text): \(error?.description ?? "no error")")
            XCTAssertEqual(error?.position?.line, 1, text)
        }
        // An error names where and what, never the value (it might be a token).
        let token = FakeToken.opaque()
        for element in ["integer", "real", "date"] {
            let error = propertyListError(Array("<plist><dict><key>a</key><\(element)>\(token)</\(element)></dict></plist>".utf8))
            XCTAssertNotNil(error, element)
            XCTAssertFalse(error?.description.contains(token) ?? true, "the error for <\(element)> holds its text")
        }
        var notUTF8 = Array("<plist><dict><key>a</key><string>caf".utf8)
        notUTF8 += [0xE9] + Array("</string></dict></plist>".utf8)
        let error = propertyListError(notUTF8)
        XCTAssertEqual(error?.offset, 36)
        XCTAssertTrue(error?.reason.contains("not UTF-8") == true, error?.description ?? "")
    }

    func testDeepNestingIsRefusedNotAStackOverflow() throws {
        let depth = 100_000
        let xml = "<plist><dict><key>a</key>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</dict></plist>"
        XCTAssertTrue(propertyListError(Array(xml.utf8))?.reason.contains("nesting deeper than") == true)
        // Binary: array i holds array i + 1, 2,000 deep.
        XCTAssertTrue(propertyListError(BinaryPlist.chain(depth: 2_000))?.reason.contains("nesting deeper than") == true)
    }

    func testHostileBinaryStructuresAreRefused() throws {
        // An array that contains itself.
        XCTAssertTrue(propertyListError(BinaryPlist.build(objects: [[0xD1, 1, 2], [0x51, 0x61], [0xA1, 2]]))?.reason.contains("contains itself") == true)
        // 40 levels of arrays, each holding the next one twice: 2^40 values once expanded.
        var objects: [[UInt8]] = [[0xD1, 1, 2], [0x51, 0x61]]
        for level in 0..<40 { objects.append([0xA2, UInt8(3 + level), UInt8(3 + level)]) }
        objects.append([0x08])
        XCTAssertTrue(propertyListError(BinaryPlist.build(objects: objects))?.reason.contains("more than 10000000 values") == true)
        // A reference to an object that does not exist.
        XCTAssertTrue(propertyListError(BinaryPlist.build(objects: [[0xD1, 1, 9], [0x51, 0x61]]))?.reason.contains("reference to object 9") == true)
        // A string longer than the file.
        XCTAssertTrue(propertyListError(BinaryPlist.build(objects: [[0xD1, 1, 2], [0x51, 0x61], [0x5F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]]))?.reason.contains("more than the file holds") == true)
        // A key that is not a string.
        XCTAssertTrue(propertyListError(BinaryPlist.build(objects: [[0xD1, 1, 1], [0x10, 0x05]]))?.reason.contains("not a string") == true)
        // Another version.
        XCTAssertEqual(propertyListError(Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40))?.kind, .unsupported)
    }
}

/// Binary plists assembled by hand, for what no writer makes.
enum BinaryPlist {
    /// `objects` in order, one-byte offsets and references, object 0 on top.
    static func build(objects: [[UInt8]]) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let offsetSize = offsets.last ?? 0 > 255 ? 2 : 1
        let table = bytes.count
        for offset in offsets { bytes += offsetSize == 2 ? [UInt8(offset >> 8), UInt8(offset & 0xFF)] : [UInt8(offset)] }
        let referenceSize = objects.count > 255 ? 2 : 1
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += bigEndian(UInt64(objects.count)) + bigEndian(0) + bigEndian(UInt64(table))
        return bytes
    }

    /// A dictionary {"a": array₁} where each array holds the next, `depth` arrays in all.
    static func chain(depth: Int) -> [UInt8] {
        var objects: [[UInt8]] = [[0xD1, 0, 1, 0, 2], [0x51, 0x61]]
        for level in 0..<depth {
            let next = 3 + level
            objects.append(level == depth - 1 ? [0xA0] : [0xA1, UInt8(next >> 8), UInt8(next & 0xFF)])
        }
        // More than 255 objects: build() uses two-byte references, as written above.
        return build(objects: objects)
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }
}
