import Foundation
import XCTest
@testable import RizqPrefs

/// Issue 29, item 8: a schema records which app migrated the suite to which version, and a
/// second app whose own stages do not run on that file — two apps with different schemas on one
/// app-group suite — is told so in the log (a warning), never left in silence.
final class SchemaSharedByTwoAppsTests: XCTestCase {
    func testASecondAppWithItsOwnSchemaAtTheSameVersionIsWarned() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.shared-schema"
        try Self.seed(root.filePath(suite))
        let first = try SchemaChild.run(root, suite, ["app", "com.rizq.first", "1"])
        XCTAssertEqual(first.lines, ["version 1", "ran 1"], first.stderr)
        XCTAssertFalse(first.stderr.contains("warning"), first.stderr)
        let text = String(decoding: try XCTUnwrap(root.fileBytes(suite)), as: UTF8.self)
        XCTAssertTrue(text.contains("com.rizq.first"), "the file records the app: \(text)")

        let second = try SchemaChild.run(root, suite, ["app", "com.rizq.second", "1"])
        XCTAssertEqual(second.lines, ["version 1", "ran 0"], second.stderr)
        XCTAssertTrue(second.stderr.contains("com.rizq.first"), "the second app is told whose schema the data has: \(second.stderr)")
        XCTAssertTrue(second.stderr.contains("warning"), second.stderr)

        let again = try SchemaChild.run(root, suite, ["app", "com.rizq.first", "1"])
        XCTAssertFalse(again.stderr.contains("warning"), "the app that migrated it hears nothing: \(again.stderr)")
    }

    func testASecondAppWithAnOlderSchemaOrAHigherOneIsWarnedToo() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.shared-schema2"
        try Self.seed(root.filePath(suite))
        XCTAssertEqual(try SchemaChild.run(root, suite, ["app", "com.rizq.first", "2"]).lines, ["version 2", "ran 2"])
        let older = try SchemaChild.run(root, suite, ["app", "com.rizq.second", "1"])
        XCTAssertTrue(older.stderr.contains("com.rizq.first"), older.stderr)
        let newer = try SchemaChild.run(root, suite, ["app", "com.rizq.second", "3"])
        XCTAssertEqual(newer.lines, ["version 3", "ran 1"], newer.stderr)
        XCTAssertTrue(newer.stderr.contains("com.rizq.first"), "its stage ran over another app's data: \(newer.stderr)")
    }

    /// A suite file of schema version 0, as an app wrote it before it declared a schema.
    static func seed(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(#"{"seed": 1}"#.utf8).write(to: URL(fileURLWithPath: path))
    }
}
