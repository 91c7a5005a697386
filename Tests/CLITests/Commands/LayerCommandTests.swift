import Foundation
import XCTest

/// The command line over an administrator's layers and an installed schema: `get --source`,
/// `writable`, `describe`, `range`, `list`'s SOURCE column, `set`/`delete`/`import` refused on a
/// locked key (exit 8) or outside the schema (exit 2), and `doctor`'s account of the layers.
final class LayerCommandTests: XCTestCase {
    private var cli: CLIHarness!
    private var layers: AdministratorLayers!

    override func setUpWithError() throws {
        cli = try CLIHarness()
        layers = AdministratorLayers()
        for (name, value) in layers.environment { cli.environment[name] = value }
        cli.environment["XDG_DATA_HOME"] = cli.root + "/data-home"
    }

    private var app: String { cli.appID }

    private func installSchema() throws -> String {
        try layers.installSchema(Data(#"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "CLI test",
             "properties": {
               "daily_goal": {"type": "integer", "title": "Daily goal", "description": "Lessons a day.", "minimum": 1, "maximum": 20, "default": 3},
               "theme_mode": {"type": "string", "enum": ["light", "dark", "system"], "default": "system", "title": "Theme"},
               "legacy": {"type": "boolean", "deprecated": true, "deprecationMessage": "use theme_mode"}
             }}
            """#.utf8), app: app, suite: app)
    }

    func testGetSourceAndWritableNameTheLayerAndFile() throws {
        let lock = try layers.write("managed", app: app, suite: app, #"{"update_channel": "stable"}"#)
        let defaults = try layers.write("defaults", app: app, suite: app, #"{"volume": 30}"#)
        try cli.run("set", "theme", "dark")

        var result = try cli.run("get", "update_channel", "--source")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "stable\nmanaged \(lock)\n")
        result = try cli.run("get", "volume", "--source")
        XCTAssertEqual(result.stdout, "30\ndefaults \(defaults)\n")
        result = try cli.run("get", "theme", "--source")
        XCTAssertEqual(result.stdout, "dark\nuser \(cli.standardPath)\n")
        XCTAssertEqual(try cli.run("writable", "update_channel").stdout, "false\n")
        XCTAssertEqual(try cli.run("writable", "theme").stdout, "true\n")
        XCTAssertEqual(try cli.run("writable", "never_set").stdout, "true\n")
    }

    func testSetDeleteAndImportOfALockedKeyExit8NamingTheFileAndWriteNothing() throws {
        let lock = try layers.write("managed", app: app, suite: app, #"{"update_channel": "stable"}"#)
        try cli.run("set", "other", "1", "--int")
        let before = try XCTUnwrap(cli.bytes(cli.standardPath))

        for arguments in [["set", "update_channel", "beta"], ["delete", "update_channel"]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 8, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, "rizq-prefs: key 'update_channel' is locked by an administrator in \(lock); nothing was written\n", "\(arguments)")
            XCTAssertEqual(result.stdout, "")
        }
        let input = cli.root + "/import.json"
        try Data(#"{"update_channel": "beta", "other": 2}"#.utf8).write(to: URL(fileURLWithPath: input))
        let imported = try cli.run("import", input)
        XCTAssertEqual(imported.status, 8, imported.stderr)
        XCTAssertTrue(imported.stderr.contains(lock), imported.stderr)
        XCTAssertEqual(cli.bytes(cli.standardPath), before, "nothing was written")
        XCTAssertTrue(try cli.run("--help").stdout.contains("8  the key is locked by an administrator"))
    }

    func testDescribeAndRangeReadTheInstalledSchema() throws {
        let schema = try installSchema()
        try cli.run("set", "daily_goal", "5")
        let described = try cli.run("describe", "daily_goal")
        XCTAssertEqual(described.status, 0, described.stderr)
        XCTAssertEqual(described.stdout, """
            key:          daily_goal
            title:        Daily goal
            description:  Lessons a day.
            type:         integer
            default:      3
            allowed:      an integer from 1 to 20
            writable:     true
            value:        5
            layer:        user
            file:         \(cli.standardPath)
            schema:       \(schema)

            """)
        let json = try cli.run("describe", "legacy", "--json")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["deprecated"] as? String, "use theme_mode")
        XCTAssertEqual(object["writable"] as? Bool, true)

        XCTAssertEqual(try cli.run("range", "daily_goal").stdout, "range integer 1 20\n")
        XCTAssertEqual(try cli.run("range", "theme_mode").stdout, "enum\n\"light\"\n\"dark\"\n\"system\"\n")
        XCTAssertEqual(try cli.run("range", "legacy").stdout, "type boolean\n")
        let unknown = try cli.run("range", "nope")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("does not describe key 'nope'"), unknown.stderr)
        XCTAssertEqual(try cli.run("describe", "nope").status, 1)
    }

    func testSetRefusesAValueOutsideTheSchemaAndTakesTheSchemasType() throws {
        _ = try installSchema()
        try cli.run("set", "daily_goal", "4")
        let before = try XCTUnwrap(cli.bytes(cli.standardPath))
        var result = try cli.run("set", "daily_goal", "50")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("50 is not allowed: the key takes an integer from 1 to 20"), result.stderr)
        result = try cli.run("set", "theme_mode", "purple")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains(#"the key takes one of "light", "dark", "system""#), result.stderr)
        XCTAssertEqual(cli.bytes(cli.standardPath), before, "nothing was written")
        // With no type given, the schema's type: an integer, not the string "7".
        XCTAssertEqual(try cli.run("set", "daily_goal", "7").status, 0)
        XCTAssertEqual(try cli.run("get", "daily_goal", "--json").stdout, "7\n")
    }

    func testListShowsWhereEachValueComesFromAndTheSchemasKeysWithNoValue() throws {
        _ = try installSchema()
        try layers.write("managed", app: app, suite: app, #"{"theme_mode": "light"}"#, dropIn: "10-theme.json")
        try layers.write("defaults", app: app, suite: app, #"{"daily_goal": 2}"#)
        try cli.run("set", "volume", "3", "--int")
        let listed = try cli.run("list")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let rows = listed.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertEqual(rows.first, ["KEY", "TYPE", "VALUE", "SOURCE"])
        XCTAssertTrue(rows.contains(["daily_goal", "int", "2", "defaults", "(com.rizq.clitest.json)"]), listed.stdout)
        XCTAssertTrue(rows.contains(["legacy", "schema", "(no", "value)"]), listed.stdout)
        XCTAssertTrue(rows.contains(["theme_mode", "string", "\"light\"", "managed", "(10-theme.json)"]), listed.stdout)
        XCTAssertTrue(rows.contains(["volume", "int", "3", "user"]), listed.stdout)
        // Export writes the suite file's own keys.
        let exported = try cli.run("export")
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Int], ["volume": 3])
    }

    func testWatchReportsALockAppearingAndGoing() throws {
        try cli.run("set", "update_channel", "beta")
        let watch = try cli.start(["watch", "update_channel", "--json"])
        XCTAssertTrue(watch.wait { _, err in err.contains("watching suite") }, watch.stderr)
        let lock = try layers.write("managed", app: app, suite: app, #"{"update_channel": "stable"}"#)
        XCTAssertTrue(watch.wait { out, _ in out.contains(#""value":"stable""#) }, watch.stdout)
        try layers.remove(lock)
        XCTAssertTrue(watch.wait { out, _ in out.contains(#""value":"beta""#) }, watch.stdout)
        XCTAssertEqual(watch.stop(with: SIGTERM), 0)
    }

    func testWithNoLayerListPrintsAsBefore() throws {
        try cli.run("set", "volume", "3", "--int")
        XCTAssertEqual(try cli.run("list").stdout.split(separator: "\n").first, "KEY     TYPE  VALUE")
    }

    func testDoctorNamesTheLayerFoldersTheFilesReadAndEveryFileLeftOut() throws {
        let schema = try installSchema()
        let lock = try layers.write("managed", app: app, suite: app, #"{"update_channel": "stable"}"#)
        let planted = try layers.write("managed", app: app, suite: app, #"{"update_url": "https://attacker.example"}"#, dropIn: "99-planted.json")
        XCTAssertEqual(chown(planted, 65534, 65534), 0)
        // A value the schema forbids, written by hand into the suite file (which stays private).
        try cli.run("set", "theme_mode", "dark")
        try Data(#"{"daily_goal": 99}"#.utf8).write(to: URL(fileURLWithPath: cli.standardPath))
        XCTAssertEqual(chmod(cli.standardPath, 0o600), 0)
        let doctor = try cli.run("doctor", "--skip-secrets")
        XCTAssertTrue(doctor.stdout.contains("An administrator's layers and installed schemas"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("\(layers.configDirectories[0])/rizq-prefs/managed: managed layer folder: read"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("\(lock): suite \(app): managed sets update_channel"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("\(schema): suite \(app): schema describes daily_goal, legacy, theme_mode"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("\(planted): suite \(app): managed layer: left out: it belongs to user 65534"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("the stored value of 'daily_goal' breaks the suite's schema (99 is not allowed"), doctor.stdout)
        XCTAssertEqual(doctor.status, 0, "warnings do not fail doctor: \(doctor.stdout)")
        XCTAssertEqual(try cli.run("get", "daily_goal").stdout, "3\n", "the bad value reads as the schema's default")
    }
}
