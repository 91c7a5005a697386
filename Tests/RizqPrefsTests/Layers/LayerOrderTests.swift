import Foundation
import XCTest
@testable import RizqPrefs

/// Which layer wins: managed over the user over an administrator's defaults over the schema's
/// defaults over the registered ones; the first `$XDG_CONFIG_DIRS` folder over a later one; a
/// later drop-in over an earlier one and over the main file.
final class LayerOrderTests: LayerTestCase {
    func testEachLayerAnswersWhereTheLayersAboveItHaveNoValue() throws {
        let managed = try layers.write("managed", app: app, suite: app, #"{"a": "managed"}"#)
        let defaults = try layers.write("defaults", app: app, suite: app, #"{"a": "defaults", "b": "defaults", "c": "defaults"}"#)
        let schema = PrefSchema(properties: [
            "a": .init(defaultValue: "schema"), "b": .init(defaultValue: "schema"), "c": .init(defaultValue: "schema"), "d": .init(defaultValue: "schema"),
        ])
        let schemaPath = try layers.installSchema(schema.jsonData(), app: app, suite: app)
        let store = try standard()
        store.register(defaults: ["a": "registered", "b": "registered", "c": "registered", "d": "registered", "e": "registered"])
        store.set("user", forKey: "a")
        store.set("user", forKey: "b")

        XCTAssertEqual(store.string(forKey: "a"), "managed")
        XCTAssertEqual(store.string(forKey: "b"), "user")
        XCTAssertEqual(store.string(forKey: "c"), "defaults")
        XCTAssertEqual(store.string(forKey: "d"), "schema")
        XCTAssertEqual(store.string(forKey: "e"), "registered")
        XCTAssertNil(store.string(forKey: "f"))
        XCTAssertEqual(store.source(forKey: "a"), ValueSource(layer: .managed, path: managed))
        XCTAssertEqual(store.source(forKey: "b"), ValueSource(layer: .user, path: standardPath))
        XCTAssertEqual(store.source(forKey: "c"), ValueSource(layer: .defaults, path: defaults))
        XCTAssertEqual(store.source(forKey: "d"), ValueSource(layer: .schema, path: schemaPath))
        XCTAssertEqual(store.source(forKey: "e"), ValueSource(layer: .registered, path: nil))
        XCTAssertNil(store.source(forKey: "f"))
        let all = store.dictionaryRepresentation()
        XCTAssertEqual(all["a"] as? String, "managed")
        XCTAssertEqual(all["c"] as? String, "defaults")
        XCTAssertEqual(all["d"] as? String, "schema")
        XCTAssertEqual(all["e"] as? String, "registered")
        // Removing the user's value lets the defaults answer again.
        store.removeObject(forKey: "b")
        XCTAssertEqual(store.string(forKey: "b"), "defaults")
    }

    func testTheFirstConfigFolderWinsAndALaterDropInWinsWithinAFolder() throws {
        try layers.write("defaults", app: app, suite: app, #"{"x": "second folder", "y": "second folder", "only-second": 2}"#, directory: 1)
        try layers.write("defaults", app: app, suite: app, #"{"x": "main", "y": "main", "z": "main"}"#, directory: 0)
        try layers.write("defaults", app: app, suite: app, #"{"x": "10-early"}"#, dropIn: "10-early.json", directory: 0)
        let late = try layers.write("defaults", app: app, suite: app, #"{"x": "90-late", "y": "90-late"}"#, dropIn: "90-late.json", directory: 0)
        try layers.write("defaults", app: app, suite: app, #"{"x": "not json files are not drop-ins"}"#, dropIn: "99-notes.txt", directory: 0)
        try layers.write("defaults", app: app, suite: app, #"{"x": "hidden"}"#, dropIn: ".99-editor-backup.json", directory: 0)
        let store = try standard()
        XCTAssertEqual(store.string(forKey: "x"), "90-late")
        XCTAssertEqual(store.string(forKey: "y"), "90-late")
        XCTAssertEqual(store.string(forKey: "z"), "main")
        XCTAssertEqual(store.integer(forKey: "only-second"), 2, "a later folder still answers for what the first does not set")
        XCTAssertEqual(store.source(forKey: "x")?.path, late)
    }

    func testValuesKeepTheirTypesDatesAndDataIncluded() throws {
        try layers.write("managed", app: app, suite: app, #"""
            {"when": {"$date": "2026-12-07T10:00:00.250Z"}, "blob": {"$data": "AAEC/w=="}, "ratio": 1.0, "count": 3,
             "nested": {"list": [1, "two", {"$date": "2026-01-01T00:00:00Z"}]}}
            """#)
        let store = try standard()
        XCTAssertEqual(store.value(forKey: "when", as: Date.self)?.timeIntervalSince1970, 1_796_637_600.25)
        XCTAssertEqual(store.data(forKey: "blob"), Data([0, 1, 2, 255]))
        XCTAssertEqual(store.prefValue(forKey: "ratio"), .double(1.0))
        XCTAssertEqual(store.prefValue(forKey: "count"), .int(3))
        guard case .dictionary(let nested)? = store.prefValue(forKey: "nested"), case .array(let list)? = nested["list"] else {
            return XCTFail("nested value lost its shape")
        }
        XCTAssertEqual(list.count, 3)
        if case .date = list[2] {} else { XCTFail("a nested tagged date stays a date: \(list[2])") }
    }

    func testWithNoLayerFileTheSuiteReadsAsBefore() throws {
        let store = try standard()
        store.set(1, forKey: "k")
        XCTAssertNil(store.openSuite.memory.layers.inForce, "no layer in force: reads take the plain path")
        XCTAssertFalse(store.objectIsForced(forKey: "k"))
        XCTAssertEqual(store.source(forKey: "k")?.layer, .user)
        XCTAssertEqual(store.layerReport.files, [])
        XCTAssertEqual(store.layerReport.skipped, [])
        XCTAssertEqual(store.layerReport.folders.count, 2 * 2 + 2, "two config folders for each of two layers, and two data folders, looked in")
    }
}
