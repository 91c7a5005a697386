import Foundation
import RizqTestSupport
import XCTest

/// LevelDB, SQLite and snappy are loaded when a profile is read, never before: `rizq-prefs get`,
/// `set` and `list` start without them, and where one is not installed a command that needs it
/// says which package to install while the others work.
final class ProfileLibraryLoadingTests: XCTestCase {
    private let profileLibraries = ["libleveldb", "libsqlite3", "libsnappy"]

    /// The shared libraries a run loaded, linked or opened later, as the dynamic loader reports
    /// them (`LD_DEBUG=files`, into a folder of its own).
    private func librariesLoaded(_ arguments: [String], home: String, root: String) throws -> (status: Int32, stderr: String, libraries: Set<String>) {
        let folder = NSTemporaryDirectory() + "rizq-ld-debug-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["RIZQ_PREFS_HOME"] = root
        environment["RIZQ_PREFS_APP_ID"] = "com.rizq.loading"
        environment["LD_DEBUG"] = "files"
        environment["LD_DEBUG_OUTPUT"] = folder + "/ld"
        let result = try runCommand(builtProduct("rizq-prefs"), arguments, environment: environment)
        var libraries = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            for line in try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n") {
                guard let start = line.range(of: "file=")?.upperBound else { continue }
                libraries.insert(String(line[start...].prefix { $0 != " " && $0 != "[" }))
            }
        }
        return (result.status, result.stderr, libraries)
    }

    private func profileLibraries(in libraries: Set<String>) -> [String] {
        libraries.filter { library in profileLibraries.contains { library.hasPrefix($0 + ".so") } }.sorted()
    }

    func testCommandsThatReadNoProfileLoadNoProfileLibrary() throws {
        let home = TemporaryFolder("rizq-home")
        let root = TemporaryFolder("rizq-root")
        for arguments in [["set", "streak", "12", "--int"], ["get", "streak"], ["list"], ["export"]] {
            let run = try librariesLoaded(arguments, home: home.path, root: root.path)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.libraries.contains("libc.so.6"), "the loader's report was read: \(run.libraries.sorted())")
            XCTAssertEqual(profileLibraries(in: run.libraries), [], "\(arguments) loaded \(run.libraries.sorted())")
        }
    }

    func testReadingAChromiumProfileLoadsLevelDB() throws {
        let home = TemporaryFolder("rizq-home")
        let root = TemporaryFolder("rizq-root")
        try makeChromiumProfile(home)
        let run = try librariesLoaded(["import-app", "--from", "chromium", "--list"], home: home.path, root: root.path)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(profileLibraries(in: run.libraries).contains { $0.hasPrefix("libleveldb") }, "the check can see a profile library: \(run.libraries.sorted())")
    }

    func testWithoutLevelDBAProfileReadSaysWhatToInstallAndOtherCommandsWork() throws {
        let home = TemporaryFolder("rizq-home")
        let root = TemporaryFolder("rizq-root")
        try makeChromiumProfile(home)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.path + "/.config"
        environment["RIZQ_PREFS_HOME"] = root.path
        environment["RIZQ_PREFS_APP_ID"] = "com.rizq.loading"
        let read = try runWithoutLibrary("libleveldb", builtProduct("rizq-prefs"), ["import-app", "--from", "chromium", "--list"], environment: environment)
        XCTAssertNotEqual(read.status, 0)
        XCTAssertTrue(read.stderr.contains("apt-get install libleveldb1d"), read.stderr)
        let set = try runWithoutLibrary("libleveldb", builtProduct("rizq-prefs"), ["set", "streak", "3", "--int"], environment: environment)
        XCTAssertEqual(set.status, 0, set.stderr)
        let get = try runWithoutLibrary("libleveldb", builtProduct("rizq-prefs"), ["get", "streak"], environment: environment)
        XCTAssertEqual(get.stdout, "3\n", get.stderr)
    }

    /// A Chromium user-data folder with one origin in its Default profile.
    private func makeChromiumProfile(_ home: TemporaryFolder) throws {
        let leveldb = home.folder(".config/chromium/Default/Local Storage/leveldb")
        _ = FileManager.default.createFile(atPath: home.path + "/.config/chromium/Local State", contents: Data(#"{"profile": {"info_cache": {"Default": {"name": "Person 1"}}}}"#.utf8))
        let database = try LevelDBWriter(folder: leveldb)
        try database.put(LevelDBWriter.dataKey("https://app.rizq.io", LevelDBWriter.chromiumBytes("theme")), LevelDBWriter.chromiumBytes("dark"))
    }
}
