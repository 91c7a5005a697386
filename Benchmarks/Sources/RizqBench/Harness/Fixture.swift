import Foundation
import RizqPrefs

/// Our suite of `size` Int keys named `key-0` …, each holding its index. The peers hold the
/// same data in processes of their own (``FoundationFixture``, ``GSettingsSuite``).
struct Fixture {
    let ours: SuiteStore
    let keys: [String]

    init(home: BenchHome, name: String, size: Int) throws {
        ours = try SuiteStore(suite: name, appID: BenchHome.appID, root: home.prefsRoot)
        keys = Fixture.keys(size)
        let keys = keys
        ours.batch { batch in
            for (index, key) in keys.enumerated() { try? batch.set(index, forKey: key) }
        }
        try ours.flush()
    }

    static func keys(_ size: Int) -> [String] { (0..<size).map { "key-\($0)" } }

    /// A pseudo-random but repeatable walk over the keys: every contender of a workload takes
    /// the same steps, so that all pay the same cache misses.
    static func index(_ step: Int, count: Int) -> Int {
        (step &* 7919) % count
    }

    func index(_ step: Int) -> Int { Fixture.index(step, count: keys.count) }

    func key(_ step: Int) -> String {
        keys[index(step)]
    }
}

/// The same data as ``Fixture``'s in Foundation's `UserDefaults`: a suite `bench.NAME` of `size`
/// Int keys, for the Foundation peer, in its own process (``PeerProcess``).
struct FoundationFixture {
    let defaults: UserDefaults
    let keys: [String]
    let suite: String
    /// The suite's plist.
    let path: String

    init(home: BenchHome, name: String, size: Int) throws {
        suite = "bench." + name
        keys = Fixture.keys(size)
        path = home.foundationFolder + "/" + suite + ".plist"
        try FoundationFixture.writePlist(keys: keys, to: path, home: home)
        guard let defaults = UserDefaults(suiteName: suite) else {
            throw BenchError("Foundation refused suite \(suite)")
        }
        self.defaults = defaults
    }

    /// Writes the suite's plist in one step: filling a large Foundation suite key by key (or
    /// with setPersistentDomain) takes minutes at 100,000 keys.
    static func writePlist(keys: [String], to path: String, home: BenchHome) throws {
        var domain: [String: Any] = [:]
        for (index, key) in keys.enumerated() { domain[key] = index }
        let plist = try PropertyListSerialization.data(fromPropertyList: domain, format: .xml, options: 0)
        try FileManager.default.createDirectory(atPath: home.foundationFolder, withIntermediateDirectories: true)
        try plist.write(to: URL(fileURLWithPath: path))
    }

    /// The walk of ``Fixture/key(_:)``.
    func key(_ step: Int) -> String { keys[Fixture.index(step, count: keys.count)] }
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
