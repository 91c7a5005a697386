import Crypto
import Foundation
import RizqTestSupport
import XCTest

/// Issue 37, item 5: limits that agree. A write may not make `vault.age` larger than 256 MiB
/// (it used to accept six 32 MiB secrets and then refuse every read of the 272 MB file); a vault
/// that an older release let grow past it is still read, listed and shrunk (a read accepts up
/// to 512 MiB). The scrypt work factor a slot is written with is one a read accepts.
///
/// The big vaults are made the way the last release would have written them (its unsealed
/// format, encrypted by Debian's `age -r`) and taken by `upgradeUnsealedVault()`, so that each
/// test costs a few reads and writes of the big file rather than the dozens of stores that
/// would build it.
final class VaultLimitTests: VaultTestCase {
    static let mebibyte = 1 << 20
    var keyFile: String { scratch + "/key.txt" }
    var keyEnvironment: [String: String] { ["RIZQ_SECRETS_KEY_FILE": keyFile, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1"] }

    /// A vault of `count` secrets of 32 MiB (`big-0`, …), in the last release's format, made with
    /// age-keygen and `age -r`; returns the SHA-256 (hex) of each secret.
    private func makeBigVault(count: Int) throws -> [String] {
        try requireTool("/usr/bin/age")
        XCTAssertEqual(try runProcess("/usr/bin/age-keygen", ["-o", keyFile]).status, 0)
        let recipient = try runProcess("/usr/bin/age-keygen", ["-y", keyFile]).stdout
        try FileManager.default.createDirectory(atPath: folder + "/slots", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chmod(root, 0o700), 0)
        XCTAssertEqual(chmod(folder, 0o700), 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/recipient.txt", contents: recipient, attributes: [.posixPermissions: 0o600]))
        let script = #"""
            import base64, hashlib, json, sys
            count, size = int(sys.argv[1]), int(sys.argv[2])
            items, digests = {}, []
            for i in range(count):
                data = bytes((b * 7 + i) % 256 for b in range(256)) * (size // 256)
                digests.append(hashlib.sha256(data).hexdigest())
                items["big-%d" % i] = {"created": "2026-01-01T00:00:00.000Z", "data": base64.b64encode(data).decode(), "isText": False, "label": "big", "modified": "2026-01-01T00:00:00.000Z"}
            sys.stdout.write(json.dumps(items, separators=(",", ":")))
            sys.stderr.write(" ".join(digests))
            """#
        let json = try runProcess(Self.python, ["-c", script, String(count), String(32 * Self.mebibyte)])
        XCTAssertEqual(json.status, 0)
        let encrypted = try runProcess("/usr/bin/age", ["-r", String(decoding: recipient, as: UTF8.self).trimmingCharacters(in: .newlines), "-o", folder + "/vault.age"], input: json.stdout)
        XCTAssertEqual(encrypted.status, 0, String(decoding: encrypted.stderr, as: UTF8.self))
        XCTAssertEqual(chmod(folder + "/vault.age", 0o600), 0)
        // Issue 50, item 2: an unsealed vault is taken only by the named step, which seals it.
        XCTAssertEqual(try runChild(["upgrade", service], environment: keyEnvironment).stdout, "ok sealed\n")
        return String(decoding: json.stderr, as: UTF8.self).split(separator: " ").map(String.init)
    }

    private var vaultSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: folder + "/vault.age"))?[.size] as? NSNumber)?.intValue ?? -1
    }

    private func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    func testAWriteThatWouldTakeTheVaultPast256MiBIsRefusedSayingWhatStillFits() throws {
        _ = try makeBigVault(count: 5)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age"))
        let sixth = Data(repeating: 0x5A, count: 32 * Self.mebibyte)
        let refused = try runChild(["set", service, "sixth", "--binary"], input: sixth, environment: keyEnvironment)
        XCTAssertTrue(refused.stdout.hasPrefix("error vaultFull storing this would make the vault \(folder)/vault.age "), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("over the 256 MiB (268435456 bytes) a vault may hold"), refused.stdout)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/vault.age")), before, "nothing was written")
        print("refused: \(refused.stdout)")
        // "a secret of at most about N MiB (R bytes) still fits": and it does.
        let room = try XCTUnwrap(refused.stdout.range(of: #"\(([0-9]+) bytes\) still fits"#, options: .regularExpression).map {
            Int(refused.stdout[$0].dropFirst().prefix { $0.isNumber })
        } ?? nil)
        XCTAssertGreaterThan(room, 20 * Self.mebibyte)
        XCTAssertLessThan(room, 32 * Self.mebibyte)
        let fitting = try runChild(["set", service, "fits", "--binary"], input: Data(repeating: 0x33, count: room), environment: keyEnvironment)
        XCTAssertEqual(fitting.stdout, "ok stored\n", "a secret of the room announced fits")
        XCTAssertLessThanOrEqual(vaultSize, 256 * Self.mebibyte)
        XCTAssertEqual(try runChild(["list", service], environment: keyEnvironment).stdout, "ok big-0,big-1,big-2,big-3,big-4,fits\n")
        let full = try runChild(["set", service, "more", "--binary"], input: Data(repeating: 1, count: Self.mebibyte), environment: keyEnvironment)
        XCTAssertTrue(full.stdout.hasPrefix("error vaultFull "), full.stdout)
    }

    func testAVaultAlreadyPast256MiBIsReadListedAndShrunkButNotGrown() throws {
        let digests = try makeBigVault(count: 7)
        XCTAssertGreaterThan(vaultSize, 256 * Self.mebibyte)
        XCTAssertEqual(try runChild(["list", service], environment: keyEnvironment).stdout, "ok big-0,big-1,big-2,big-3,big-4,big-5,big-6\n")
        let read = try runProcess(Self.child, ["get", service, "big-3"], environment: environment(keyEnvironment))
        XCTAssertEqual(read.status, 0, String(decoding: read.stdout.prefix(300), as: UTF8.self))
        XCTAssertEqual(digest(read.stdout), digests[3])
        let grown = try runChild(["set", service, "small"], input: Data("x".utf8), environment: keyEnvironment)
        XCTAssertTrue(grown.stdout.hasPrefix("error vaultFull "), grown.stdout)
        // Each delete makes it smaller: allowed while it is still over the limit.
        XCTAssertEqual(try runChild(["delete", service, "big-0"], environment: keyEnvironment).stdout, "ok true\n")
        XCTAssertGreaterThan(vaultSize, 256 * Self.mebibyte, "still over the limit after one delete")
        XCTAssertEqual(try runChild(["delete", service, "big-1"], environment: keyEnvironment).stdout, "ok true\n")
        XCTAssertLessThanOrEqual(vaultSize, 256 * Self.mebibyte)
        XCTAssertEqual(try runChild(["set", service, "small"], input: Data("x".utf8), environment: keyEnvironment).stdout, "ok stored\n")
        XCTAssertEqual(try runChild(["list", service], environment: keyEnvironment).stdout, "ok big-2,big-3,big-4,big-5,big-6,small\n")
        let again = try runProcess(Self.child, ["get", service, "big-6"], environment: environment(keyEnvironment))
        XCTAssertEqual(digest(again.stdout), digests[6])
    }

    /// A passphrase slot is written only with a work factor a read accepts (…20): 21 was
    /// written (2 GiB, seconds of scrypt) and then refused by every read. Issue 50, item 15: nor
    /// below 2^15, where a guess costs next to nothing (1 was accepted through the API).
    func testAScryptWorkFactorAReadWouldRefuseIsRefusedOnWrite() throws {
        let passphrase = try writeFile("passphrase", "work factor\n")
        for factor in ["21", "30", "0", "1", "10", "14"] {
            let created = try runChild(["create", service, "passphrase"], environment: [
                "RIZQ_SECRETS_PASSPHRASE_FILE": passphrase, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_TEST_WORK_FACTOR": factor,
            ])
            XCTAssertTrue(created.stdout.hasPrefix("error invalidConfiguration the vault's configuration is invalid: the scrypt work factor 2^\(factor) is outside 2^15…2^20"), created.stdout)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/slots/passphrase.age"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/recipient.txt"))
        }
        let created = try runChild(["create", service, "passphrase"], environment: [
            "RIZQ_SECRETS_PASSPHRASE_FILE": passphrase, "RIZQ_TEST_NO_SYSTEMD": "1", "RIZQ_TEST_NO_CACHE": "1", "RIZQ_TEST_WORK_FACTOR": "15",
        ])
        XCTAssertTrue(created.stdout.hasPrefix("ok created "), created.stdout)
    }
}
