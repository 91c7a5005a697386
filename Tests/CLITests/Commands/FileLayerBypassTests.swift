import Foundation
import XCTest

/// Issue 50, items 3, 8, 17 and 18: the paths that still bypassed the file layer. A FIFO hung
/// them for good (a sandbox given the shared folder can plant one), their size was unbounded,
/// hard links were appended to, and a root process gave away files it had not made. Each runs
/// under `timeout`, a bound that only stops a hang (a hung command is status 124).
final class FileLayerBypassTests: XCTestCase {
    /// `rizq-prefs ARGUMENTS` stopped after 30 s if it hangs.
    private func bounded(_ cli: CLIHarness, _ arguments: [String], environment extra: [String: String?] = [:]) throws -> CLIResult {
        var environment = cli.environment
        for (name, value) in extra { environment[name] = value }
        let result = try runProcess("/usr/bin/timeout", ["30", CLIHarness.binary] + arguments, environment: environment)
        return CLIResult(status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self), stderr: String(decoding: result.stderr, as: UTF8.self), stdoutBytes: result.stdout)
    }

    /// Item 18 (and 8): a FIFO at `.S.changes` hung `set` for good.
    func testAFIFOAtTheChangeLogDoesNotHangAWrite() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run("set", "first", "1").status, 0)
        let log = cli.root + "/apps/\(cli.appID)/.\(cli.appID).changes"
        try? FileManager.default.removeItem(atPath: log)
        XCTAssertEqual(mkfifo(log, 0o600), 0)
        let set = try bounded(cli, ["set", "second", "2"])
        XCTAssertNotEqual(set.status, 124, "set hung on the FIFO")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(try cli.run("get", "second").stdout, "2\n")
        var info = stat()
        XCTAssertEqual(lstat(log, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "left where it is")
    }

    /// Items 3 and 17: root's `set` on another user's suite handed hard-linked root-owned files
    /// (the lock file, the change log) to that user and appended to them.
    func testRootWritingAUsersSuiteGivesAwayAndAppendsToNothingItDidNotMake() throws {
        try requireRoot()
        let cli = try CLIHarness()
        let folder = cli.root + "/apps/\(cli.appID)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for path in [cli.root, cli.root + "/apps", folder] { XCTAssertEqual(chown(path, 65_534, 65_534), 0) }
        XCTAssertEqual(chmod(cli.root, 0o755), 0)
        // Root's own files, somewhere the user cannot write.
        let rootsFolder = cli.root + "-roots"
        try FileManager.default.createDirectory(atPath: rootsFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: rootsFolder) }
        let shadow = rootsFolder + "/shadow", passwd = rootsFolder + "/passwd"
        for path in [shadow, passwd] {
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("root's own\n".utf8), attributes: [.posixPermissions: 0o600]))
        }
        XCTAssertEqual(link(shadow, folder + "/.\(cli.appID).lock"), 0)
        XCTAssertEqual(link(passwd, folder + "/.\(cli.appID).changes"), 0)
        _ = try bounded(cli, ["set", "k", "v"])
        for path in [shadow, passwd] {
            var info = stat()
            XCTAssertEqual(stat(path, &info), 0)
            XCTAssertEqual(info.st_uid, 0, "\(path) was given away")
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "root's own\n", "\(path) was written")
        }
    }

    /// Item 8: the replica id, Syncthing's `config.xml` and `.stignore` were read past the file
    /// layer: a FIFO at any of them hung the command.
    func testAFIFOWhereSyncReadsItsFilesDoesNotHang() throws {
        let cli = try CLIHarness()
        // The replica id goes through the file layer's rule, not only past its FIFO check (a
        // FIFO does not block Foundation's read): one any user could have written is not taken.
        let open = cli.root + "/open-state"
        try FileManager.default.createDirectory(atPath: open + "/rizq-prefs", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: open + "/rizq-prefs/replica-id", contents: Data("device-planted\n".utf8)))
        XCTAssertEqual(chmod(open + "/rizq-prefs/replica-id", 0o666), 0)
        let elsewhere = cli.root + "/synced-elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let planted = try bounded(
            cli, ["sync", "enable", cli.appID, "--folder", elsewhere, "--first-device", "--keys", "k"],
            environment: ["XDG_STATE_HOME": open, "RIZQ_PREFS_REPLICA_ID": nil])
        XCTAssertNotEqual(planted.status, 0, "a replica id others can write was taken: \(planted.stdout)")
        XCTAssertTrue(planted.stderr.contains("replica-id"), planted.stderr)
        let state = cli.root + "/state"
        try FileManager.default.createDirectory(atPath: state + "/rizq-prefs", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(state + "/rizq-prefs/replica-id", 0o600), 0)
        let shared = cli.root + "/synced"
        try FileManager.default.createDirectory(atPath: shared + "/.stfolder", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(shared + "/.stignore", 0o600), 0)
        let home = cli.root + "/syncthing"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(home + "/config.xml", 0o600), 0)
        let environment: [String: String?] = ["XDG_STATE_HOME": state, "RIZQ_PREFS_REPLICA_ID": nil]
        let enable = try bounded(cli, ["sync", "enable", cli.appID, "--folder", shared, "--first-device", "--keys", "k"], environment: environment)
        XCTAssertNotEqual(enable.status, 124, "sync enable hung on the replica id FIFO")
        XCTAssertTrue(enable.stderr.contains("replica"), enable.stderr)
        let withID: [String: String?] = ["XDG_STATE_HOME": state, "RIZQ_PREFS_REPLICA_ID": "device-a"]
        let again = try bounded(cli, ["sync", "enable", cli.appID, "--folder", shared, "--first-device", "--keys", "k", "--syncthing-home", home], environment: withID)
        XCTAssertNotEqual(again.status, 124, "sync enable hung on .stignore or config.xml: \(again.stderr)")
        var ignore = stat()
        XCTAssertEqual(lstat(shared + "/.stignore", &ignore), 0)
        XCTAssertEqual(ignore.st_mode & S_IFMT, S_IFIFO, ".stignore is refused and left where it is, not replaced")
        let status = try bounded(cli, ["sync", "status"], environment: withID)
        XCTAssertNotEqual(status.status, 124, "sync status hung on config.xml")
        XCTAssertTrue((status.stdout + status.stderr).contains("FIFO"), status.stdout + status.stderr)
    }
}
