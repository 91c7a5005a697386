import Foundation
import RizqSecrets
import RizqTestSupport
import XCTest

/// The secret chain's credential folders on a Kubernetes Secret volume, in the windows kubelet's
/// writer leaves between its switch of `..data` and its top-level links (scripts/kubelet-writer
/// --stop-after: the folder as a kubelet stopped there leaves it): a key of the current
/// generation is read from it, and a key it no longer holds is neither read nor listed.
final class CredentialFolderSwapTests: XCTestCase {
    let service = "com.rizq.server"

    /// After the switch, before step 10 makes the new key's link: the key is in the generation.
    func testAKeyAddedByTheSwapIsReadBeforeItsLinkIsMade() throws {
        let volume = try KubeletVolume("credentials")
        try volume.write(["\(service).database.password": "old-pw"])
        try volume.write(["\(service).database.password": "new-pw", "\(service).api.token": "t0ken"], options: ["--stop-after", "9"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: volume.path + "/\(service).api.token"), "no link yet: the window")
        let store = CredentialDirectoryStore(service: service, directories: [.init(path: volume.path, origin: "test")])
        XCTAssertEqual(try store.secretBytes(forAccount: "api.token"), Data("t0ken".utf8))
        XCTAssertEqual(try store.secretBytes(forAccount: "database.password"), Data("new-pw".utf8))
        XCTAssertEqual(try store.accounts(), ["api.token", "database.password"])
    }

    /// After the links, before step 11 unlinks the removed key's: its link dangles.
    func testAKeyRemovedByTheSwapIsNeitherReadNorListed() throws {
        let volume = try KubeletVolume("credentials")
        try volume.write(["\(service).database.password": "pw", "\(service).old.token": "gone"])
        try volume.write(["\(service).database.password": "pw2"], options: ["--stop-after", "10"])
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: volume.path + "/\(service).old.token"), "the dangling link: the window")
        let store = CredentialDirectoryStore(service: service, directories: [.init(path: volume.path, origin: "test")])
        XCTAssertEqual(try store.accounts(), ["database.password"])
        XCTAssertNil(try store.secretBytes(forAccount: "old.token"))
        XCTAssertEqual(try store.secretBytes(forAccount: "database.password"), Data("pw2".utf8))
    }

    /// A Docker-style folder of plain files reads as before, and a file others can write is refused.
    func testAPlainFolderReadsAsBeforeAndRefusesAnOpenFile() throws {
        let folder = try KubeletVolume("plain")
        try Data("pw\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/\(service).db"))
        XCTAssertEqual(chmod(folder.path + "/\(service).db", 0o444), 0)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/\(service).open"))
        XCTAssertEqual(chmod(folder.path + "/\(service).open", 0o666), 0)
        let store = CredentialDirectoryStore(service: service, directories: [.init(path: folder.path, origin: "test")])
        XCTAssertEqual(try store.secretBytes(forAccount: "db"), Data("pw\n".utf8), "a credential's bytes are exact")
        XCTAssertThrowsError(try store.secretBytes(forAccount: "open")) { error in
            guard case SecretError.untrusted(_, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("refusing the credential \(service).open"), detail)
        }
        XCTAssertEqual(try store.accounts(), ["db", "open"])
    }
}
