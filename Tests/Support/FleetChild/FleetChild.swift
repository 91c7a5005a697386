// One "host" of a fleet for the fleet tests: a FleetSuite with a cache of its own, driven by
// lines on stdin, reporting on stdout what it sees. Started by RizqFleetTests (also under
// scripts/with-clock-offset, SIGSTOPped, with its engine killed).
//
//   rizq-fleet-test-child --engine URL --suite S [--no-run] [--queue]
//     environment: RIZQ_PREFS_HOME (its cache), RIZQ_PREFS_REPLICA_ID (its origin)
//
// Prints "ready STATUS" once open (before contacting the engine), then one line per event:
//   change KEY JSON | change KEY removed     a value reached the cache (from any host)
//   status live | status stale              the suite's status changed
// and answers each command:
//   set KEY JSON      → "setting KEY" at once, then
//                       ok KEY REVISION | queued KEY | superseded KEY STAMP | error KEY KIND MESSAGE
//   delete KEY        → the same
//   write-many PREFIX COUNT → for i in 0..<COUNT, set PREFIX.i = i: "ack KEY REVISION" or
//                       "fail KEY KIND" per write (after a failure it waits 100 ms), then "done PREFIX"
//   get KEY           → value KEY JSON | value KEY absent
//   stamp KEY         → stamp KEY STAMP | stamp KEY none
//   sync              → synced | error - KIND MESSAGE
//   status            → status live | status stale
//   quit              → exits 0 (the cache written first)
import Foundation
import RizqFleet
import RizqJSON
import RizqPrefs

@main
enum FleetChild {
    static func main() async {
        // RIZQ_FLEET_CHILD_ARGUMENTS (one per line), when set, stands for the arguments: under
        // libfaketime's LD_PRELOAD (scripts/with-clock-offset) a Swift program on this machine
        // does not see the arguments it was given (CommandLine.arguments came out without them).
        let arguments = ProcessInfo.processInfo.environment["RIZQ_FLEET_CHILD_ARGUMENTS"].map {
            [CommandLine.arguments.first ?? "rizq-fleet-test-child"] + $0.split(separator: "\n").map(String.init)
        } ?? CommandLine.arguments
        func option(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        }
        guard let url = option("--engine"), let suiteName = option("--suite") else {
            say("usage: rizq-fleet-test-child --engine URL --suite S [--no-run] [--queue]")
            exit(2)
        }
        let fleet: FleetSuite
        do {
            let engine = try PostgresFleetEngine(url: url)
            fleet = try FleetSuite(suiteName, engine: engine, options: FleetOptions(writes: arguments.contains("--queue") ? .queueWhenOffline : .requireEngine))
        } catch {
            say("error - open \(error)")
            exit(1)
        }
        let changes = fleet.changes()
        let statuses = fleet.statusUpdates()
        say("ready \(fleet.status.isLive ? "live" : "stale")")
        // Detached: a Task made here would run on the main actor, whose thread blocks in
        // readLine() below between commands, and report nothing until the next command.
        Task.detached {
            for await change in changes {
                say("change \(change.key) \(change.newValue.map(json) ?? "removed")")
            }
        }
        Task.detached {
            var first = true
            for await status in statuses {
                if first { first = false; continue }
                say("status \(status.isLive ? "live" : "stale")")
            }
        }
        if !arguments.contains("--no-run") {
            Task.detached { try? await fleet.run() }
        }
        while let line = readLine() {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard let command = words.first else { continue }
            switch command {
            case "set", "delete":
                guard words.count >= 2 else { continue }
                var value: PrefValue?
                if command == "set" {
                    guard words.count == 3, let parsed = try? JSONReader.parse(words[2]) else {
                        say("error \(words[1]) invalid not JSON")
                        continue
                    }
                    value = parsed
                }
                say("setting \(words[1])")
                say(await write(fleet, key: words[1], value: value))
            case "write-many":
                guard words.count == 3, let count = Int(words[2]) else { continue }
                let prefix = words[1]
                for index in 0..<count {
                    let key = "\(prefix).\(index)"
                    do {
                        let result = try await fleet.set(.int(index), forKey: key)
                        if case .committed(let revision, _) = result {
                            say("ack \(key) \(revision)")
                        } else {
                            say("fail \(key) queued")
                        }
                    } catch {
                        say("fail \(key) \(kind(error))")
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                }
                say("done \(prefix)")
            case "get":
                guard words.count == 2 else { continue }
                say("value \(words[1]) \(fleet.value(forKey: words[1]).map(json) ?? "absent")")
            case "stamp":
                guard words.count == 2 else { continue }
                say("stamp \(words[1]) \(fleet.stamp(forKey: words[1])?.description ?? "none")")
            case "sync":
                do {
                    try await fleet.synchronize()
                    say("synced")
                } catch {
                    say("error - \(kind(error)) \(error)")
                }
            case "status":
                say("status \(fleet.status.isLive ? "live" : "stale")")
            case "quit":
                fleet.settle()
                exit(0)
            default:
                say("error - unknown command \(command)")
            }
        }
        fleet.settle()
    }

    static func write(_ fleet: FleetSuite, key: String, value: PrefValue?) async -> String {
        do {
            // Said once the change is stamped, before it is sent: a test that spaces two hosts'
            // changes in time starts counting here (a process descheduled before its stamp does
            // not make its change later than the one meant to follow it).
            switch try await fleet.set(value, forKey: key, whenStamped: { _ in say("stamped \(key)") }) {
            case .committed(let revision, _): return "ok \(key) \(revision)"
            case .queued: return "queued \(key)"
            }
        } catch {
            if case .superseded(_, let winner) = error { return "superseded \(key) \(winner)" }
            return "error \(key) \(kind(error)) \(error)"
        }
    }

    static func kind(_ error: FleetError) -> String {
        switch error {
        case .engineUnavailable: return "unavailable"
        case .writeUnconfirmed: return "unconfirmed"
        case .engineRefused: return "refused"
        case .superseded: return "superseded"
        case .secretRefused: return "secret"
        case .invalidValue: return "invalid"
        default: return "other"
        }
    }

    static func json(_ value: PrefValue) -> String {
        (try? JSONWriter.string(value, pretty: false)) ?? "null"
    }

    /// One line on stdout at once (never block-buffered in a pipe).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
