import Foundation
import RizqPrefs

// StartupProbe MODE …: the `startup` workload's processes (RizqBench's StartupWorkload times each
// from spawn to reap). One binary for all of them, so that ours, the floors and the peer start
// the same program — the same Swift runtime, Foundation and libraries — and differ only in what
// they do before they exit:
//   StartupProbe ours ROOT APP SUITE KEY    opens the suite with SuiteStore, as an app or a CLI
//                                           tool does, and prints KEY's integer
//   StartupProbe floor FILE KEYS KEY        reads and parses the same suite file (the `open`
//                                           workload's parse floor: simdjson + Dictionary) and
//                                           prints KEY's index
//   StartupProbe foundation SUITE KEY       UserDefaults(suiteName:) and integer(forKey:)
//   StartupProbe nothing                    exits: the start-up of this program alone
let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StartupProbe: \(message)\n".utf8))
    exit(1)
}

switch (arguments.first, arguments.count) {
case ("nothing", 1):
    exit(0)
case ("ours", 5):
    do {
        let store = try SuiteStore(suite: arguments[3], appID: arguments[2], root: arguments[1])
        guard let value = store.value(forKey: arguments[4], as: Int.self) else { fail("no key \(arguments[4]) in the suite") }
        print(value)
    } catch {
        fail("\(error)")
    }
case ("floor", 4):
    guard let keys = Int(arguments[2]) else { fail("KEYS must be a number") }
    do {
        let floor = try ParseFloor(path: arguments[1], size: keys, sizesBuffers: false)
        let (_, table, count) = try floor.open(lookingUp: arguments[3])
        guard count == keys, let index = table[arguments[3]] else { fail("the floor read \(count) keys, not \(keys) with \(arguments[3])") }
        print(index)
    } catch {
        fail("\(error)")
    }
case ("foundation", 3):
    guard let defaults = UserDefaults(suiteName: arguments[1]), defaults.object(forKey: arguments[2]) != nil else {
        fail("no key \(arguments[2]) in Foundation's suite \(arguments[1])")
    }
    print(defaults.integer(forKey: arguments[2]))
default:
    fail("usage: StartupProbe ours ROOT APP SUITE KEY | floor FILE KEYS KEY | foundation SUITE KEY | nothing")
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Keeps a computed value alive (ParseFloor's checksum), as RizqBench's does.
@inline(never)
func blackHole(_ value: Int) {
    if value == Int.min { print("") }
}
