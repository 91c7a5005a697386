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
    func fleet(_ arguments: [String], suite: String, input: String? = nil, host: String = "cli-host", engine: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root + "/" + host
        environment["RIZQ_PREFS_REPLICA_ID"] = host
        environment["PGPASSWORD"] = server.password
        return try await run(productsFolder + "/rizq-prefs", ["fleet"] + arguments + ["--engine", engine ?? server.url, "--suite", suite], input: input, environment: environment)
    }

    @Test func setGetListDeleteWithTheLocalCommandsTypesAndStatuses() async throws {
        let suite = uniqueSuite("cli")
        #expect(try await fleet(["set", "feature.newCheckout", "true", "--bool"], suite: suite).status == 0)
        #expect(try await fleet(["set", "http.timeout", "45", "--int"], suite: suite).status == 0)
        #expect(try await fleet(["set", "offset", "-7", "--int"], suite: suite).status == 0, "negative numbers as for local suites")
        #expect(try await fleet(["set", "prefs", #"{"dailyGoal": 3}"#, "--json"], suite: suite).status == 0)
        #expect(try await fleet(["set", "greeting", "héllo"], suite: suite).status == 0)

        // Another host reads them.
        #expect(try await fleet(["get", "http.timeout"], suite: suite, host: "other").stdout == "45\n")
        #expect(try await fleet(["get", "greeting"], suite: suite, host: "other").stdout == "héllo\n")
        #expect(try await fleet(["get", "greeting", "--json"], suite: suite, host: "other").stdout == "\"héllo\"\n")
        #expect(try await fleet(["get", "offset"], suite: suite, host: "other").stdout == "-7\n")
        let list = try await fleet(["list"], suite: suite, host: "other")
        #expect(list.status == 0)
        #expect(list.stdout.contains("http.timeout         int         45\n"), "\(list.stdout)")
        #expect(try await fleet(["list", "--json"], suite: suite, host: "other").stdout
            == #"{"feature.newCheckout":true,"greeting":"héllo","http.timeout":45,"offset":-7,"prefs":{"dailyGoal":3}}"# + "\n")

        let absent = try await fleet(["get", "nope"], suite: suite)
        #expect(absent.status == 1)
        #expect(absent.stderr.contains("no key 'nope' in fleet suite"))
        #expect(try await fleet(["delete", "offset"], suite: suite, host: "other").status == 0)
        #expect(try await fleet(["get", "offset"], suite: suite).status == 1, "the deletion reached the first host")
        #expect(try await fleet(["delete", "offset"], suite: suite).status == 1, "exit 1 when the key is not there")

        let bad = try await fleet(["set", "n", "twelve", "--int"], suite: suite)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("twelve"))
        #expect(try await fleet(["get", "n"], suite: suite).status == 1, "nothing was written")
    }

    @Test func aCredentialIsRefusedWithExit2AndNeverWritten() async throws {
        let suite = uniqueSuite("cli-secret")
        let token = "ghp_" + String(repeating: "a1B2", count: 9)
        let result = try await fleet(["set", "deploy.key", token], suite: suite)
        #expect(result.status == 2)
        #expect(result.stderr.contains("looks like a credential"))
        #expect(!result.stderr.contains(token), "the message never repeats the value")
        #expect(try await fleet(["get", "deploy.key"], suite: suite, host: "other").status == 1)
    }

    @Test func aPasswordOnTheCommandLineIsRefused() async throws {
        let suite = uniqueSuite("cli-password")
        let url = "postgres://\(server.value("USER")):\(server.password)@\(server.value("HOST")):\(server.value("PORT"))/\(server.value("DB"))"
        let result = try await fleet(["get", "k"], suite: suite, engine: url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("PGPASSWORD"))
        #expect(!result.stderr.contains(server.password))
    }

    @Test func anUnreachableEngineIsExit6ForWritesAndTheCacheForReads() async throws {
        let suite = uniqueSuite("cli-down")
        #expect(try await fleet(["set", "mode", "on"], suite: suite).status == 0)
        let down = "postgres://nobody@127.0.0.1:1/none?sslmode=disable"
        let write = try await fleet(["set", "mode", "off", "--timeout", "2"], suite: suite, engine: down)
        #expect(write.status == 6)
        #expect(write.stderr.contains("unavailable"))
        let read = try await fleet(["get", "mode", "--timeout", "2"], suite: suite, engine: down)
        #expect(read.status == 0)
        #expect(read.stdout == "on\n", "from this host's cache")
        #expect(read.stderr.contains("answering from this host's cache"))
    }

    @Test func exportAndImportAreReviewableJSON() async throws {
        let suite = uniqueSuite("cli-export")
        try await fleet(["set", "b", "2", "--int"], suite: suite)
        try await fleet(["set", "a", "one"], suite: suite)
        try await fleet(["set", "when", "2026-11-22T13:47:00Z", "--date"], suite: suite)
        let exported = try await fleet(["export"], suite: suite, host: "reviewer")
        #expect(exported.status == 0)
        #expect(exported.stdout == """
            {
              "a": "one",
              "b": 2,
              "when": {"$date": "2026-11-22T13:47:00Z"}
            }

            """, "\(exported.stdout)")
        let edited = #"{"a": "uno", "b": 2, "c": [1, 2], "when": null}"#
        let imported = try await fleet(["import", "-"], suite: suite, input: edited, host: "reviewer")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 3 changes"), "a changed, c added, when removed; b as it was: \(imported.stdout)")
        #expect(try await fleet(["list", "--json"], suite: suite).stdout == #"{"a":"uno","b":2,"c":[1,2]}"# + "\n")
        let replaced = try await fleet(["import", "-", "--replace"], suite: suite, input: #"{"c": [1, 2]}"#)
        #expect(replaced.status == 0)
        #expect(try await fleet(["list", "--json"], suite: suite, host: "reviewer").stdout == #"{"c":[1,2]}"# + "\n")
        let refused = try await fleet(["import", "-"], suite: suite, input: #"{"ok": 1, "token": "sk_live_51H8abcdefghijklmnopqrstuvwx"}"#)
        #expect(refused.status == 2)
        #expect(try await fleet(["get", "ok"], suite: suite).status == 1, "nothing of a refused import is written")
        #expect(try await fleet(["import", "-"], suite: suite, input: "[1]").status == 2)
    }

    @Test func rizqPrefsItselfLinksNoNIO() async throws {
        // rizq-prefs executes rizq-prefs-fleet; NIO and postgres-nio are only in the latter.
        // Each binary read once, off the pool (a debug build's are large).
        func symbols(_ product: String, _ modules: [String]) async throws -> Set<String> {
            try await offPool {
                let data = try Data(contentsOf: URL(fileURLWithPath: productsFolder + "/" + product))
                return Set(modules.filter { data.range(of: Data($0.utf8)) != nil })
            }
        }
        let modules = ["11PostgresNIO", "8NIOPosix", "7NIOCore"]
        let fleet = try await symbols("rizq-prefs-fleet", modules)
        #expect(fleet.isSuperset(of: ["11PostgresNIO", "8NIOPosix"]), "the check finds the modules where they are: \(fleet)")
        #expect(try await symbols("rizq-prefs", modules).isEmpty)
        let help = try await run(productsFolder + "/rizq-prefs", ["--help"])
        #expect(help.stdout.contains("fleet"), "--help lists the fleet commands")
        let fleetHelp = try await run(productsFolder + "/rizq-prefs", ["fleet", "--help"])
        #expect(fleetHelp.status == 0)
        #expect(fleetHelp.stdout.contains("USAGE: rizq-prefs fleet"))
    }
}
