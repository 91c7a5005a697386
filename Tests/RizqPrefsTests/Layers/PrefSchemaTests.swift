import Foundation
import XCTest
@testable import RizqPrefs

private enum Theme: String, CaseIterable, Sendable { case light, dark, system }

/// The schema: generated from `Key` declarations, read back (also when written by hand), checked
/// on write and on read, and a standard JSON Schema an independent validator agrees with.
final class PrefSchemaTests: LayerTestCase {
    private func declaredKeys(_ store: SuiteStore) -> (volume: Key<Int>, theme: Key<Theme>, name: Key<String>, when: Key<Date?>, old: Key<Bool>) {
        (Key("volume", default: 50, store: store, title: "Volume", description: "Output volume, in percent.", range: 0...100),
         Key("theme", default: Theme.system, store: store, title: "Theme"),
         Key("nickname", default: "", store: store, choices: ["", "ada", "grace"]),
         Key("last_sync", default: nil, store: store, description: "When the app last synced."),
         Key("legacy_mode", default: false, store: store, deprecated: "use theme instead"))
    }

    func testKeysMakeAJSONSchemaThatReadsBackAsItself() throws {
        let store = try standard()
        let keys = declaredKeys(store)
        let schema = PrefSchema(title: app, keys: [keys.volume, keys.theme, keys.name, keys.when, keys.old])
        let volume = try XCTUnwrap(schema.properties["volume"])
        XCTAssertEqual(volume.types, [.integer])
        XCTAssertEqual(volume.minimum, .int(0))
        XCTAssertEqual(volume.maximum, .int(100))
        XCTAssertEqual(volume.defaultValue, .int(50))
        XCTAssertEqual(volume.title, "Volume")
        XCTAssertEqual(schema.properties["theme"]?.choices, [.string("light"), .string("dark"), .string("system")], "a CaseIterable enum's cases are its choices")
        XCTAssertEqual(schema.properties["nickname"]?.choices, [.string(""), .string("ada"), .string("grace")])
        XCTAssertEqual(schema.properties["legacy_mode"]?.deprecated, true)
        XCTAssertEqual(schema.properties["legacy_mode"]?.deprecationMessage, "use theme instead")

        let json = schema.jsonData()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        XCTAssertEqual(object["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
        XCTAssertEqual(object["type"] as? String, "object")
        let read = try PrefSchema(json: json)
        XCTAssertEqual(read.properties["volume"], volume)
        XCTAssertEqual(read.properties["theme"]?.choices, schema.properties["theme"]?.choices)
        XCTAssertEqual(read.title, app)
    }

    func testAHandWrittenSchemaIsReadWithEachKeywordAndABadOneSaysWhere() throws {
        let schema = try PrefSchema(json: Data(#"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Hand written",
             "properties": {
               "ratio": {"type": ["number", "null"], "exclusiveMinimum": 0, "maximum": 1.5, "description": "Scale."},
               "mode": {"enum": ["a", "b"], "default": "a"},
               "fixed": {"const": 3},
               "anything": true,
               "nothing": false,
               "old": {"type": "boolean", "deprecated": true, "deprecationMessage": "gone in 2.0", "format": "ignored"}
             }}
            """#.utf8))
        XCTAssertEqual(schema.problem(with: .double(0.5), forKey: "ratio"), nil)
        XCTAssertEqual(schema.problem(with: .int(0), forKey: "ratio"), "0 is not allowed: the key takes a number or a null above 0 to 1.5")
        XCTAssertNotNil(schema.problem(with: .double(2), forKey: "ratio"))
        XCTAssertEqual(schema.problem(with: .string("c"), forKey: "mode"), #""c" is not allowed: the key takes one of "a", "b""#)
        XCTAssertNil(schema.problem(with: .double(3.0), forKey: "fixed"), "JSON Schema compares numbers by value")
        XCTAssertNil(schema.problem(with: .string("x"), forKey: "anything"))
        XCTAssertNotNil(schema.problem(with: .string("x"), forKey: "nothing"))
        XCTAssertNil(schema.problem(with: .string("x"), forKey: "undeclared"))
        XCTAssertEqual(schema.properties["old"]?.deprecationMessage, "gone in 2.0")

        XCTAssertThrowsError(try PrefSchema(json: Data(#"{"properties": {"k": {"minimum": "low"}}}"#.utf8))) { error in
            XCTAssertEqual("\(error)", #"the schema's properties.k.minimum is not a number; a schema is a JSON Schema object whose "properties" describe the keys"#)
        }
        XCTAssertThrowsError(try PrefSchema(json: Data(#"{"properties": {"k": {"type": "integr"}}}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("names 'integr', which is not a JSON type"), "\(error)")
        }
        XCTAssertThrowsError(try PrefSchema(json: Data("[1]".utf8)))
        XCTAssertThrowsError(try PrefSchema(json: Data("{".utf8))) { error in
            guard case .schemaNotJSON = error as? SuiteStoreError else { return XCTFail("\(error)") }
        }
    }

    func testADeclaredRangeRefusesWritesAndAValueOutsideItReadsAsTheDefault() throws {
        let store = try standard()
        let keys = declaredKeys(store)
        XCTAssertThrowsError(try keys.volume.put(150)) { error in
            XCTAssertEqual("\(error)", "cannot store key 'volume': 150 is not allowed: the key takes an integer from 0 to 100 (as the key is declared); nothing was written")
        }
        XCTAssertThrowsError(try keys.name.put("linus"))
        try keys.volume.put(70)
        XCTAssertEqual(keys.volume.value, 70)
        keys.volume.value = -1  // the setter logs and drops it
        XCTAssertEqual(keys.volume.value, 70)
        // A value written by hand (or another app) outside the range reads as the default, and stays.
        store.set(500, forKey: "volume")
        try store.flush()
        XCTAssertEqual(keys.volume.value, 50)
        XCTAssertEqual(store.integer(forKey: "volume"), 500, "the stored value is untouched")
    }

    func testAnInstalledSchemaRefusesWritesAndABadValueOnDiskReadsAsTheDefaultAndStays() throws {
        // Written before the schema is installed: a value the schema will forbid.
        try FileManager.default.createDirectory(atPath: (standardPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(#"{"goal": 99, "mode": "b"}"#.utf8).write(to: URL(fileURLWithPath: standardPath))
        let schema = try PrefSchema(json: Data(#"{"properties": {"goal": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3}, "mode": {"enum": ["a", "b"]}}}"#.utf8))
        let path = try layers.installSchema(schema.jsonData(), app: app, suite: app)
        let store = try standard()
        XCTAssertEqual(store.integer(forKey: "goal"), 3, "breaks the schema: reads as the schema's default")
        XCTAssertEqual(store.source(forKey: "goal"), ValueSource(layer: .schema, path: path))
        XCTAssertEqual(store.entries["goal"], .int(99), "and stays on disk")
        XCTAssertEqual(store.valuesBreakingSchema.map(\.key), ["goal"])
        XCTAssertThrowsError(try store.put(11, forKey: "goal")) { error in
            guard case .notAllowed(let key, let reason)? = error as? SuiteStoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(key, "goal")
            XCTAssertTrue(reason.hasPrefix("11 is not allowed: the key takes an integer from 1 to 10"), reason)
            XCTAssertTrue(reason.contains(path), reason)
        }
        XCTAssertThrowsError(try store.put("c", forKey: "mode"))
        store.set(12, forKey: "goal")  // refused and logged, as GSettings refuses it
        XCTAssertEqual(store.entries["goal"], .int(99))
        try store.put(5, forKey: "goal")
        XCTAssertEqual(store.integer(forKey: "goal"), 5)
        try store.flush()
        XCTAssertEqual(try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: standardPath))) as? [String: Any])["goal"] as? Int, 5)
    }

    func testAnUnreadableSchemaIsSkippedAndTheSuiteStillOpens() throws {
        let path = try layers.installSchema(Data(#"{"properties": {"k": {"type": 7}}}"#.utf8), app: app, suite: app)
        let store = try standard()
        store.set("anything", forKey: "k")
        XCTAssertEqual(store.string(forKey: "k"), "anything")
        XCTAssertNil(store.installedSchema)
        XCTAssertTrue(store.layerReport.skipped.contains { $0.path == path && $0.reason.contains("properties.k.type") }, "\(store.layerReport.skipped)")
    }

    /// The files the library writes validate against the schema it generates, by Debian's
    /// python3-jsonschema (installed by scripts/install-deps): an independent reading of both.
    func testTheSuiteFileValidatesAgainstTheGeneratedSchemaWithAnIndependentValidator() throws {
        let python = "/usr/bin/python3"
        guard runQuietly(python, ["-c", "import jsonschema; jsonschema.Draft202012Validator"]) else {
            return XCTFail("Debian's python3-jsonschema is missing: scripts/install-deps installs it")
        }
        let store = try standard()
        let keys = declaredKeys(store)
        let schema = PrefSchema(title: app, keys: [keys.volume, keys.theme, keys.name, keys.when, keys.old])
        let schemaFile = root.path + "/schema.json"
        try schema.jsonData().write(to: URL(fileURLWithPath: schemaFile))
        try keys.volume.put(70)
        keys.theme.value = .dark
        try keys.name.put("ada")
        keys.when.value = Date(timeIntervalSince1970: 1_796_637_600.25)
        keys.old.value = true
        try store.flush()
        let check = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1])); jsonschema.Draft202012Validator.check_schema(schema)
            errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2])))]
            print("valid" if not errors else "; ".join(errors))
            """
        let valid = try runCommand(python, ["-c", check, schemaFile, standardPath])
        XCTAssertEqual(valid.stdout, "valid\n", valid.stderr)
        // The validator refuses what we refuse: a hand edit out of range.
        let edited = root.path + "/edited.json"
        let text = try String(contentsOfFile: standardPath, encoding: .utf8).replacingOccurrences(of: "\"volume\": 70", with: "\"volume\": 700")
        try text.write(toFile: edited, atomically: true, encoding: .utf8)
        let invalid = try runCommand(python, ["-c", check, schemaFile, edited])
        XCTAssertTrue(invalid.stdout.contains("700 is greater than the maximum of 100"), invalid.stdout + invalid.stderr)
    }
}
