import Foundation
import RizqJSON
import RizqPrefs
import RizqSync

// One device of the device-sync tests, running DeviceSync as an app does (started: it merges
// and publishes by itself), driven line by line on stdin:
//
//   rizq-sync-test-child ROOT APP SUITE REPLICA FOLDER [--first-device] [--keys a,b]
//                        [--syncthing-home HOME]
//
//   set KEY JSON     → "ok set KEY STAMP" | "error set KEY MESSAGE"   (DeviceSync.set)
//   delete KEY       → "ok delete KEY STAMP"
//   get KEY          → "value KEY JSON" | "value KEY -"
//   wait KEY JSON [S] → "seen KEY" once the suite holds JSON under KEY | "timeout KEY" (S s, default 120)
//   now              → "ok now"                                        (DeviceSync.syncNow)
//   skews            → "skew DEVICE this|other OFFSET-MS" each, then "skews done" (DeviceSync.clockSkews)
//   quit             → exits 0
//
// It prints "ready" once started, and one line per event: "merged REASON k1,k2",
// "published", "refused KEY", "status …", "skipped KEY DEVICE", "unreadable PATH",
// "clock DEVICE OFFSET-MS", "decided KEY".
/// One line to stdout, at once (write(2): the test waits for it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("rizq-sync-test-child: \(message)\n".utf8))
    exit(2)
}

/// The command line. Under libfaketime (scripts/with-clock-offset) Swift's
/// `CommandLine.arguments` comes out empty (seen with Swift 6.3.1 and libfaketime 0.9.10): the
/// kernel's copy in /proc/self/cmdline is read instead.
func commandLine() -> [String] {
    if !CommandLine.arguments.isEmpty { return CommandLine.arguments }
    guard let data = FileManager.default.contents(atPath: "/proc/self/cmdline") else { return [] }
    return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
}

var arguments = Array(commandLine().dropFirst())
guard arguments.count >= 5 else { fail("ROOT APP SUITE REPLICA FOLDER [--first-device] [--keys a,b] [--syncthing-home HOME]") }
let (root, app, suite, replica, folder) = (arguments[0], arguments[1], arguments[2], arguments[3], arguments[4])
arguments.removeFirst(5)
var configuration = DeviceSyncConfiguration(folder: folder)
while let option = arguments.first {
    arguments.removeFirst()
    switch option {
    case "--first-device": configuration.isFirstDevice = true
    case "--keys": configuration.keys = (arguments.first ?? "").split(separator: ",").map(String.init); arguments.removeFirst()
    case "--syncthing-home": configuration.engineCheck = .syncthing(home: arguments.first ?? ""); arguments.removeFirst()
    default: fail("unknown option \(option)")
    }
}

let store: SuiteStore
let sync: DeviceSync
do {
    store = try SuiteStore(suite: suite, appID: app, root: root)
    sync = try store.enableDeviceSync(configuration, replicaID: replica)
} catch {
    fail("\(error)")
}
let events = sync.events
Task.detached {
    for await event in events {
        switch event {
        case .merged(let keys, let reason): say("merged \(reason.rawValue) \(keys.joined(separator: ","))")
        case .published: say("published")
        case .secretRefused(let key, _), .quotaExceeded(let key, _): say("refused \(key)")
        case .statusChanged(let status): say("status \(status)")
        case .inputSkipped(let skipped): say("skipped \(skipped.key ?? "-") \(skipped.device ?? "-")")
        case .unreadableReplica(let path, _): say("unreadable \(path)")
        case .clockSkew(let skew): say("clock \(skew.device) \(skew.offsetMilliseconds)")
        case .decidedByClock(let key, _): say("decided \(key)")
        default: break
        }
    }
}
sync.start()
say("ready")

func json(_ value: PrefValue?) -> String {
    guard let value else { return "-" }
    return (try? JSONWriter.string(value)) ?? "?"
}

while let line = readLine() {
    let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
    guard let command = parts.first else { continue }
    switch command {
    case "set" where parts.count == 3:
        do {
            let value = try JSONReader.parse(parts[2])
            try sync.set(value, forKey: parts[1])
            say("ok set \(parts[1]) \((try? sync.entries)?[parts[1]]?.stamp.description ?? "pending")")
        } catch {
            say("error set \(parts[1]) \(error)")
        }
    case "delete" where parts.count == 2:
        do {
            try sync.set(nil, forKey: parts[1])
            say("ok delete \(parts[1])")
        } catch {
            say("error delete \(parts[1]) \(error)")
        }
    case "get" where parts.count == 2:
        say("value \(parts[1]) \(json(store.entries[parts[1]]))")
    case "wait":
        // wait KEY JSON [SECONDS]
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 3, let expected = try? JSONReader.parse(words[2]) else {
            say("error wait: wait KEY JSON [SECONDS]")
            continue
        }
        let key = words[1]
        let seconds = words.count > 3 ? Double(words[3]) ?? 120 : 120
        let changes = store.changes(forKey: key)
        if store.entries[key] == expected {
            say("seen \(key)")
            continue
        }
        let seen = DispatchSemaphore(value: 0)
        let watcher = Task.detached {
            for await value in changes where value == expected {
                seen.signal()
                return
            }
        }
        // The bound only stops a hung test; the line is printed as soon as the value arrives.
        if seen.wait(timeout: .now() + seconds) == .success || store.entries[key] == expected {
            say("seen \(key)")
        } else {
            say("timeout \(key)")
        }
        watcher.cancel()
    case "now":
        do {
            try sync.syncNow()
            say("ok now")
        } catch {
            say("error now \(error)")
        }
    case "skews":
        // skews → "skew DEVICE this|other OFFSET-MS" per device, then "skews done"
        for skew in (try? sync.clockSkews) ?? [] {
            say("skew \(skew.device) \(skew.isThisDevice ? "this" : "other") \(skew.offsetMilliseconds)")
        }
        say("skews done")
    case "quit":
        sync.stop()
        try? store.flush()
        exit(0)
    default:
        say("error unknown command: \(line)")
    }
}
sync.stop()
try? store.flush()
