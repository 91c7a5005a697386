import Foundation
import XCTest
import RizqTestSupport
@testable import RizqPrefs

/// Suite files written by the release before this one (Tests/Fixtures/LastRelease, made by
/// `FixtureWriter.swift.txt` built against commit 7c8dcec) open with this code and read every
/// value back the same: every value type, a schema version, and the change-time record the old
/// release kept in an extended attribute. The file format does not change between releases.
final class UpgradeFixtureTests: XCTestCase {
    private static let fixtures = repositoryRoot().appendingPathComponent("Tests/Fixtures/LastRelease").path

    private struct Profile: Codable, Equatable {
        var name: String
        var streak: Int
        var ratio: Double
        var tags: [String]
        var nested: [String: Int]
        var joined: Date
    }

    /// The values the old release stored, as it stored them.
    private static let expected: [String: PrefValue] = [
        "bool.true": .bool(true), "bool.false": .bool(false),
        "int.zero": .int(0), "int.negative": .int(-42), "int.min": .int(Int.min), "int.max": .int(Int.max),
        "unsigned.max": .unsigned(UInt64.max),
        "double.tenth": .double(0.1), "double.one": .double(1.0), "double.huge": .double(1e300),
        "double.tiny": .double(.leastNonzeroMagnitude), "double.negativeZero": .double(-0.0), "double.pi": .double(Double.pi),
        "string.empty": .string(""), "string.ascii": .string("dark"),
        "string.unicode": .string("Grüße, 世界 👋🏽 e\u{301} \u{202E}rtl"),
        "string.escapes": .string("quote \" backslash \\ tab \t newline \n nul-free"),
        "date.millis": .date(Date(timeIntervalSince1970: 1_700_000_000.123)),
        "date.epoch": .date(Date(timeIntervalSince1970: 0)),
        "date.old": .date(Date(timeIntervalSince1970: -2_208_988_800.5)),
        "data.empty": .data(Data()), "data.bytes": .data(Data((0...255).map { UInt8($0) })),
        "array.mixed": .array([.int(1), .string("two"), .double(3.5), .bool(false), .null, .array([]), .dictionary([:])]),
        "dictionary.nested": .dictionary([
            "a": .dictionary(["b": .array([.int(1), .int(2)])]), "when": .date(Date(timeIntervalSince1970: 86_400)),
            "blob": .data(Data([0, 1, 2])),
        ]),
        "key with spaces": .string("spaces"), "key.with@symbols": .string("symbols"), "ключ": .string("cyrillic key"),
    ]

    /// A root holding the fixtures where the old release put them (`apps/fixtures/`), with the
    /// change-time record put back on the file where the file system keeps user attributes.
    private func installFixtures() throws -> (root: TemporaryRoot, recordKept: Bool) {
        let root = TemporaryRoot()
        let folder = root.path + "/apps/fixtures"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["com.rizq.fixtures.json", "com.rizq.fixtures.schema.json"] {
            try FileManager.default.copyItem(atPath: Self.fixtures + "/" + name, toPath: folder + "/" + name)
        }
        let hex = try String(contentsOfFile: Self.fixtures + "/com.rizq.fixtures.json.change-times.hex", encoding: .utf8)
        var record: [UInt8] = []
        var characters = hex.trimmingCharacters(in: .whitespacesAndNewlines)[...]
        while characters.count >= 2 {
            record.append(try XCTUnwrap(UInt8(characters.prefix(2), radix: 16)))
            characters = characters.dropFirst(2)
        }
        let path = folder + "/com.rizq.fixtures.json"
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let kept = LinuxFileCalls.setAttribute(ChangeTimes.attributeName, to: record, of: descriptor)
        return (root, kept)
    }

    func testEveryValueTypeTheLastReleaseWroteReadsBackTheSame() throws {
        let (root, _) = try installFixtures()
        let store = try SuiteStore(suite: "com.rizq.fixtures", appID: "fixtures", root: root.path)
        for (key, value) in Self.expected {
            XCTAssertEqual(store.value(forKey: key, as: PrefValue.self), value, key)
        }
        let profile = Key<Profile>(codable: "codable.profile", default: Profile(name: "", streak: 0, ratio: 0, tags: [], nested: [:], joined: .distantPast), store: store)
        XCTAssertEqual(store[profile], Profile(name: "Aisha", streak: 12, ratio: 0.75, tags: ["a", "b"], nested: ["x": 1], joined: Date(timeIntervalSince1970: 1_600_000_000.5)))
        XCTAssertEqual(Set(store.dictionaryRepresentation().keys).subtracting(["codable.profile"]), Set(Self.expected.keys))
    }

    func testAWriteByThisReleaseKeepsEveryOtherValueByteForByte() throws {
        let (root, _) = try installFixtures()
        let path = root.path + "/apps/fixtures/com.rizq.fixtures.json"
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let store = try SuiteStore(suite: "com.rizq.fixtures", appID: "fixtures", root: root.path)
        store.set("light", forKey: "string.ascii")
        try store.flush()
        let after = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(after, before.replacingOccurrences(of: #""string.ascii": "dark""#, with: #""string.ascii": "light""#))
    }

    func testTheSchemaVersionIsReadAndAnUpToDateSchemaRunsNoStage() throws {
        let (root, _) = try installFixtures()
        let schema = try SuiteMigrations(version: 2, stages: [
            .custom(from: 0, to: 1) { _ in XCTFail("a stage ran on a file already at version 2") },
            .lightweight(from: 1, to: 2, []),
        ])
        let store = try SuiteStore(suite: "com.rizq.fixtures.schema", appID: "fixtures", root: root.path, migrations: schema)
        XCTAssertEqual(store.schemaVersion, 2)
        XCTAssertEqual(store.string(forKey: "theme"), "old-name")
        XCTAssertEqual(store.integer(forKey: "streak"), 7)
        XCTAssertNil(store.object(forKey: "$schemaVersion"), "the version is not a key")
    }

    func testTheChangeTimeRecordOfTheLastReleaseIsRead() throws {
        let (root, kept) = try installFixtures()
        try XCTSkipUnless(kept, "this file system keeps no user attributes, so the record cannot be put back")
        let location = try SuiteLocation(suiteName: "com.rizq.fixtures", appID: "fixtures", root: root.path)
        guard case .entries(_, _, _, _, let times?) = try SuiteFile(location: location).read() else {
            return XCTFail("the fixture did not read as a suite")
        }
        // The old release recorded every key it wrote, at the time of its one flush.
        XCTAssertEqual(times.floor, 0)
        XCTAssertEqual(Set(times.keys.keys), Set(Self.expected.keys).union(["codable.profile"]))
        XCTAssertEqual(Set(times.keys.values).count, 1)
        XCTAssertEqual(times.time(of: "int.zero"), Int64(bitPattern: 0x18eb_9309_c4a7_c6dc))
    }
}
