import Foundation
import RizqPrefs

/// `open`: what a new process pays to open an existing suite of `size` keys and read one key.
/// Both stores cache open suites for the life of a process, so each sample opens a fresh copy
/// of the file under a new name (the copy is not timed).
enum OpenWorkload {
    static func run(home: BenchHome, size: Int, sampler: Sampler) throws -> BenchResult {
        let fixture = try Fixture(home: home, name: "open-\(size)", size: size)
        let foundationFile = home.foundationFolder + "/" + fixture.foundationSuite + ".plist"
        var round = 0
        var sink = 0
        let (ours, baseline) = try sampler.compare(
            ours: {
                round += 1
                let root = home.path + "/open-copies/\(size)-\(round)"
                try FileManager.default.createDirectory(atPath: root + "/apps/" + BenchHome.appID, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: fixture.ours.location.path, toPath: root + "/apps/" + BenchHome.appID + "/open-\(size).json")
                return try elapsedNanoseconds {
                    let store = try SuiteStore(suite: "open-\(size)", appID: BenchHome.appID, root: root)
                    sink &+= store.value(forKey: "key-1", as: Int.self) ?? 0
                }
            },
            baseline: {
                round += 1
                let name = "bench.open-copy-\(size)-\(round)"
                try FileManager.default.copyItem(atPath: foundationFile, toPath: home.foundationFolder + "/" + name + ".plist")
                return try elapsedNanoseconds {
                    guard let defaults = UserDefaults(suiteName: name) else { throw BenchError("Foundation refused a suite") }
                    sink &+= defaults.integer(forKey: "key-1")
                }
            })
        if sink == -1 { print("") }
        return BenchResult(workload: "open", size: size, ours: ours, baseline: "Foundation.UserDefaults", baselineValue: baseline, unit: "ns")
    }
}
