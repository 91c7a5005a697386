import Foundation
import RizqCore
import RizqMounts
import RizqTestSupport
import XCTest

/// MountedFolder's reads: a Kubernetes volume written by kubelet's real write sequence
/// (scripts/kubelet-writer), read as one generation, never from its top-level links; a
/// Docker-style folder of plain files; every file judged; the limits.
final class MountedFolderTests: XCTestCase {
    func testAKubernetesVolumeReadsAsItsGenerationWithDottedAndNestedKeys() throws {
        let volume = try KubeletVolume()
        let generation = try volume.write(["http.timeout": "30\n", ".dockerconfigjson": "{}", "conf/app.yaml": "level: info\n"])
        let snapshot = try MountedFolder(volume.path, sensitivity: .configuration).read()
        XCTAssertEqual(snapshot.layout, .kubernetes(generation: try XCTUnwrap(generation)))
        XCTAssertEqual(snapshot.keys, [".dockerconfigjson", "conf/app.yaml", "http.timeout"], "no ..data, no generation folder; the single-dot key is one")
        XCTAssertEqual(try snapshot.text(forKey: "http.timeout"), "30", "the trailing newline is cut from text")
        XCTAssertEqual(try snapshot.bytes(forKey: "http.timeout"), Array("30\n".utf8), "bytes are exact")
        XCTAssertEqual(try snapshot.text(forKey: "conf/app.yaml"), "level: info")
        XCTAssertNil(try snapshot.bytes(forKey: "missing"))
        XCTAssertFalse(snapshot.isSecrets)
    }

    func testUpdatesRemovalsAndAdditionsEachReadAsTheirOwnGeneration() throws {
        let volume = try KubeletVolume()
        let folder = MountedFolder(volume.path)
        let first = try volume.write(["a": "1", "b": "2"])
        let second = try volume.write(["a": "10", "b": "2"])
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(try folder.read().entries, ["a": .bytes(Array("10".utf8)), "b": .bytes(Array("2".utf8))])
        try volume.write(["a": "10"])
        XCTAssertEqual(try folder.read().keys, ["a"], "a removed key is gone with its generation")
        try volume.write(["a": "10", "c": "3"])
        XCTAssertEqual(try folder.read().keys, ["a", "c"])
        XCTAssertNil(try volume.write(["a": "10", "c": "3"]), "the same payload again: kubelet writes nothing")
        XCTAssertEqual(try folder.keys(), ["a", "c"])
        XCTAssertEqual(try folder.bytes(forKey: "c"), Array("3".utf8))
        XCTAssertNil(try folder.bytes(forKey: "..data"), "kubelet's names are never keys")
        XCTAssertNil(try folder.bytes(forKey: "b"))
    }

    /// The writer swaps generations back to back in another process while this one reads: every
    /// snapshot holds one generation's keys and values (odd generations have three keys, even
    /// ones four, each key the generation's number). A reader of the top-level links is not.
    func testEveryReadDuringRapidSwapsIsOneWholeGeneration() throws {
        let volume = try KubeletVolume()
        try volume.write(["a": "0", "b": "0", "c": "0", "d": "0"])
        let folder = MountedFolder(volume.path)
        let writer = try volume.startBurst(300, keys: ["a", "b", "c", "d"], dropOdd: true)
        var reads = 0
        var generations = Set<String>()
        while writer.isRunning || reads == 0 {
            let snapshot = try folder.read()
            reads += 1
            generations.insert(snapshot.generation ?? "")
            let values = Set(snapshot.entries.values)
            XCTAssertEqual(values.count, 1, "one generation's values: \(snapshot.entries)")
            guard case .bytes(let bytes)? = values.first, let number = Int(String(decoding: bytes, as: UTF8.self)) else {
                return XCTFail("unreadable value in \(snapshot.entries)")
            }
            XCTAssertEqual(snapshot.keys, number % 2 == 1 ? ["a", "b", "c"] : ["a", "b", "c", "d"], "generation \(number)'s keys")
        }
        writer.waitUntilExit()
        XCTAssertEqual(writer.terminationStatus, 0)
        XCTAssertGreaterThan(generations.count, 1, "the reads met several generations")
        let last = MountedSnapshot.Entry.bytes(Array("300".utf8))
        XCTAssertEqual(try folder.read().entries, ["a": last, "b": last, "c": last, "d": last], "the last generation (even: every key)")
    }

    /// Docker's and Compose's /run/secrets, systemd's credentials: plain files, read as they are.
    func testADockerStyleSecretsFolderReadsItsPlainFiles() throws {
        let folder = try temporaryFolder()
        try write("pw\n", to: folder + "/db_password", mode: 0o444)
        try write("k", to: folder + "/.api_key", mode: 0o400)
        try write("ignored", to: folder + "/..hidden", mode: 0o400)
        let snapshot = try MountedFolder(folder, sensitivity: .secrets).read()
        XCTAssertEqual(snapshot.layout, .plain)
        XCTAssertTrue(snapshot.isSecrets)
        XCTAssertEqual(snapshot.keys, [".api_key", "db_password"])
        XCTAssertEqual(try snapshot.text(forKey: "db_password"), "pw")
        XCTAssertEqual(snapshot.warnings, [], "nothing mounted here: no subPath")
    }

