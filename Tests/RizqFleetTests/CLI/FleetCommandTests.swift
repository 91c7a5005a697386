import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing

/// `rizq-prefs fleet …` as a user runs it: through `rizq-prefs` (which executes
/// `rizq-prefs-fleet`), with the local commands' value types, exit statuses and messages.
@Suite struct FleetCommandTests {
    let server: PostgresServer
    let root = temporaryRoot("cli")

    init() throws {
        server = try PostgresServer.shared()
    }

    /// Runs `rizq-prefs fleet ARGUMENTS --engine … --suite suite` as one host (its own cache).
    @discardableResult
    func fleet(_ arguments: [String], suite: String, input: String? = nil, host: String = "cli-host", engine: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root + "/" + host
        environment["RIZQ_PREFS_REPLICA_ID"] = host
        environment["PGPASSWORD"] = server.password
        return try runCommand(productsFolder + "/rizq-prefs", ["fleet"] + arguments + ["--engine", engine ?? server.url, "--suite", suite], input: input, environment: environment)
    }

    @Test func setGetListDeleteWithTheLocalCommandsTypesAndStatuses() throws {
        let suite = uniqueSuite("cli")
        #expect(try fleet(["set", "feature.newCheckout", "true", "--bool"], suite: suite).status == 0)
        #expect(try fleet(["set", "http.timeout", "45", "--int"], suite: suite).status == 0)
        #expect(try fleet(["set", "offset", "-7", "--int"], suite: suite).status == 0, "negative numbers as for local suites")
        #expect(try fleet(["set", "prefs", #"{"dailyGoal": 3}"#, "--json"], suite: suite).status == 0)
        #expect(try fleet(["set", "greeting", "héllo"], suite: suite).status == 0)

        // Another host reads them.
        #expect(try fleet(["get", "http.timeout"], suite: suite, host: "other").stdout == "45\n")
        #expect(try fleet(["get", "greeting"], suite: suite, host: "other").stdout == "héllo\n")
        #expect(try fleet(["get", "greeting", "--json"], suite: suite, host: "other").stdout == "\"héllo\"\n")
        #expect(try fleet(["get", "offset"], suite: suite, host: "other").stdout == "-7\n")
        let list = try fleet(["list"], suite: suite, host: "other")
        #expect(list.status == 0)
        #expect(list.stdout.contains("http.timeout         int         45\n"), "\(list.stdout)")
        #expect(try fleet(["list", "--json"], suite: suite, host: "other").stdout
            == #"{"feature.newCheckout":true,"greeting":"héllo","http.timeout":45,"offset":-7,"prefs":{"dailyGoal":3}}"# + "\n")

        let absent = try fleet(["get", "nope"], suite: suite)
        #expect(absent.status == 1)
        #expect(absent.stderr.contains("no key 'nope' in fleet suite"))
        #expect(try fleet(["delete", "offset"], suite: suite, host: "other").status == 0)
        #expect(try fleet(["get", "offset"], suite: suite).status == 1, "the deletion reached the first host")
        #expect(try fleet(["delete", "offset"], suite: suite).status == 1, "exit 1 when the key is not there")

        let bad = try fleet(["set", "n", "twelve", "--int"], suite: suite)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("twelve"))
        #expect(try fleet(["get", "n"], suite: suite).status == 1, "nothing was written")
    }

    @Test func aCredentialIsRefusedWithExit2AndNeverWritten() throws {
        let suite = uniqueSuite("cli-secret")
        let token = "ghp_" + String(repeating: "a1B2", count: 9)
        let result = try fleet(["set", "deploy.key", token], suite: suite)
        #expect(result.status == 2)
        #expect(result.stderr.contains("looks like a credential"))
        #expect(!result.stderr.contains(token), "the message never repeats the value")
        #expect(try fleet(["get", "deploy.key"], suite: suite, host: "other").status == 1)
    }

    @Test func aPasswordOnTheCommandLineIsRefused() throws {
        let suite = uniqueSuite("cli-password")
        let url = "postgres://\(server.value("USER")):\(server.password)@\(server.value("HOST")):\(server.value("PORT"))/\(server.value("DB"))"
        let result = try fleet(["get", "k"], suite: suite, engine: url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("PGPASSWORD"))
        #expect(!result.stderr.contains(server.password))
    }

    @Test func anUnreachableEngineIsExit5ForWritesAndTheCacheForReads() throws {
        let suite = uniqueSuite("cli-down")
        #expect(try fleet(["set", "mode", "on"], suite: suite).status == 0)
        let down = "postgres://nobody@127.0.0.1:1/none?sslmode=disable"
        let write = try fleet(["set", "mode", "off", "--timeout", "2"], suite: suite, engine: down)
        #expect(write.status == 6)
        #expect(write.stderr.contains("unavailable"))
        let read = try fleet(["get", "mode", "--timeout", "2"], suite: suite, engine: down)
        #expect(read.status == 0)
        #expect(read.stdout == "on\n", "from this host's cache")
        #expect(read.stderr.contains("answering from this host's cache"))
    }

    @Test func exportAndImportAreReviewableJSON() throws {
        let suite = uniqueSuite("cli-export")
        try fleet(["set", "b", "2", "--int"], suite: suite)
        try fleet(["set", "a", "one"], suite: suite)
        try fleet(["set", "when", "2026-11-22T13:47:00Z", "--date"], suite: suite)
        let exported = try fleet(["export"], suite: suite, host: "reviewer")
        #expect(exported.status == 0)
        #expect(exported.stdout == """
            {
              "a": "one",
              "b": 2,
              "when": {"$date": "2026-11-22T13:47:00Z"}
            }

            """, "\(exported.stdout)")
        let edited = #"{"a": "uno", "b": 2, "c": [1, 2], "when": null}"#
        let imported = try fleet(["import", "-"], suite: suite, input: edited, host: "reviewer")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 3 changes"), "a changed, c added, when removed; b as it was: \(imported.stdout)")
        #expect(try fleet(["list", "--json"], suite: suite).stdout == #"{"a":"uno","b":2,"c":[1,2]}"# + "\n")
        let replaced = try fleet(["import", "-", "--replace"], suite: suite, input: #"{"c": [1, 2]}"#)
        #expect(replaced.status == 0)
        #expect(try fleet(["list", "--json"], suite: suite, host: "reviewer").stdout == #"{"c":[1,2]}"# + "\n")
        let refused = try fleet(["import", "-"], suite: suite, input: #"{"ok": 1, "token": "sk_live_51H8abcdefghijklmnopqrstuvwx"}"#)
        #expect(refused.status == 2)
        #expect(try fleet(["get", "ok"], suite: suite).status == 1, "nothing of a refused import is written")
        #expect(try fleet(["import", "-"], suite: suite, input: "[1]").status == 2)
    }

    @Test func rizqPrefsItselfLinksNoNIO() throws {
        // rizq-prefs executes rizq-prefs-fleet; NIO and postgres-nio are only in the latter.
        func mentions(_ product: String, _ module: String) throws -> Bool {
            let data = try Data(contentsOf: URL(fileURLWithPath: productsFolder + "/" + product))
            return data.range(of: Data(module.utf8)) != nil
        }
        #expect(try mentions("rizq-prefs-fleet", "11PostgresNIO"), "the check finds the modules where they are")
        #expect(try mentions("rizq-prefs-fleet", "8NIOPosix"))
        #expect(try !mentions("rizq-prefs", "11PostgresNIO"))
        #expect(try !mentions("rizq-prefs", "8NIOPosix"))
        #expect(try !mentions("rizq-prefs", "7NIOCore"))
        let help = try runCommand(productsFolder + "/rizq-prefs", ["--help"])
        #expect(help.stdout.contains("fleet"), "--help lists the fleet commands")
        let fleetHelp = try runCommand(productsFolder + "/rizq-prefs", ["fleet", "--help"])
        #expect(fleetHelp.status == 0)
        #expect(fleetHelp.stdout.contains("USAGE: rizq-prefs fleet"))
    }
}
