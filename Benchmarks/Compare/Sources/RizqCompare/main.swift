// One workload of RizqPrefs, timed in this process, for `scripts/bench-compare`: the same source
// is built against two commits of the library, and the two programs run in turns. It uses only
// API that every commit since the first benchmarks has (`SuiteStore(suite:appID:root:)`, `set`,
// `flush`, `value(forKey:as:)`), so that any two of them can be compared.
//
//     RizqCompare WORKLOAD SIZE SAMPLES
//
// prints the median of SAMPLES timed samples (after two untimed ones), in nanoseconds: per
// operation for `get` and `set-memory`, per open for `open`, per set and flush for `flush`. The timed part
// of every sample runs inside `measuredRegion`, which callgrind can collect alone
// (`--toggle-collect=*measuredRegion*`) to count instructions instead of time.
import Foundation
import RizqPrefs

#if canImport(Glibc)
import Glibc
#endif

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Runs `body` and returns how long it took, in nanoseconds.
@inline(never)
func measuredRegion(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let size = Int(arguments[2]), size > 0, let samples = Int(arguments[3]), samples > 0 else {
    throw UsageError(description: "usage: RizqCompare get|layered-get|set-memory|open|flush SIZE SAMPLES")
}
let workload = arguments[1]
let appID = "com.rizq.compare"
let root = FileManager.default.temporaryDirectory.path + "/rizq-compare-\(getpid())"
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }

/// A suite of `size` keys `key-0`, `key-1`, … holding their index, written to disk.
func filledSuite(_ name: String, under folder: String) throws -> SuiteStore {
    let store = try SuiteStore(suite: name, appID: appID, root: folder)
    for index in 0..<size { store.set(index, forKey: "key-\(index)") }
    try store.flush()
    return store
}

/// The keys of 10,000 operations, scattered over the suite in a repeatable order.
let operationKeys = (0..<10_000).map { "key-\(($0 &* 7919) % size)" }
var timings: [Double] = []
var sink = 0

switch workload {
case "get":
    let store = try filledSuite("get", under: root)
    for _ in 0..<(samples + 2) {
        let elapsed = measuredRegion {
            for key in operationKeys { sink &+= store.value(forKey: key, as: Int.self) ?? 0 }
        }
        timings.append(elapsed / Double(operationKeys.count))
    }
case "layered-get":
    // The same reads under an administrator's managed file, a defaults file and a schema (each
    // naming a tenth of the keys), read from folders of this run's own (issue 47). A commit
    // from before the layers reads none of them: against it, this is today's get.
    let config = root + "/etc", data = root + "/share"
    let managed = (0..<size).filter { $0 % 10 == 0 }.map { "\"key-\($0)\": \($0 + 1)" }.joined(separator: ",")
    let defaults = (0..<size).filter { $0 % 10 == 1 }.map { "\"other-\($0)\": \($0)" }.joined(separator: ",")
    let checks = (0..<size).filter { $0 % 10 == 2 }.map { "\"key-\($0)\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": 100000000}" }.joined(separator: ",")
    for (folder, name, text) in [
        (config + "/rizq-prefs/managed/apps/" + appID, "layered-get.json", "{" + managed + "}"),
        (config + "/rizq-prefs/defaults/apps/" + appID, "layered-get.json", "{" + defaults + "}"),
        (data + "/rizq-prefs/schemas/apps/" + appID, "layered-get.schema.json", "{\"type\": \"object\", \"properties\": {" + checks + "}}"),
    ] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }
    setenv("XDG_CONFIG_DIRS", config, 1)
    setenv("XDG_DATA_DIRS", data, 1)
    let store = try filledSuite("layered-get", under: root)
    for _ in 0..<(samples + 2) {
        let elapsed = measuredRegion {
            for key in operationKeys { sink &+= store.value(forKey: key, as: Int.self) ?? 0 }
        }
        timings.append(elapsed / Double(operationKeys.count))
    }
case "set-memory":
    let store = try filledSuite("set-memory", under: root)
    for sample in 0..<(samples + 2) {
        let elapsed = measuredRegion {
            for (step, key) in operationKeys.enumerated() { store.set(step &+ sample, forKey: key) }
        }
        timings.append(elapsed / Double(operationKeys.count))
        try store.flush()
    }
case "open":
    let original = try filledSuite("open", under: root).location.path
    for sample in 0..<(samples + 2) {
        // A fresh copy each time: a process keeps the suites it opened.
        let copyRoot = root + "/copy-\(sample)"
        try FileManager.default.createDirectory(atPath: copyRoot + "/apps/" + appID, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: original, toPath: copyRoot + "/apps/" + appID + "/open.json")
        let elapsed = try measuredRegion {
            let store = try SuiteStore(suite: "open", appID: appID, root: copyRoot)
            sink &+= store.value(forKey: "key-1", as: Int.self) ?? 0
        }
        timings.append(elapsed)
    }
case "flush":
    let store = try filledSuite("flush", under: root)
    for sample in 0..<(samples + 2) {
        sync()  // every sample starts on a settled disk
        // The set is timed too: set alone, its change could be written by the store's own
        // background write before flush() is called, and flush() would then find nothing to do.
        timings.append(try measuredRegion {
            store.set(sample, forKey: operationKeys[sample % operationKeys.count])
            try store.flush()
        })
    }
default:
    throw UsageError(description: "unknown workload '\(workload)' (get, layered-get, set-memory, open, flush)")
}

blackHole(sink)
let kept = timings.dropFirst(2).sorted()
print(kept[kept.count / 2])
