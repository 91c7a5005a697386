import Foundation
import RizqCore
import RizqTestSupport
import XCTest

/// `TrustedPath` and the administrator's rule: a file is believed only when it and every folder
/// from `/` to it are root's and written by root alone; links are followed only through such
/// folders; nothing hangs and nothing traps. (The tests run as root, so what they make is root's.)
final class TrustedPathTests: XCTestCase {
    private let trust = FileTrust.administrator("managed preferences file")

    private func read(_ path: String, _ trust: FileTrust? = nil) throws(FileError) -> String? {
        guard let file = try TrustedPath.open(path, trust: trust ?? self.trust) else { return nil }
        return String(decoding: try file.readAll(limit: 1 << 20), as: UTF8.self)
    }

    private func refusal(_ path: String, _ trust: FileTrust? = nil) -> FileError? {
        do {
            _ = try read(path, trust)
            return nil
        } catch {
            return error
        }
    }

    func testARootFileInRootFoldersIsReadAndAMissingOneIsNil() throws {
        let scratch = ScratchFolder()
        scratch.folder("etc", mode: 0o755)
        let path = scratch.write("etc/policy.json", "{}", mode: 0o644)
        XCTAssertEqual(try read(path), "{}")
        XCTAssertNil(try read(scratch.file("etc/absent.json")))
        XCTAssertNil(try read(scratch.file("no-such-folder/policy.json")), "a missing folder on the way is nothing there")
        XCTAssertNil(try read(path + "/under-a-file"))
    }

    func testAFileOrAFolderOnTheWayThatSomeoneElseOwnsIsRefusedNamingIt() throws {
        let scratch = ScratchFolder()
        let folder = scratch.folder("etc", mode: 0o755)
        let path = scratch.write("etc/policy.json", "{}", mode: 0o644)
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        XCTAssertEqual(refusal(path)?.problem, .notAdministrators(owner: 65534))
        XCTAssertTrue(refusal(path)?.description.contains("not to root, so someone other than an administrator") ?? false)
        XCTAssertEqual(chown(path, 0, 0), 0)
        XCTAssertEqual(chown(folder, 65534, 65534), 0)
        let error = try XCTUnwrap(refusal(path))
        XCTAssertEqual(error.problem, .notAdministrators(owner: 65534))
        XCTAssertEqual(error.path, folder, "the folder that failed is named")
        XCTAssertEqual(error.subject, "folder above the managed preferences file")
    }

    func testModesTheGroupOrOthersCouldWriteAreRefusedAndTheStickyBitIsNot() throws {
        let scratch = ScratchFolder()
        scratch.folder("open", mode: 0o775)
        let inOpen = scratch.write("open/policy.json", "{}", mode: 0o644)
        XCTAssertEqual(refusal(inOpen)?.problem, .tooOpen(mode: 0o40775, what: "its group can write it", fix: "make it yours alone (chmod g-w,o-w '%PATH%')"))
        scratch.folder("sticky", mode: 0o1777)
        let inSticky = scratch.write("sticky/policy.json", "{}", mode: 0o644)
        XCTAssertEqual(try read(inSticky), "{}", "a sticky folder (as /tmp) lets no one replace root's file")
        let writable = scratch.write("sticky/writable.json", "{}", mode: 0o646)
        XCTAssertNotNil(refusal(writable))
    }

    func testLinksAreFollowedOnlyThroughFoldersTheRuleAccepts() throws {
        let scratch = ScratchFolder()
        scratch.folder("store", mode: 0o755)
        scratch.write("store/real.json", "real", mode: 0o644)
        scratch.folder("etc", mode: 0o755)
        XCTAssertEqual(symlink("../store/real.json", scratch.file("etc/relative.json")), 0)
        XCTAssertEqual(symlink(scratch.file("store/real.json"), scratch.file("etc/absolute.json")), 0)
        XCTAssertEqual(symlink(scratch.file("store"), scratch.file("etc/linked-folder")), 0)
        XCTAssertEqual(try read(scratch.file("etc/relative.json")), "real")
        XCTAssertEqual(try read(scratch.file("etc/absolute.json")), "real")
        XCTAssertEqual(try read(scratch.file("etc/linked-folder/real.json")), "real")
        XCTAssertEqual(try TrustedPath.names(inFolder: scratch.file("etc/linked-folder"), trust: trust), ["real.json"])

        let foreign = scratch.folder("foreign", mode: 0o755)
        scratch.write("foreign/real.json", "planted", mode: 0o644)
        XCTAssertEqual(chown(foreign, 65534, 65534), 0)
        XCTAssertEqual(symlink(scratch.file("foreign/real.json"), scratch.file("etc/planted.json")), 0)
        XCTAssertEqual(refusal(scratch.file("etc/planted.json"))?.path, foreign)

        XCTAssertEqual(symlink("loop-b.json", scratch.file("etc/loop-a.json")), 0)
        XCTAssertEqual(symlink("loop-a.json", scratch.file("etc/loop-b.json")), 0)
        XCTAssertEqual(refusal(scratch.file("etc/loop-a.json"))?.problem, .system(.tooManySymbolicLinks), "a loop ends, bounded")
    }

    func testAFIFOOrAFolderWhereTheFileShouldBeIsRefusedWithoutHanging() throws {
        let scratch = ScratchFolder()
        XCTAssertEqual(mkfifo(scratch.file("fifo.json"), 0o644), 0)
        XCTAssertEqual(refusal(scratch.file("fifo.json"))?.problem, .wrongKind(found: "a FIFO (named pipe)", expected: "a regular file"))
        scratch.folder("folder.json", mode: 0o755)
        XCTAssertEqual(refusal(scratch.file("folder.json"))?.problem, .wrongKind(found: "a folder", expected: "a regular file"))
        XCTAssertNotNil(refusal("relative/policy.json"), "a relative path is refused")
    }

    func testAListingIsSortedByBytesAndBounded() throws {
        let scratch = ScratchFolder()
        scratch.folder("d", mode: 0o755)
        for name in ["b.json", "a.json", "Z.json", "é.json"] { scratch.write("d/" + name, "{}", mode: 0o644) }
        XCTAssertEqual(try TrustedPath.names(inFolder: scratch.file("d"), trust: trust), ["Z.json", "a.json", "b.json", "é.json"])
        XCTAssertNil(try TrustedPath.names(inFolder: scratch.file("absent"), trust: trust))
        scratch.folder("many", mode: 0o755)
        for index in 0...TrustedPath.maximumNames { scratch.write("many/\(index)", "", mode: 0o644) }
        XCTAssertThrowsError(try TrustedPath.names(inFolder: scratch.file("many"), trust: trust)) { error in
            guard case .tooLarge? = (error as? FileError)?.problem else { return XCTFail("\(error)") }
        }
    }

    func testTheHostsRootSeenFromASandboxIsTheOverflowUserAndOnlyThere() throws {
        let scratch = ScratchFolder()
        let path = scratch.write("policy.json", "{}", mode: 0o644)
        XCTAssertEqual(chown(path, FileTrust.overflowUser, FileTrust.overflowUser), 0)
        XCTAssertEqual(refusal(path)?.problem, .notAdministrators(owner: FileTrust.overflowUser), "outside a sandbox the overflow user is a user")
        XCTAssertEqual(try read(path, .administrator("policy", seenFromSandbox: true)), "{}")
    }
}
