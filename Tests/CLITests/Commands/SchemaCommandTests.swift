import Foundation
import RizqJSON
import RizqPrefs
import XCTest

/// `rizq-prefs schema`, and the schema version as every other command sees it: list, get,
/// export, set and import never show or take it as a key; doctor reports it.
final class SchemaCommandTests: XCTestCase {
    private func write(_ text: String, at path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func testSchemaPrintsTheVersionTheFileRecordsAndZeroWithoutOne() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("schema").stdout, "0\n", "no file")
        XCTAssertNil(cli.bytes(cli.standardPath), "schema creates no file")
        try cli.run("set", "k", "v")
        XCTAssertEqual(try cli.run("schema").stdout, "0\n", "a file without the member")

        try write(#"{"$schemaVersion": 4, "k": "v"}"#, at: cli.standardPath)
        let text = try cli.run("schema")
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "4\n")
        let json = try cli.run("schema", "--json")
        XCTAssertEqual(
            try JSONReader.parse(json.stdout),
            ["suite": .string(cli.appID), "path": .string(cli.standardPath), "exists": true, "version": 4])

        let group = "group.com.rizq.app"
        try write(#"{"$schemaVersion": 2}"#, at: cli.groupPath(group))
        XCTAssertEqual(try cli.run("schema", "--suite", group).stdout, "2\n")
    }

    func testTheVersionIsNoKeyForListGetExportOrSetAndWritesKeepIt() throws {
        let cli = try CLIHarness()
        try write(#"{"$schemaVersion": 4, "k": "v"}"#, at: cli.standardPath)
        XCTAssertEqual(try JSONReader.parse(try cli.run("list", "--json").stdout), ["k": "v"])
        XCTAssertFalse(try cli.run("list").stdout.contains("schemaVersion"))
        XCTAssertEqual(try cli.run("get", "$schemaVersion").status, 1, "not a key: absent")
        XCTAssertEqual(try JSONReader.parse(try cli.run("export").stdout), ["k": "v"])

        let refused = try cli.run("set", "$schemaVersion", "5", "--int")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("reserved for the suite's schema version"), refused.stderr)
        XCTAssertEqual(try cli.run("schema").stdout, "4\n", "the refused set changed nothing")

        try cli.run("set", "k2", "v2")
        try cli.run("delete", "k")
        let file = try JSONReader.parse(String(decoding: try XCTUnwrap(cli.bytes(cli.standardPath)), as: UTF8.self))
        XCTAssertEqual(file, ["$schemaVersion": 4, "k2": "v2"], "every write carries the version over")
    }

    func testImportTakesTheMemberOnlyAtTheSuitesVersion() throws {
        let cli = try CLIHarness()
        try write(#"{"$schemaVersion": 2, "k": "v"}"#, at: cli.standardPath)
        let same = try cli.run("import", "-", stdin: #"{"$schemaVersion": 2, "a": 1}"#)
        XCTAssertEqual(same.status, 0, same.stderr)
        let other = try cli.run("import", "-", stdin: #"{"$schemaVersion": 3, "b": 1}"#)
        XCTAssertEqual(other.status, 2)
        XCTAssertTrue(other.stderr.contains("records schema version 3") && other.stderr.contains("nothing was imported"), other.stderr)
        let file = try JSONReader.parse(String(decoding: try XCTUnwrap(cli.bytes(cli.standardPath)), as: UTF8.self))
        XCTAssertEqual(file, ["$schemaVersion": 2, "k": "v", "a": 1])
    }

    func testDoctorReportsTheVersionAndAMemberThatIsNoVersion() throws {
        let cli = try CLIHarness()
        try write(#"{"$schemaVersion": 3, "k": "v"}"#, at: cli.standardPath)
        chmod(cli.standardPath, 0o600)
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertEqual(doctor.status, 0, doctor.stdout + doctor.stderr)
        XCTAssertTrue(doctor.stdout.contains("1 key, schema version 3, valid JSON"), doctor.stdout)

        try write(#"{"$schemaVersion": "three", "k": "v"}"#, at: cli.standardPath)
        chmod(cli.standardPath, 0o600)
        let warned = try cli.run("doctor", "--skip-secrets")
        XCTAssertTrue(warned.stdout.contains("not a schema version"), warned.stdout)
        let schema = try cli.run("schema")
        XCTAssertEqual(schema.stdout, "0\n")
        XCTAssertTrue(schema.stderr.contains("not a schema version"), schema.stderr)
    }
}
