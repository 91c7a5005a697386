import Foundation
import RizqCore
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Many hosts at once, as separate processes against the real engine: every watcher sees every
/// change, the later of two changes wins everywhere, a fast clock does not win against an edit
/// made after seeing its value, a frozen watcher catches up. One at a time (each starts many
/// processes); figures the issue asks for are reported on stderr, never asserted.
@Suite(.serialized) struct FleetHostsTests {
    let server: PostgresServer

    init() throws {
        server = try PostgresServer.shared()
    }

    @Test func twentyWatcherProcessesSeeEveryOneOf200Sets() async throws {
        let suite = uniqueSuite("watchers")
        let roots = (0..<20).map { temporaryRoot("watcher-\($0)") }
        defer { for root in roots { try? FileManager.default.removeItem(atPath: root) } }
        var watchers: [(process: Process, lines: LineReader, errors: LineReader)] = []
        defer {
            for watcher in watchers where watcher.process.isRunning {
                kill(watcher.process.processIdentifier, SIGKILL)
                reapInBackground(watcher.process)
            }
        }
        for (index, root) in roots.enumerated() {
            let process = Process()
            // Through rizq-prefs, which hands `fleet …` to rizq-prefs-fleet.
            process.executableURL = URL(fileURLWithPath: productsFolder + "/rizq-prefs")
            process.arguments = ["fleet", "watch", "--engine", server.url, "--suite", suite, "--json"]
            var environment = ProcessInfo.processInfo.environment
            environment["RIZQ_PREFS_HOME"] = root
            environment["RIZQ_PREFS_REPLICA_ID"] = "watcher-\(index)"
            environment["PGPASSWORD"] = server.password
            process.environment = environment
            let output = Pipe(), errorOutput = Pipe()
            process.standardOutput = output
            process.standardError = errorOutput
            process.standardInput = FileHandle.nullDevice
            try process.run()
            watchers.append((process, LineReader(output.fileHandleForReading), LineReader(errorOutput.fileHandleForReading)))
        }
        // One bound for all of them (not one each: twenty bounds would add up to a hang).
        let started = Date().addingTimeInterval(120)
        for (index, watcher) in watchers.enumerated() {
            let begun = await watcher.errors.waitFor(timeout: started.timeIntervalSinceNow) { $0.hasPrefix("watching fleet suite") }
            try #require(begun != nil, "watcher \(index) never began: \(watcher.errors.all)")
        }

        let writer = try openFleet(suite, engine: try server.engine(), root: temporaryRoot("writer"), origin: "writer")
        let start = ContinuousClock.now
        for index in 0..<200 {
            try await writer.set(.int(index), forKey: String(format: "k.%03d", index))
        }
        let expected = Set((0..<200).map { String(format: #"{"key":"k.%03d","origin":"writer","removed":false,"value":%d}"#, $0, $0) })
        var complete = 0
        let delivered = Date().addingTimeInterval(120)
        for (index, watcher) in watchers.enumerated() {
            let saw = await watcher.lines.waitUntil(timeout: delivered.timeIntervalSinceNow) { expected.isSubset(of: Set($0)) }
            let seen = expected.intersection(Set(watcher.lines.all)).count
            #expect(saw, "watcher \(index) saw \(seen) of 200 sets; not as expected: \(watcher.lines.all.filter { !expected.contains($0) }.prefix(3))")
            if saw { complete += 1 }
        }
        report("20 watchers × 200 sets: \(complete) of 20 watchers saw all 200; the last line of the last watcher \(String(format: "%.2f", secondsSince(start))) s after the first set")
        #expect(complete == 20)
        for watcher in watchers {
            kill(watcher.process.processIdentifier, SIGTERM)
            await exited(watcher.process)
            #expect(watcher.process.terminationStatus == 0, "SIGTERM ends a watch with 0")
        }
    }

    @Test func ofTwoHostsSettingOneKey20msApartTheLaterWinsOnEveryHost() async throws {
        let suite = uniqueSuite("race")
        let a = try FleetHost(server: server, suite: suite, origin: "host-a")
        let b = try FleetHost(server: server, suite: suite, origin: "host-b")
        for host in [a, b] {
            try #require(await host.lines.waitFor(timeout: 120) { $0 == "status live" } != nil, "\(host.origin) never went live: \(host.errors.all)")
        }
        let engine = try server.engine()
        var laterWon = 0
        for round in 0..<20 {
            a.send(#"set k "a-\#(round)""#)
            // The scenario: the second change is made 20 ms after the first was stamped (the child
            // says "stamped" once it has taken the change's stamp, before it sends it).
            try #require(await a.lines.waitFor { $0 == "stamped k" } != nil)
            try await Task.sleep(for: .milliseconds(20))
            b.send(#"set k "b-\#(round)""#)
            let answerA = await a.lines.waitFor { $0.hasPrefix("ok k") || $0.hasPrefix("superseded k") || $0.hasPrefix("error k") }
            let answerB = await b.lines.waitFor { $0.hasPrefix("ok k") || $0.hasPrefix("superseded k") || $0.hasPrefix("error k") }
            #expect(answerA?.hasPrefix("error") == false, "the earlier change is committed or reported superseded: \(answerA ?? "no answer")")
            #expect(answerB?.hasPrefix("ok k") == true, "the later change is committed: \(answerB ?? "no answer")")
            let winner = #"change k "b-\#(round)""#
            let onA = await a.lines.waitUntil(printed: winner)
            let onB = await b.lines.waitUntil(printed: winner)
            let everywhere = onA && onB
            let stored = try await engine.changes(suite: suite, after: 0, limit: 10).entries.first { $0.change.key == "k" }?.change.value
            let aNow = await a.ask("get k", answers: ["value k"])
            let bNow = await b.ask("get k", answers: ["value k"])
            if everywhere, stored == .string("b-\(round)"), aNow == #"value k "b-\#(round)""#, bNow == aNow { laterWon += 1 }
        }
        report("two hosts, one key, 20 ms apart: the later change won on every host in \(laterWon) of 20 rounds")
        #expect(laterWon == 20)
    }

    @Test func aHostWhoseClockIsTenMinutesFastDoesNotWinAgainstAnEditMadeAfterSeeingItsValue() async throws {
        let suite = uniqueSuite("skew")
        let fast = try FleetHost(server: server, suite: suite, origin: "fast", wrapper: [repositoryRoot().path + "/scripts/with-clock-offset", "+10m"])
        let honest = try FleetHost(server: server, suite: suite, origin: "honest")
        for host in [fast, honest] {
            try #require(await host.lines.waitFor(timeout: 120) { $0 == "status live" } != nil, "\(host.origin) never went live: \(host.errors.all)")
        }
        #expect(await fast.ask(#"set k "fast""#, answers: ["ok k", "superseded k", "error k"])?.hasPrefix("ok k") == true)
        // The offset is in force: the fast host's stamp is about ten minutes ahead.
        let stampLine = try #require(await fast.ask("stamp k", answers: ["stamp k"]))
        let fastStamp = try #require(ChangeStamp(parsing: stampLine.dropFirst("stamp k ".count)))
        #expect(fastStamp.milliseconds > HybridLogicalClock.systemMilliseconds() + 9 * 60_000, "with-clock-offset +10m: \(fastStamp)")

        // The honest host sees the value, then edits: its edit wins although its clock is behind.
        #expect(await honest.lines.waitUntil(printed: #"change k "fast""#))
        #expect(await honest.ask(#"set k "after seeing""#, answers: ["ok k", "superseded k", "error k"])?.hasPrefix("ok k") == true)
        #expect(await fast.lines.waitUntil(printed: #"change k "after seeing""#), "and reaches the fast host")

        // A host that never saw the fast value, with an honest clock, loses — and is told so.
        let blind = try FleetHost(server: server, suite: suite, origin: "blind", arguments: ["--no-run"])
        let answer = await blind.ask(#"set k "blind""#, answers: ["ok k", "superseded k", "error k"])
        #expect(answer?.hasPrefix("superseded k") == true, "an edit that saw nothing is stamped before the fast one: \(answer ?? "no answer")")
        let stored = try await server.engine().changes(suite: suite, after: 0, limit: 10).entries.first?.change.value
        #expect(stored == "after seeing")
    }

    @Test func aWatcherFrozenForFiveSecondsCatchesUpAfterSIGCONT() async throws {
        let suite = uniqueSuite("sigstop")
        let watcher = try FleetHost(server: server, suite: suite, origin: "frozen")
        try #require(await watcher.lines.waitFor(timeout: 120) { $0 == "status live" } != nil, "never went live: \(watcher.errors.all)")
        let writer = try openFleet(suite, engine: try server.engine(), root: temporaryRoot("sigstop-writer"), origin: "writer")
        kill(watcher.pid, SIGSTOP)
        let stopped = ContinuousClock.now
        for index in 0..<50 { try await writer.set(.int(index), forKey: "s.\(index)") }
        // The scenario: frozen for 5 s in all.
        let left = Duration.seconds(5) - (ContinuousClock.now - stopped)
        if left > .zero { try await Task.sleep(for: left) }
        kill(watcher.pid, SIGCONT)
        let resumed = ContinuousClock.now
        let expected = Set((0..<50).map { "change s.\($0) \($0)" })
        let caughtUp = await watcher.lines.waitUntil(timeout: 60) { expected.isSubset(of: Set($0)) }
        let seconds = secondsSince(resumed)
        report("watcher SIGSTOPped 5 s: caught up with 50 changes \(String(format: "%.3f", seconds)) s after SIGCONT (issue 26 asks within 2 s)")
        #expect(caughtUp, "saw \(expected.intersection(Set(watcher.lines.all)).count) of 50")
    }
}
