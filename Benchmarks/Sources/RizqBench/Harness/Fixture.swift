import Foundation
import RizqPrefs

/// The same data in both stores: `size` Int keys named `key-0` … in one suite each.
struct Fixture {
    let ours: SuiteStore
    let foundation: UserDefaults
    let keys: [String]
    let foundationSuite: String

    init(home: BenchHome, name: String, size: Int) throws {
        ours = try SuiteStore(suite: name, appID: BenchHome.appID, root: home.prefsRoot)
        foundationSuite = "bench." + name
        keys = (0..<size).map { "key-\($0)" }
        // Filled in one step each: filling a large Foundation suite key by key (or with
        // setPersistentDomain) takes minutes at 100,000 keys, so its plist is written directly.
        var domain: [String: Any] = [:]
        for (index, key) in keys.enumerated() { domain[key] = index }
        let plist = try PropertyListSerialization.data(fromPropertyList: domain, format: .xml, options: 0)
        try FileManager.default.createDirectory(atPath: home.foundationFolder, withIntermediateDirectories: true)
        try plist.write(to: URL(fileURLWithPath: home.foundationFolder + "/" + foundationSuite + ".plist"))
        guard let defaults = UserDefaults(suiteName: foundationSuite) else {
            throw BenchError("Foundation refused suite \(foundationSuite)")
        }
        foundation = defaults
        let keys = keys
        ours.batch { batch in
            for (index, key) in keys.enumerated() { try? batch.set(index, forKey: key) }
        }
        try ours.flush()
    }

    /// A pseudo-random but repeatable walk over the keys: every contender of a workload takes
    /// the same steps, so that all pay the same cache misses.
    func index(_ step: Int) -> Int {
        (step &* 7919) % keys.count
    }

    func key(_ step: Int) -> String {
        keys[index(step)]
    }
}

/// The temporary home the benchmarks run in: our suites and Foundation's plists both live there.
struct BenchHome {
    static let appID = "com.rizq.bench"
    let path: String
    var prefsRoot: String { path + "/prefs" }
    /// Where swift-corelibs-foundation keeps `UserDefaults(suiteName:)` files.
    var foundationFolder: String {
        (ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.config"))
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
