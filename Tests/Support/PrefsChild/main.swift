// A real second process for the store's tests: drives a SuiteStore from the command line.
//
//   rizq-prefs-test-child ROOT SUITE COMMAND ARGS...
//
// Commands print one line per result on stdout and exit 0; errors go to stderr, exit 1.
import Foundation
import RizqJSON
import RizqPrefs
import Synchronization

/// Unbuffered, so that a parent that kills this process has seen every line it printed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else { fail("usage: ROOT SUITE COMMAND ARGS...") }
let (root, suite, command) = (arguments[0], arguments[1], arguments[2])
let rest = Array(arguments.dropFirst(3))

if command == "hold-lock" {
    // hold-lock: takes the suite's file lock as a writer does (flock on `.<suite>.lock`),
    // prints "locked", and holds it until stdin closes. The suite itself is not opened.
    let directory: String
    do {
        directory = try SuiteLocation(suiteName: suite, appID: "tests", root: root).directory
    } catch {
        fail("hold-lock: \(error)")
    }
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let descriptor = open(directory + "/." + suite + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { fail("hold-lock: \(String(cString: strerror(errno)))") }
    say("locked")
    _ = FileHandle.standardInput.readDataToEndOfFile()
    exit(0)
}

if command == "parse-loop" {
    // parse-loop: reads the suite file from disk and parses it, over and over, until stdin
    // closes; prints "ready" first and "parsed N" at the end, or "unparseable: WHY" at once
    // (exit 1) the first time the file does not parse. The suite is not opened.
    let path: String
    do {
        path = try SuiteLocation(suiteName: suite, appID: "tests", root: root).path
    } catch {
        fail("parse-loop: \(error)")
    }
    let done = Atomic<Bool>(false)
    Thread {
        _ = FileHandle.standardInput.readDataToEndOfFile()
        done.store(true, ordering: .relaxed)
    }.start()
    say("ready")
    var parsed = 0
    while !done.load(ordering: .relaxed) {
        do {
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            guard case .dictionary = try JSONReader.parse(bytes) else { say("unparseable: not an object"); exit(1) }
            parsed += 1
        } catch {
            say("unparseable: \(error)")
            exit(1)
        }
    }
    say("parsed \(parsed)")
    exit(0)
}

let store: SuiteStore
do {
    store = try SuiteStore(suite: suite, appID: "tests", root: root)
} catch {
    fail("open: \(error)")
}

/// A typed read printed exactly: doubles by bit pattern, dates by their Double, data in base64.
func typedRead(_ key: String, _ type: String) -> String {
    switch type {
    case "int": return store.value(forKey: key, as: Int.self).map { "\($0)" } ?? "nil"
    case "int8": return store.value(forKey: key, as: Int8.self).map { "\($0)" } ?? "nil"
    case "uint64": return store.value(forKey: key, as: UInt64.self).map { "\($0)" } ?? "nil"
    case "double": return store.value(forKey: key, as: Double.self).map { "\($0.bitPattern)" } ?? "nil"
    case "float": return store.value(forKey: key, as: Float.self).map { "\($0.bitPattern)" } ?? "nil"
    case "bool": return store.value(forKey: key, as: Bool.self).map { "\($0)" } ?? "nil"
    case "string": return store.value(forKey: key, as: String.self).map { Data($0.utf8).base64EncodedString() } ?? "nil"
    case "data": return store.value(forKey: key, as: Data.self).map { $0.base64EncodedString() } ?? "nil"
    case "date": return store.value(forKey: key, as: Date.self).map { "\($0.timeIntervalSince1970)" } ?? "nil"
    case "ends": return store.value(forKey: key, as: String.self).map { "\($0.utf8.count) \($0.prefix(16)) \($0.suffix(16))" } ?? "nil"
    case "datebits": return store.value(forKey: key, as: Date.self).map { "\($0.timeIntervalSinceReferenceDate.bitPattern)" } ?? "nil"
    case "url": return store.url(forKey: key)?.absoluteString ?? "nil"
    case "integer": return "\(store.integer(forKey: key))"
    case "json": return store.prefValue(forKey: key).map { $0.description } ?? "nil"
    default: fail("unknown type \(type)")
    }
}

switch command {
case "write-flushed", "write-flushed-on-go":
    // write-flushed PREFIX COUNT [PER_FLUSH]: sets PREFIX-i = i, flushing after every PER_FLUSH
    // keys (default 1) and at the end; prints "ok i" for each key a flush made durable.
    // write-flushed-on-go: the same, after printing "ready" and reading a line from stdin, so
    // that several writers start together.
    guard rest.count == 2 || rest.count == 3, let count = Int(rest[1]), let perFlush = Int(rest.count == 3 ? rest[2] : "1"), perFlush > 0
    else { fail("\(command) PREFIX COUNT [PER_FLUSH]") }
    if command == "write-flushed-on-go" {
        say("ready")
        _ = readLine()
    }
    var unflushed: [Int] = []
    for index in 0..<count {
        store.set(index, forKey: "\(rest[0])-\(index)")
        unflushed.append(index)
        guard unflushed.count == perFlush || index == count - 1 else { continue }
        do { try store.flush() } catch { fail("flush: \(error)") }
        for flushed in unflushed { say("ok \(flushed)") }
        unflushed = []
    }
case "set-json":
    // set-json KEY JSON [--no-flush]: stores the parsed value; flushes unless told not to.
    guard rest.count >= 2 else { fail("set-json KEY JSON") }
    do {
        try store.put(try JSONReader.parse(rest[1]), forKey: rest[0])
        if !rest.contains("--no-flush") { try store.flush() }
    } catch {
        fail("set-json: \(error)")
    }
    say("ok")
case "read":
    // read KEY:TYPE...: prints one typed read per argument.
    for item in rest {
        let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { fail("read KEY:TYPE") }
        say(typedRead(parts[0], parts[1]))
    }
case "dump":
    say(PrefValue.dictionary(store.entries).description)
case "watch":
    // watch KEY COUNT: prints each new value of KEY as compact JSON, exits after COUNT changes.
    guard rest.count == 2, let count = Int(rest[1]) else { fail("watch KEY COUNT") }
    let stream = store.changes(forKey: rest[0])
    say("ready")
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        var seen = 0
        for await value in stream {
            say(value.map { $0.description } ?? "nil")
            seen += 1
            if seen == count { break }
        }
        done.signal()
    }
    done.wait()
case "typed-write":
    // typed-write: stores a sample of every property-wrapper type (TypedSettings) and flushes.
    TypedSettings(store: store).writeSamples()
    do { try store.flush() } catch { fail("flush: \(error)") }
    say("ok")
case "typed-clear-optionals":
    TypedSettings(store: store).clearOptionals()
    do { try store.flush() } catch { fail("flush: \(error)") }
    say("ok")
case "typed-read":
    // typed-read [TIMES]: prints every TypedSettings property, one per line, TIMES times.
    for _ in 0..<(rest.first.flatMap { Int($0) } ?? 1) {
        for line in TypedSettings(store: store).describe() { say(line) }
    }
case "set-unstorable":
    // set-unstorable KEY: tries to store, register and set as a domain values a suite cannot
    // hold (the errors go to stderr through swift-log's default handler), then flushes.
    struct NotStorable {}
    guard rest.count == 1 else { fail("set-unstorable KEY") }
    let key = rest[0]
    let values: [Any] = [
        NotStorable(), ["fine", NotStorable()] as [Any], ["outer": ["inner": NotStorable()]] as [String: Any],
        Set(["a"]), [1: "one"] as [Int: String],
    ]
    for value in values {
        store.set(value, forKey: key)
        store.register(defaults: [key + "-registered": value])
    }
    store.setPersistentDomain(["ok": 1, "bad": NotStorable()], forName: suite)
    do { try store.flush() } catch { fail("flush: \(error)") }
    say("ok")
case "write-in-flushes":
    // write-in-flushes PREFIX COUNT EVERY: prints "ready", waits for a line on stdin, then sets
    // PREFIX-i = i for i < COUNT, flushing after every EVERY keys and at the end; prints "ok".
    guard rest.count == 3, let count = Int(rest[1]), let every = Int(rest[2]), every > 0 else { fail("write-in-flushes PREFIX COUNT EVERY") }
    say("ready")
    _ = readLine()
    for index in 0..<count {
        store.set(index, forKey: "\(rest[0])-\(index)")
        if (index + 1) % every == 0 || index == count - 1 {
            do { try store.flush() } catch { fail("flush: \(error)") }
        }
    }
    say("ok")
case "watch-suites":
    // watch-suites PREFIX COUNT: opens the suites PREFIX-0 … PREFIX-(COUNT-1) and follows each
    // one's key "k"; prints "ready". On the line "check" from stdin, prints "fresh N": how many
    // of the suites read "k" as "new" at once (a read must never be older than the file); then
    // waits (bounded) until each suite's change stream has delivered "new" and prints
    // "changes N", N the suites whose stream did.
    guard rest.count == 2, let count = Int(rest[1]) else { fail("watch-suites PREFIX COUNT") }
    var stores: [SuiteStore] = []
    let delivered = Mutex<Set<Int>>([])
    let arrived = DispatchSemaphore(value: 0)
    for index in 0..<count {
        let other: SuiteStore
        do {
            other = try SuiteStore(suite: "\(rest[0])-\(index)", appID: "tests", root: root)
        } catch {
            fail("open: \(error)")
        }
        stores.append(other)
        let stream = other.changes(forKey: "k")
        Task.detached {
            for await value in stream where value == .string("new") {
                _ = delivered.withLock { $0.insert(index) }
                arrived.signal()
                break
            }
        }
    }
    say("ready")
    guard readLine() == "check" else { fail("expected check") }
    say("fresh \(stores.filter { $0.string(forKey: "k") == "new" }.count)")
    for _ in 0..<count where arrived.wait(timeout: .now() + 60) == .timedOut { break }
    say("changes \(delivered.withLock { $0.count })")
case "interactive":
    // interactive: prints "ready", then runs one command per line of stdin until it closes:
    //   set KEY VALUE       sets a string, prints "set"
    //   set-stop KEY VALUE  the same, then stops itself (SIGSTOP) before any write is due
    //   flush               prints "flushed", or "error: WHY"
    //   get KEY             prints the string, or "nil"
    say("ready")
    while let line = readLine() {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        switch words.first {
        case "set", "set-stop":
            guard words.count == 3 else { fail("set KEY VALUE") }
            store.set(words[2], forKey: words[1])
            say("set")
            if words[0] == "set-stop" { kill(getpid(), SIGSTOP) }
        case "flush":
            do {
                try store.flush()
                say("flushed")
            } catch {
                say("error: \(error)")
            }
        case "get":
            guard words.count == 2 else { fail("get KEY") }
            say(store.string(forKey: words[1]) ?? "nil")
        case "set-many":
            // set-many PREFIX COUNT LENGTH: sets COUNT keys, each PREFIX-i padded with "x" to
            // LENGTH bytes, to their index; prints "set-many". No write is made here.
            let parts = words.count == 3 ? [words[1]] + words[2].split(separator: " ").map(String.init) : []
            guard parts.count == 3, let count = Int(parts[1]), let length = Int(parts[2]) else { fail("set-many PREFIX COUNT LENGTH") }
            for index in 0..<count {
                let name = "\(parts[0])-\(index)-"
                store.set(index, forKey: name + String(repeating: "x", count: max(0, length - name.utf8.count)))
            }
            say("set-many")
        case "set-mixed":
            // set-mixed PREFIX COUNT: sets COUNT keys whose names are 12 to 40 bytes long (the
            // lengths taking turns), each to its index; prints "set-mixed".
            guard words.count == 3, let count = Int(words[2]) else { fail("set-mixed PREFIX COUNT") }
            for index in 0..<count {
                let name = "\(words[1])-\(index)-"
                let length = 12 + (index * 7) % 29
                store.set(index, forKey: name + String(repeating: "m", count: max(0, length - name.utf8.count)))
            }
            say("set-mixed")
        default:
            fail("unknown line \(line)")
        }
    }
default:
    fail("unknown command \(command)")
}
