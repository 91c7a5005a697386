// A real second process for the schema migration tests: opens a suite with a schema.
//
//   rizq-schema-test-child ROOT SUITE COMMAND ARGS...
//
// Every line it prints is a signal the test waits for. Errors go to stderr, exit 1; RizqPrefs'
// log (swift-log's default handler) goes to stderr too.
import Foundation
import Logging
import RizqPrefs
import RizqSecrets
import Synchronization

/// Unbuffered, so that a parent that kills this process has seen every line it printed.
@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// How many stages the `app` command's schema ran.
let stagesRan = Mutex(0)

/// Waits for the parent's next line on stdin.
@Sendable func waitForParent() {
    _ = readLine()
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else { fail("usage: ROOT SUITE COMMAND ARGS...") }
let (root, suite, command) = (arguments[0], arguments[1], arguments[2])
let rest = Array(arguments.dropFirst(3))

func open(_ schema: SuiteMigrations) -> SuiteStore {
    do {
        return try SuiteStore(suite: suite, appID: "tests", root: root, migrations: schema)
    } catch {
        fail("open: \(error)")
    }
}

func schema(_ version: Int, _ stages: [MigrationStage]) -> SuiteMigrations {
    do {
        return try SuiteMigrations(version: version, stages: stages)
    } catch {
        fail("schema: \(error)")
    }
}

switch command {
case "count":
    // count COUNTER [--pause]: prints "ready" and waits for a line; then opens the suite with a
    // version-1 schema whose one stage appends "ran PID" to COUNTER (with --pause it prints
    // "in-stage" there and waits for another line, holding the suite's lock) and renames a to b.
    // Prints "opening" before the open, then "version V" and "b VALUE".
    guard let counter = rest.first else { fail("count COUNTER [--pause]") }
    let pause = rest.contains("--pause")
    let countingSchema = schema(1, [
        .custom(from: 0, to: 1) { batch in
            let line = Data("ran \(getpid())\n".utf8)
            let descriptor = Foundation.open(counter, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            guard descriptor >= 0 else { throw POSIXError(.EIO) }
            _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            if pause {
                say("in-stage")
                waitForParent()
            }
            try batch.apply(.rename("a", to: "b"))
        },
    ])
    say("ready")
    waitForParent()
    say("opening")
    let store = open(countingSchema)
    say("version \(store.schemaVersion)")
    say("b \(store.string(forKey: "b") ?? "nil")")
case "big":
    // big COUNT: opens a suite of COUNT keys key-i = "i" with a version-2 schema: stage 0 → 1
    // renames old_name to new_name and moves move_me to group.schema-tests (key moved); stage
    // 1 → 2 converts every key-i to an Int, printing "mark N" ten times on the way. Prints
    // "done" when the open returned.
    guard let count = rest.first.flatMap({ Int($0) }), count >= 10 else { fail("big COUNT") }
    let bigSchema = schema(2, [
        .lightweight(from: 0, to: 1, [
            .rename("old_name", to: "new_name"),
            .move("move_me", toSuite: "group.schema-tests", as: "moved"),
        ]),
        .custom(from: 1, to: 2) { batch in
            for index in 0..<count {
                if index % (count / 10) == 0 { say("mark \(index / (count / 10))") }
                let key = "key-\(index)"
                if let text = batch.value(forKey: key, as: String.self), let number = Int(text) {
                    try batch.set(number, forKey: key)
                }
            }
        },
    ])
    _ = open(bigSchema)
    say("done")
case "older":
    // older KEY VALUE: an app whose schema is version 1 (stage 0 → 1 renames a to b) opens the
    // suite twice, sets KEY to VALUE (a string) and flushes; prints "version V".
    guard rest.count == 2 else { fail("older KEY VALUE") }
    let olderSchema = schema(1, [.lightweight(from: 0, to: 1, [.rename("a", to: "b")])])
    let store = open(olderSchema)
    _ = open(olderSchema)
    store.set(rest[1], forKey: rest[0])
    do { try store.flush() } catch { fail("flush: \(error)") }
    say("version \(store.schemaVersion)")
case "secret":
    // secret SERVICE: with every log line of every level on stderr, opens the suite with a
    // version-1 schema that moves auth_token into the Secret Service under SERVICE; prints
    // "version V".
    guard let service = rest.first else { fail("secret SERVICE") }
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = .trace
        return handler
    }
    let keyring = SecretServiceStore(service: service)
    let store = open(schema(1, [.lightweight(from: 0, to: 1, [.moveToSecretStore("auth_token", keyring)])]))
    say("version \(store.schemaVersion)")
case "app":
    // app APPID VERSION: the app APPID opens the suite with a schema of VERSION whose stage n → n+1
    // sets the key "APPID-n+1" to true; prints "version V" (the suite's data version after the
    // open) and "ran N", N the stages of this app that ran. RizqPrefs' warnings go to stderr.
    guard rest.count == 2, let version = Int(rest[1]) else { fail("app APPID VERSION") }
    let app = rest[0]
    let stages: [MigrationStage] = (0..<version).map { from in
        .custom(from: from, to: from + 1) { batch in
            stagesRan.withLock { $0 += 1 }
            try batch.set(true, forKey: "\(app)-\(from + 1)")
        }
    }
    let store: SuiteStore
    do {
        store = try SuiteStore(suite: suite, appID: app, root: root, migrations: schema(version, stages))
    } catch {
        fail("open: \(error)")
    }
    say("version \(store.schemaVersion)")
    say("ran \(stagesRan.withLock { $0 })")
default:
    fail("unknown command \(command)")
}
