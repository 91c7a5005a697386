import Foundation
import RizqTestSupport
import XCTest

/// Issue 37, item 2: files another user made are not trusted. A key file `nobody` created
/// beforehand (mode 644) was adopted as the vault's key; a passphrase file everyone can read was
/// used without a word. Both are refused now, naming the check that failed. Real users: root
/// (this test) and `nobody` (`runuser`).
final class VaultForeignFilesTests: VaultTestCase {
    static let nobody: uid_t = 65_534

    /// A folder of the scratch folder that `nobody` owns and can write.
    private func nobodysFolder() throws -> String {
        try requireRoot()
        try requireTool("/usr/sbin/runuser")
        let path = scratch + "/nobody"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        XCTAssertEqual(chown(path, Self.nobody, Self.nobody), 0)
        return path
    }

    func testAKeyFileAnotherUserMadeBeforehandIsNotAdopted() throws {
        try requireTool("/usr/bin/age-keygen")
        let keyFile = try nobodysFolder() + "/planted-key.txt"
        let planted = try runProcess("/usr/sbin/runuser", ["-u", "nobody", "--", "/bin/sh", "-c", "age-keygen -o \"$1\" 2>/dev/null && chmod 644 \"$1\"", "sh", keyFile])
        XCTAssertEqual(planted.status, 0, String(decoding: planted.stderr, as: UTF8.self))
        var info = stat()
        XCTAssertEqual(stat(keyFile, &info), 0)
        XCTAssertEqual(info.st_uid, Self.nobody)
        XCTAssertEqual(info.st_mode & 0o777, 0o644)

        let stored = try runChild(["set", service, "token"], input: Data("not for nobody".utf8), environment: ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"])
        XCTAssertTrue(stored.stdout.hasPrefix("error untrusted refusing to use \(keyFile): it belongs to user 65534 (nobody)"), stored.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/recipient.txt"), "no vault was made with nobody's key")
        let status = try runChild(["status", service], environment: ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_SYSTEMD": "1"]).stdout
        XCTAssertTrue(status.contains("key-file present=true usable=false") && status.contains("belongs to user 65534"), status)

        // Root's own key file that others can read: refused too, naming the mode.
        let open = try writeFile("open-key.txt", "")
        XCTAssertEqual(try runProcess("/usr/bin/age-keygen", ["-o", scratch + "/fresh-key.txt"]).status, 0)
        try FileManager.default.removeItem(atPath: open)
        try FileManager.default.moveItem(atPath: scratch + "/fresh-key.txt", toPath: open)
        XCTAssertEqual(chmod(open, 0o644), 0)
        let readable = try runChild(["set", service, "token"], input: Data("v".utf8), environment: ["RIZQ_SECRETS_KEY_FILE": open, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"])
        XCTAssertTrue(readable.stdout.hasPrefix("error untrusted ") && readable.stdout.contains("has mode 644, so other users can read it"), readable.stdout)
    }

    func testAPassphraseFileEveryoneCanReadIsRefusedNamingTheCheck() throws {
        let passphrase = try writeFile("passphrase", "readable by all \(UUID().uuidString)\n")
        let environment = ["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_TEST_WORK_FACTOR": "15"]
        XCTAssertEqual(try runChild(["set", service, "token"], input: Data("v".utf8), environment: environment).stdout, "ok stored\n")
        XCTAssertEqual(chmod(passphrase, 0o644), 0)
        for arguments in [["get", service, "token"], ["set", service, "other"]] {
            let refused = try runChild(arguments, input: Data("w".utf8), environment: environment)
            XCTAssertTrue(refused.stdout.hasPrefix("error noKeySource "), refused.stdout)
            XCTAssertTrue(refused.stdout.contains("the passphrase file \(passphrase) is refused: ") && refused.stdout.contains("has mode 644, so other users can read it; make it private (chmod 600 '\(passphrase)')"), refused.stdout)
        }
        // A new vault is not made with it either.
        let fresh = try runChild(["set", service + ".new", "token"], input: Data("v".utf8), environment: environment)
        XCTAssertTrue(fresh.stdout.hasPrefix("error noKeySource ") && fresh.stdout.contains("other users can read it"), fresh.stdout)
    }

    /// Issue 50, item 10: the secrets root above a service folder was never judged, and a
    /// service folder every user can write was accepted when it had the sticky bit (and then
    /// quietly made 0700, keeping what others had put in it). Both are refused now, naming the
    /// folder and the mode, and nothing is made in them.
    func testASecretsRootOrServiceFolderOthersCanWriteIsRefusedStickyOrNot() throws {
        let passphrase = try writeFile("passphrase", "roots \(UUID().uuidString)\n")
        let environment = ["RIZQ_SECRETS_PASSPHRASE_FILE": passphrase, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_TEST_WORK_FACTOR": "15"]
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(root, 0o1777), 0)
        let underOpenRoot = try runChild(["set", service, "token"], input: Data("v".utf8), environment: environment)
        XCTAssertTrue(underOpenRoot.stdout.hasPrefix("error untrusted "), underOpenRoot.stdout)
        XCTAssertTrue(underOpenRoot.stdout.contains(root) && underOpenRoot.stdout.contains("has mode 1777, so any user can write it"), underOpenRoot.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "nothing made under a root others can write")

        XCTAssertEqual(chmod(root, 0o700), 0)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(folder, 0o1777), 0)
        for arguments in [["set", service, "token"], ["get", service, "token"]] {
            let openFolder = try runChild(arguments, input: Data("v".utf8), environment: environment)
            XCTAssertTrue(openFolder.stdout.hasPrefix("error untrusted "), openFolder.stdout)
            XCTAssertTrue(openFolder.stdout.contains(folder) && openFolder.stdout.contains("has mode 1777, so any user can write it"), openFolder.stdout)
        }
        var info = stat()
        XCTAssertEqual(stat(folder, &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o1777, "left as it was, for its owner to look at")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/recipient.txt"))
    }
}
