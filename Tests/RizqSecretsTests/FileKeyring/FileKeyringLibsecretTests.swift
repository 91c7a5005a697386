import Foundation
import XCTest
@testable import RizqSecrets

/// The store against libsecret's own file backend (Debian's libsecret 0.20.5 through
/// `secret-tool`, `SECRET_BACKEND=file`) as the oracle, both ways: what the store writes
/// libsecret reads, what libsecret writes the store reads, and each replaces the other's items.
final class FileKeyringLibsecretTests: XCTestCase {
    private var path = ""

    override func setUpWithError() throws {
        path = try temporaryKeyringFolder(self) + "/keyrings/default.keyring"
    }

    // MARK: We write, libsecret reads

    func testLibsecretReadsTextBinaryAndUnicodeWeWrote() throws {
        let store = fileKeyringStore(path, password: "pw")
        let binary = Data([0x00, 0x01, 0xff, 0xfe, 0x62, 0x69, 0x6e, 0x00])
        try store.setSecret("text-secret", forAccount: "alice")
        try store.setSecret(binary, forAccount: "bob", label: "binary")
        try store.setSecret("ünïcødé ✓", forAccount: "çarol", label: "Ünïcødé label ✓ 🔑")

        XCTAssertEqual(try secretTool(["lookup", "service", "S", "account", "alice"], path: path, password: "pw").stdout, Data("text-secret".utf8))
        XCTAssertEqual(try secretTool(["lookup", "service", "S", "account", "bob"], path: path, password: "pw").stdout, binary)
        XCTAssertEqual(try secretTool(["lookup", "service", "S", "account", "çarol"], path: path, password: "pw").stdout, Data("ünïcødé ✓".utf8))
        // The items carry the schema's name as the Secret Service store writes it.
        XCTAssertEqual(try secretTool(["lookup", "xdg:schema", SecretServiceStore.schemaName, "account", "alice"], path: path, password: "pw").stdout, Data("text-secret".utf8))
        let search = try secretTool(["search", "--all", "service", "S"], path: path, password: "pw")
        XCTAssertEqual(search.status, 0, search.stderr)
        let listing = String(decoding: search.stdout, as: UTF8.self) + search.stderr
        XCTAssertTrue(listing.contains("label = Ünïcødé label ✓ 🔑"), listing)
        XCTAssertTrue(listing.contains("label = binary"), listing)
        XCTAssertTrue(listing.contains("label = alice (S)"), listing)
        // The file is libsecret's: 0600, no backup of ours beside it.
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "~"))
    }

    func testLibsecretReadsManyItemsWeWrote() throws {
        let store = fileKeyringStore(path, password: "pw")
        for index in 0..<60 {
            try store.setSecret("secret-\(index)-" + String(repeating: "x", count: index * 37), forAccount: "account-\(index)")
        }
        for index in [0, 1, 17, 42, 59] {
            let found = try secretTool(["lookup", "service", "S", "account", "account-\(index)"], path: path, password: "pw")
            XCTAssertEqual(String(decoding: found.stdout, as: UTF8.self), "secret-\(index)-" + String(repeating: "x", count: index * 37))
        }
        XCTAssertEqual(try store.accounts().count, 60)
        let file = try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(file.usageCount, 60)
        XCTAssertEqual(file.items.count, 60)
    }

    /// libsecret replaces an item only when its hashed attributes are byte for byte the ones it
    /// computes: a `secret-tool store` with our items' attributes replacing ours (one item, not
    /// two) proves our `a{say}` is libsecret's normal form, sorted as libsecret sorts.
    func testLibsecretReplacesOurItemInPlaceOfAddingOne() throws {
        let store = fileKeyringStore(path, password: "pw")
        try store.setSecret("ours", forAccount: "A")
        let before = try XCTUnwrap(store.itemInfo(forAccount: "A"))
        let stored = try secretTool(["store", "--label=theirs", "service", "S", "account", "A", "xdg:schema", SecretServiceStore.schemaName],
                                    path: path, password: "pw", input: Data("libsecret's".utf8))
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertEqual(try store.secret(forAccount: "A"), "libsecret's")
        let file = try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(file.items.count, 1)
        let after = try XCTUnwrap(store.itemInfo(forAccount: "A"))
        XCTAssertEqual(after.label, "theirs")
        XCTAssertEqual(after.created, before.created)
    }

    // MARK: libsecret writes, we read

    func testWeReadWhatLibsecretWrote() throws {
        let binary = Data([0x00, 0x01, 0xff, 0xfe, 0x62, 0x69, 0x6e, 0x00])
        for (account, label, secret) in [("alice", "plain", Data("text-secret".utf8)), ("bob", "binary", binary),
                                         ("çarol", "Ünïcødé label ✓ 🔑", Data("ünïcødé ✓".utf8))] {
            let result = try secretTool(["store", "--label=\(label)", "service", "S", "account", account], path: path, password: "pw", input: secret)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        for index in 0..<40 {
            try secretTool(["store", "--label=n\(index)", "service", "S", "account", "n\(index)", "extra", "\(index)"], path: path, password: "pw", input: Data("v\(index)".utf8))
        }
        let store = fileKeyringStore(path, password: "pw")
        XCTAssertEqual(try store.secret(forAccount: "alice"), "text-secret")
        XCTAssertEqual(try store.secretData(forAccount: "bob"), binary)
        XCTAssertEqual(try store.secret(forAccount: "çarol"), "ünïcødé ✓")
        XCTAssertEqual(try store.itemInfo(forAccount: "çarol")?.label, "Ünïcødé label ✓ 🔑")
        XCTAssertEqual(try store.itemInfo(forAccount: "n7")?.attributes, ["service": "S", "account": "n7", "extra": "7"])
        XCTAssertEqual(try store.secret(forAccount: "n39"), "v39")
        XCTAssertNil(try store.secret(forAccount: "nobody"))
        XCTAssertEqual(try store.accounts(), (["alice", "bob", "çarol"] + (0..<40).map { "n\($0)" }).sorted())
        XCTAssertEqual(try fileKeyringStore(path, password: "pw", service: "other").accounts(), [])
    }

    func testWeReplaceLibsecretsItemAndLibsecretSeesIt() throws {
        try secretTool(["store", "--label=theirs", "service", "S", "account", "A"], path: path, password: "pw", input: Data("old".utf8))
        let store = fileKeyringStore(path, password: "pw")
        try store.setSecret("new", forAccount: "A", label: "ours")
        XCTAssertEqual(try secretTool(["lookup", "service", "S", "account", "A"], path: path, password: "pw").stdout, Data("new".utf8))
        let file = try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(file.items.count, 1)
        // Its attributes stay libsecret's ({service, account}): the next `secret-tool store`
        // still replaces it.
        XCTAssertEqual(file.items[0].hashedAttributes.map(\.name), ["account", "service"])
        try secretTool(["store", "--label=theirs", "service", "S", "account", "A"], path: path, password: "pw", input: Data("newer".utf8))
        XCTAssertEqual(try store.secret(forAccount: "A"), "newer")
        XCTAssertEqual(try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).items.count, 1)
    }

    func testDeletesSeenBothWays() throws {
        let store = fileKeyringStore(path, password: "pw")
        try store.setSecret("one", forAccount: "A")
        try store.setSecret("two", forAccount: "B")
        XCTAssertTrue(try store.deleteSecret(forAccount: "A"))
        XCTAssertFalse(try store.deleteSecret(forAccount: "A"))
        XCTAssertEqual(try secretTool(["lookup", "service", "S", "account", "A"], path: path, password: "pw").status, 1)
        let cleared = try secretTool(["clear", "service", "S", "account", "B"], path: path, password: "pw")
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        XCTAssertNil(try store.secret(forAccount: "B"))
        XCTAssertEqual(try store.accounts(), [])
    }

    // MARK: Wrong password, damage

    /// libsecret reads a wrong password as "no such item" and appends under it; the store says
    /// so and writes nothing.
    func testWrongPasswordIsRefusedAndNothingWritten() throws {
        try secretTool(["store", "--label=x", "service", "S", "account", "A"], path: path, password: "pw", input: Data("kept".utf8))
        let before = try snapshot(path)
        let store = fileKeyringStore(path, password: "not-pw")
        for (operation, error) in operationErrors(store, account: "A") {
            guard case .wrongPassphrase(let detail) = error else { return XCTFail("\(operation): \(String(describing: error))") }
            XCTAssertTrue(detail.contains("none of the 1 item"), detail)
            XCTAssertTrue(detail.contains(path), detail)
        }
        let after = try snapshot(path)
        XCTAssertEqual(after.bytes, before.bytes)
        XCTAssertEqual(after.modified, before.modified)
        XCTAssertEqual(after.inode, before.inode)
        XCTAssertEqual(try secretTool(["lookup", "service", "S", "account", "A"], path: path, password: "pw").stdout, Data("kept".utf8))
    }

    /// An empty keyring (libsecret's after a clear) takes any password, as libsecret does.
    func testEmptyKeyringTakesAnyPassword() throws {
        try FileKeyringFixtures.install("v5-empty-unicode-password", at: path)
        let store = fileKeyringStore(path, password: "another")
        XCTAssertNil(try store.secret(forAccount: "A"))
        try store.setSecret("new", forAccount: "A")
        XCTAssertEqual(try secretTool(["lookup", "service", "S", "account", "A"], path: path, password: "another").stdout, Data("new".utf8))
    }

    /// A truncated file is refused, by name, for every operation, and stays as it was on disk.
    func testTruncatedFileIsRefusedAndNotRewritten() throws {
        try secretTool(["store", "--label=x", "service", "text", "account", "x"], path: path, password: "pw", input: Data("kept".utf8))
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [full.count - 1, full.count / 2, 60, 17, 0] {
            try writeKeyring(full.prefix(cut), to: path)
            let before = try snapshot(path)
            let store = fileKeyringStore(path, password: "pw", service: "text")
            for (operation, error) in operationErrors(store, account: "x") {
                guard case .damaged(let damagedPath, let detail) = error else {
                    return XCTFail("cut at \(cut), \(operation): \(String(describing: error))")
                }
                XCTAssertEqual(damagedPath, path)
                XCTAssertTrue(detail.contains("never rewritten"), detail)
            }
            let after = try snapshot(path)
            XCTAssertEqual(after.bytes, before.bytes, "cut at \(cut)")
            XCTAssertEqual(after.modified, before.modified, "cut at \(cut)")
            XCTAssertEqual(after.inode, before.inode, "cut at \(cut)")
        }
    }

    /// A salt-size field that lies makes libsecret abort (SIGABRT); the store refuses the file by
    /// name and never touches it.
    func testHostileSizeIsRefusedWhereLibsecretAborts() throws {
        try secretTool(["store", "--label=x", "service", "S", "account", "A"], path: path, password: "pw", input: Data("kept".utf8))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(18..<22, with: [0xff, 0xff, 0xff, 0x7f])
        try writeKeyring(bytes, to: path)
        let libsecret = try secretTool(["lookup", "service", "S", "account", "A"], path: path, password: "pw")
        XCTAssertNotEqual(libsecret.status, 0)
        XCTAssertThrowsError(try fileKeyringStore(path, password: "pw").setSecret("new", forAccount: "A")) { error in
            guard case .damaged(_, let detail) = error as? SecretError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("the salt-size field says 2147483647 bytes, the salt holds 32"), detail)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    }

    /// v6: item 0's ciphertext has a flipped bit. Reading it is damage (libsecret: "couldn't
    /// calculate mac"); item 1 stays readable; a store of another account keeps item 0's bytes.
    func testTamperedItemIsDamageAndTheOthersSurvive() throws {
        try FileKeyringFixtures.install("v6-tampered-item0", at: path)
        let expected = try FileKeyringFixtures.expected("v6-tampered-item0")
        let original = try FileKeyringFile.decode(try FileKeyringFixtures.bytes("v6-tampered-item0"))
        // Item 0 (it no longer opens) was {service S, account A}, libsecret's "couldn't
        // calculate mac" for A.
        let first = ["service": "S", "account": "A"]
        let second = try XCTUnwrap(expected.items.last?.attributes)
        let firstStore = fileKeyringStore(path, password: "pw", service: try XCTUnwrap(first["service"]))
        XCTAssertThrowsError(try firstStore.secretData(forAccount: try XCTUnwrap(first["account"]))) { error in
            guard case .damaged(_, let detail) = error as? SecretError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("its item 0 does not open"), detail)
        }
        let secondStore = fileKeyringStore(path, password: "pw", service: try XCTUnwrap(second["service"]))
        XCTAssertEqual(try secondStore.secretData(forAccount: try XCTUnwrap(second["account"])).map(hexString), expected.items.last?.secret_hex)
        try secondStore.setSecret("added", forAccount: "someone-else")
        let rewritten = try FileKeyringFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(rewritten.items.first, original.items.first)
        XCTAssertEqual(rewritten.items.count, 3)
    }

    // MARK: The environment, as libsecret reads it

    /// SECRET_FILE_TEST_PATH and SECRET_FILE_TEST_PASSWORD (non-ASCII: its UTF-8 bytes, as
    /// libsecret takes them) are honoured by a store made with no arguments, in another process.
    func testEnvironmentIsHonouredAsLibsecretHonoursIt() throws {
        try FileKeyringFixtures.install("v5-empty-unicode-password", at: path)
        try secretTool(["store", "--label=x", "service", "S", "account", "A"], path: path, password: "pässwörd ✓", input: Data("from libsecret".utf8))
        var environment = ProcessInfo.processInfo.environment
        environment["SECRET_FILE_TEST_PATH"] = path
        environment["SECRET_FILE_TEST_PASSWORD"] = "pässwörd ✓"
        let child = productsFolder + "/rizq-secrets-test-child"
        let read = try runCommand(child, ["file-keyring", "S", "get", "A"], environment: environment)
        XCTAssertEqual(read.stdout, "value " + hexString(Data("from libsecret".utf8)) + "\n", read.stderr)
        let stored = try runCommand(child, ["file-keyring", "S", "set", "B"], input: "from us", environment: environment)
        XCTAssertEqual(stored.stdout, "stored\n", stored.stderr)
        XCTAssertEqual(try secretTool(["lookup", "service", "S", "account", "B"], path: path, password: "pässwörd ✓").stdout, Data("from us".utf8))
        // An empty SECRET_FILE_TEST_PASSWORD counts as unset: outside a sandbox, no key.
        environment["SECRET_FILE_TEST_PASSWORD"] = ""
        let unset = try runCommand(child, ["file-keyring", "S", "get", "A"], environment: environment)
        XCTAssertTrue(unset.stdout.hasPrefix("error noKeySource "), unset.stdout)
    }

    /// The default path is `$XDG_DATA_HOME/keyrings/default.keyring`, where libsecret puts it.
    func testDefaultPathIsLibsecrets() throws {
        let data = try temporaryKeyringFolder(self)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SECRET_FILE_TEST_PATH")
        environment["XDG_DATA_HOME"] = data
        XCTAssertEqual(FileKeyringLocation.fromEnvironment(environment), FileKeyringLocation(path: data + "/keyrings/default.keyring", origin: "$XDG_DATA_HOME"))
        environment["XDG_DATA_HOME"] = ""
        environment["HOME"] = "/home/someone"
        XCTAssertEqual(FileKeyringLocation.fromEnvironment(environment).path, "/home/someone/.local/share/keyrings/default.keyring")
        environment["SECRET_FILE_TEST_PATH"] = "relative/k.keyring"
        XCTAssertEqual(FileKeyringLocation.fromEnvironment(environment), FileKeyringLocation(path: "relative/k.keyring", origin: "SECRET_FILE_TEST_PATH"))

        environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SECRET_FILE_TEST_PATH")
        environment["XDG_DATA_HOME"] = data
        environment["SECRET_FILE_TEST_PASSWORD"] = "pw"
        let stored = try runCommand(productsFolder + "/rizq-secrets-test-child", ["file-keyring", "S", "set", "A"], input: "at the default", environment: environment)
        XCTAssertEqual(stored.stdout, "stored\n", stored.stderr)
        var libsecret = environment
        libsecret["SECRET_BACKEND"] = "file"
        let found = try runProcess("/usr/bin/secret-tool", ["lookup", "service", "S", "account", "A"], environment: libsecret)
        XCTAssertEqual(found.stdout, Data("at the default".utf8))
    }
}
