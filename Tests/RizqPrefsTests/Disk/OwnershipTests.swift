import Foundation
import XCTest
@testable import RizqPrefs

/// Issue 29, item 6 (ownership): a root process writing a user's suite (`sudo -E`, a root service
/// with the user's `RIZQ_PREFS_HOME`) keeps the owner of the suite file, its lock file, its change
/// record and its folders as they were — it used to make them `root:root`, after which the
/// user's own app failed with "Permission denied". Real processes: the user is `nobody`
/// (`runuser -u nobody`), the root writer is this test.
final class OwnershipTests: XCTestCase {
    static let nobody: (uid: uid_t, gid: gid_t) = (65_534, 65_534)

    private func nobodysRoot() throws -> TemporaryRoot {
        try XCTSkipIf(geteuid() != 0, "needs root (runuser)")
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") && !FileManager.default.isExecutableFile(atPath: "/sbin/runuser"), "needs runuser")
        let root = TemporaryRoot()
        XCTAssertEqual(chown(root.path, Self.nobody.uid, Self.nobody.gid), 0)
        return root
    }

    private func asNobody(_ root: TemporaryRoot, _ suite: String, _ arguments: [String]) throws -> Child.Output {
        try Child.run(root, suite, arguments, wrapper: ["/usr/sbin/runuser", "-u", "nobody", "--"])
    }

    private func owner(_ path: String) -> uid_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_uid : nil
    }

    func testARootWriteKeepsTheUsersOwnershipAndTheUserWritesAgain() throws {
        let root = try nobodysRoot()
        let suite = "group.com.rizq.owned"
        let first = try asNobody(root, suite, ["set-json", "users", "1"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let file = root.filePath(suite)
        let folder = root.path + "/groups"
        let lockFile = folder + "/.\(suite).lock"
        XCTAssertEqual(owner(file), Self.nobody.uid)

        let store = try root.store(suite)
        store.set(2, forKey: "roots")
        try store.flush()
        for path in [file, folder, lockFile] {
            XCTAssertEqual(owner(path), Self.nobody.uid, "\(path) still belongs to the user")
        }
        var info = stat()
        XCTAssertEqual(lstat(file, &info), 0)
        XCTAssertEqual(info.st_gid, Self.nobody.gid)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)

        let again = try asNobody(root, suite, ["set-json", "users", "3"])
        XCTAssertEqual(again.status, 0, "the user's own app writes again: \(again.stderr)")
        let read = try asNobody(root, suite, ["read", "users:int", "roots:int"])
        XCTAssertEqual(read.lines, ["3", "2"], read.stderr)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            XCTAssertEqual(owner(folder + "/" + name), Self.nobody.uid, "\(name) belongs to the user")
        }
    }

    /// A root write that creates the suite's folders and file under the user's root makes them
    /// the user's, and the user then writes the suite.
    func testARootWriteCreatingTheSuiteMakesItTheUsers() throws {
        let root = try nobodysRoot()
        let suite = "com.rizq.created-by-root"
        let store = try root.store(suite, app: "tests")
        store.set(1, forKey: "roots")
        try store.flush()
        for path in [root.path + "/apps", root.path + "/apps/tests", root.filePath(suite, app: "tests")] {
            XCTAssertEqual(owner(path), Self.nobody.uid, "\(path) belongs to the user")
        }
        let write = try asNobody(root, suite, ["set-json", "users", "1"])
        XCTAssertEqual(write.status, 0, write.stderr)
    }
}