    func testAFileOthersCanWriteIsRefusedAloneAndNamed() throws {
        let volume = try KubeletVolume()
        try volume.write(["good": "1", "open": "2"], options: [])
        let generation = try XCTUnwrap(volume.currentGeneration)
        XCTAssertEqual(chmod(volume.path + "/" + generation + "/open", 0o666), 0)
        let folder = MountedFolder(volume.path)
        let snapshot = try folder.read()
        XCTAssertEqual(try snapshot.text(forKey: "good"), "1", "the other keys read")
        XCTAssertThrowsError(try snapshot.bytes(forKey: "open")) { error in
            guard case MountError.refusedKey(_, "open", let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("any user can write it"), reason)
        }
        XCTAssertThrowsError(try folder.bytes(forKey: "open")) { error in
            guard case MountError.refusedKey = error else { return XCTFail("\(error)") }
        }
    }

    func testADataLinkLeadingOutOfTheFolderIsRefused() throws {
        let folder = try temporaryFolder()
        XCTAssertEqual(symlink("/etc", folder + "/..data"), 0)
        XCTAssertThrowsError(try MountedFolder(folder).read()) { error in
            guard case MountError.untrusted(let path, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, folder + "/..data")
            XCTAssertTrue(reason.contains("not to a generation folder"), reason)
        }
    }

    func testAFolderOthersCanWriteIsRefusedAndAMissingOneIsNamed() throws {
        let folder = try temporaryFolder()
        XCTAssertEqual(chmod(folder, 0o777), 0)
        XCTAssertThrowsError(try MountedFolder(folder).read()) { error in
            guard case MountError.untrusted = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try MountedFolder(folder + "/nothing").read()) { error in
            XCTAssertEqual(error as? MountError, .missing(folder: folder + "/nothing"))
        }
    }

    func testTheLimitsBoundFilesAndSizes() throws {
        let folder = try temporaryFolder()
        for index in 0..<5 { try write("x", to: folder + "/k\(index)", mode: 0o600) }
        try write(String(repeating: "y", count: 100), to: folder + "/large", mode: 0o600)
        let few = MountedFolder(folder, limits: .init(fileSize: 1 << 20, totalSize: 1 << 20, files: 4, depth: 2, attempts: 3))
        XCTAssertThrowsError(try few.read()) { error in
            guard case MountError.overLimit(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("more than 4 files"), reason)
        }
        let small = MountedFolder(folder, limits: .init(fileSize: 10, totalSize: 1 << 20, files: 100, depth: 2, attempts: 3))
        let snapshot = try small.read()
        XCTAssertEqual(try snapshot.text(forKey: "k0"), "x")
        XCTAssertThrowsError(try snapshot.bytes(forKey: "large"), "a file over the limit is refused alone")
        let total = MountedFolder(folder, limits: .init(fileSize: 1000, totalSize: 50, files: 100, depth: 2, attempts: 3))
        XCTAssertThrowsError(try total.read()) { error in
            guard case MountError.overLimit = error else { return XCTFail("\(error)") }
        }
    }

    func testWhereHostsPutSecretsIsDetected() throws {
        XCTAssertTrue(MountedFolder.looksLikeSecrets("/run/secrets"))
        XCTAssertTrue(MountedFolder.looksLikeSecrets("/run/secrets/db"))
        XCTAssertTrue(MountedFolder.looksLikeSecrets("/var/run/secrets/kubernetes.io/serviceaccount"))
        let folder = try temporaryFolder()
        XCTAssertFalse(MountedFolder(folder).isSecrets, "a folder on this disk is configuration")
        XCTAssertTrue(MountedFolder(folder, sensitivity: .secrets).isSecrets)
        XCTAssertTrue(MountedFolder("/dev/shm").isSecrets, "a tmpfs (a Kubernetes Secret volume's file system)")
    }

    func testMountInfoNamesAKubeletGenerationAndADeletedSource() {
        let table = MountTable.parse(Array("""
            22 1 0:5 / /proc rw - proc proc rw
            63 43 254:0 /var/lib/kubelet/pods/p/volumes/kubernetes.io~configmap/cfg/..2026_11_29_06_06_31.85866966/app.yaml /etc/my\\040app/app.yaml rw - ext4 /dev/vda rw
            64 43 0:51 /..2026_11_29_06_06_31.12//deleted /etc/my\\040app/token rw - tmpfs tmpfs rw
            """.utf8))
        let mounts = table.mounts(under: "/etc/my app")
        XCTAssertEqual(Set(mounts.keys), ["app.yaml", "token"])
        XCTAssertEqual(MountTable.kubeletGeneration(in: mounts["app.yaml"]?.root ?? ""), "..2026_11_29_06_06_31.85866966")
        XCTAssertTrue(MountTable.isDeleted(mounts["token"]?.root ?? ""))
        XCTAssertNil(MountTable.kubeletGeneration(in: "/var/lib/docker/secrets/db"))
        XCTAssertNotNil(MountTable.current()?.mount(at: "/"), "this process's own table reads")
    }

    // MARK: Helpers

    private func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "rizq-mounted-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func write(_ text: String, to path: String, mode: Int) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, mode_t(mode)), 0)
    }
}
