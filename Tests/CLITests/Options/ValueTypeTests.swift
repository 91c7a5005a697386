import Foundation
import RizqJSON
import RizqPrefs
import XCTest

/// get, set, delete, list: every type, every exit status, nothing written on bad input.
final class ValueTypeTests: XCTestCase {
    func testEveryTypeIsStoredAsThatTypeAndReadBack() throws {
        let cli = try CLIHarness()
        let cases: [(arguments: [String], key: String, expected: PrefValue)] = [
            (["--type", "string"], "s", .string("hello wörld ☪︎")),
            ([], "plain", .string("42")),
            (["--type", "bool"], "b1", .bool(true)),
            (["--bool"], "b2", .bool(false)),
            (["--type", "int"], "i1", .int(Int.max)),
            (["--int"], "i2", .int(-7)),
            (["--double"], "d3", .double(-0.5)),
            (["--type", "double"], "d1", .double(1.0)),
            (["--double"], "d2", .double(0.1)),
            (["--type", "date"], "t1", .date(Date(timeIntervalSince1970: 1_795_000_000.123))),
            (["--date"], "t2", .date(Date(timeIntervalSince1970: 1_700_000_000))),
            (["--type", "data"], "x1", .data(Data([0, 1, 2, 255]))),
            (["--data"], "x2", .data(Data("hi".utf8))),
            (["--type", "json"], "j1", ["dailyGoal": 3, "slots": ["fajr", "isha"]]),
            (["--json"], "j2", [1, 2.5, "three"]),
        ]
        let texts = ["s": "hello wörld ☪︎", "plain": "42", "b1": "yes", "b2": "false", "i1": "\(Int.max)", "i2": "-7",
                     "d1": "1", "d2": "0.1", "d3": "-0.5", "t1": "2026-11-18T11:06:40.123Z", "t2": "@1700000000", "x1": "AAEC/w==",
                     "x2": "aGk=", "j1": #"{"dailyGoal": 3, "slots": ["fajr", "isha"]}"#, "j2": #"[1, 2.5, "three"]"#]
        for (arguments, key, _) in cases {
            let result = try cli.run(["set", key, texts[key] ?? ""] + arguments)
            XCTAssertEqual(result.status, 0, "\(key): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "set prints nothing on success")
        }
        // On disk, in the file format, with the right types.
        let stored = try XCTUnwrap(JSONReader.parse(try XCTUnwrap(cli.bytes(cli.standardPath))))
        guard case .dictionary(let entries) = stored else { return XCTFail("not an object") }
        for (_, key, expected) in cases {
            XCTAssertEqual(entries[key], expected, key)
            // And through get --json, in a new process.
            let read = try cli.run("get", key, "--json")
            XCTAssertEqual(read.status, 0)
            XCTAssertEqual(read.stdout, try JSONWriter.string(expected) + "\n", key)
        }
        // The library sees what the CLI wrote, typed.
        let store = try SuiteStore(suite: cli.appID, appID: cli.appID, root: cli.root)
        XCTAssertEqual(store.integer(forKey: "i1"), Int.max)
        XCTAssertEqual(store.value(forKey: "d1", as: Double.self), 1.0)
        XCTAssertEqual(store.string(forKey: "plain"), "42")
    }

    func testGetPrintsStringsRawOtherValuesAsJSONAndNothingElse() throws {
        let cli = try CLIHarness()
        try cli.run("set", "theme_mode", "dark")
        try cli.run("set", "multi", "line one\nline two")
        try cli.run("set", "streak", "12", "--int")
        XCTAssertEqual(try cli.run("get", "theme_mode").stdout, "dark\n")
        XCTAssertEqual(try cli.run("get", "multi").stdout, "line one\nline two\n")
        XCTAssertEqual(try cli.run("get", "theme_mode", "--json").stdout, "\"dark\"\n")
        let streak = try cli.run("get", "streak")
        XCTAssertEqual(streak.stdout, "12\n")
        XCTAssertEqual(streak.stderr, "")
    }

    func testMissingKeysExitOneWithAMessageOnStderr() throws {
        let cli = try CLIHarness()
        try cli.run("set", "present", "x")
        let get = try cli.run("get", "absent")
        XCTAssertEqual(get.status, 1)
        XCTAssertEqual(get.stdout, "")
        XCTAssertTrue(get.stderr.hasPrefix("rizq-prefs: no key 'absent'"), get.stderr)
        XCTAssertEqual(get.stderr.filter { $0 == "\n" }.count, 1, "one line")
        XCTAssertEqual(try cli.run("delete", "absent").status, 1)
        XCTAssertEqual(try cli.run("delete", "present").status, 0)
        XCTAssertEqual(try cli.run("get", "present").status, 1, "deleted, durably")
        XCTAssertEqual(try cli.run("delete", "present").status, 1)
    }

    func testValuesThatDoNotParseAreRefusedWithExitTwoAndNothingIsWritten() throws {
        let cli = try CLIHarness()
        try cli.run("set", "keep", "original")
        let before = try XCTUnwrap(cli.bytes(cli.standardPath))
        let bad: [[String]] = [
            ["--int", "12.5"], ["--int", "99999999999999999999"], ["--int", "twelve"], ["--bool", "maybe"],
            ["--double", "nan"], ["--double", "inf"], ["--double", "1,5"], ["--date", "yesterday"], ["--date", "2026-13-01"],
            ["--data", "not base64!"], ["--json", "{\"a\": "], ["--json", "null"], ["--type", "colour", "x"],
        ]
        for arguments in bad {
            let value = arguments.count == 2 ? arguments[1] : arguments[2]
            let flags = arguments.count == 2 ? [arguments[0]] : Array(arguments[0...1])
            let result = try cli.run(["set", "keep", value] + flags)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("rizq-prefs: "), result.stderr)
            XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
            XCTAssertEqual(cli.bytes(cli.standardPath), before, "nothing written for \(arguments)")
        }
        XCTAssertTrue(try cli.run("set", "keep", "x", "--int").stderr.contains("expected a whole number"), "the message says what the type accepts")
        XCTAssertEqual(try cli.run("set", "keep", "1", "--type", "int", "--bool").status, 2, "two types that disagree")
    }

    func testUsageErrorsExitTwo() throws {
        let cli = try CLIHarness()
        for arguments in [["frobnicate"], ["get"], ["set", "only-key"], ["get", "k", "--no-such-option"], ["list", "--suite"]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertTrue(result.stderr.contains("--help"), "points to help: \(result.stderr)")
        }
        // No app and no suite: nothing to work on.
        let noApp = try cli.run(["get", "k"], environment: ["RIZQ_PREFS_APP_ID": nil])
        XCTAssertEqual(noApp.status, 2)
        XCTAssertTrue(noApp.stderr.contains("--app"), noApp.stderr)
    }

    func testInvalidSuiteNamesExitTwoAndCreateNothing() throws {
        let cli = try CLIHarness()
        for name in ["../escape", "a/b", "", ".hidden", "group../x", String(repeating: "x", count: 300)] {
            let result = try cli.run("set", "--suite", name, "k", "v")
            XCTAssertEqual(result.status, 2, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("invalid suite name"), result.stderr)
        }
        let created = (FileManager.default.enumerator(atPath: cli.root)?.allObjects as? [String]) ?? []
        XCTAssertEqual(created, [], "no file or folder was created")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.root + "/../escape.json"))
    }

    func testKeysMayHoldDotsAtSpacesAndAnyUnicode() throws {
        let cli = try CLIHarness()
        for key in ["-1", "firebase:authUser:x:[DEFAULT]", "a.b.c", "@@user@@", "with space", "مفتاح", "🔑"] {
            XCTAssertEqual(try cli.run("set", key, "v-\(key)").status, 0)
            XCTAssertEqual(try cli.run("get", key).stdout, "v-\(key)\n")
        }
    }

    func testListIsAnAlignedTableOrOneJSONObject() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("list").stdout, "", "an empty suite lists nothing")
        XCTAssertEqual(try cli.run("list", "--json").stdout, "{}\n")
        try cli.run("set", "current_streak", "12", "--int")
        try cli.run("set", "theme_mode", "dark")
        try cli.run("set", "ids", "[3, 7]", "--json")
        let table = try cli.run("list").stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(table, [
            "KEY             TYPE    VALUE",
            "current_streak  int     12",
            "ids             array   [3,7]",
            "theme_mode      string  \"dark\"",
        ])
        let json = try cli.run("list", "--json")
        XCTAssertEqual(try JSONReader.parse(json.stdout), ["current_streak": 12, "ids": [3, 7], "theme_mode": "dark"])
    }

    func testGroupSuitesAreSharedByEveryApp() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "--suite", "group.com.rizq.app", "--app", "com.rizq.one", "current_streak", "5", "--int").status, 0)
        let other = try cli.run("get", "--suite", "group.com.rizq.app", "--app", "com.rizq.widget", "current_streak")
        XCTAssertEqual(other.stdout, "5\n")
        XCTAssertNotNil(cli.bytes(cli.groupPath("group.com.rizq.app")))
        // Without any app at all, a group suite still opens.
        XCTAssertEqual(try cli.run(["get", "--suite", "group.com.rizq.app", "current_streak"], environment: ["RIZQ_PREFS_APP_ID": nil]).stdout, "5\n")
    }
}
