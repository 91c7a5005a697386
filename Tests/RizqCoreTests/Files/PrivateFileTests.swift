import Foundation
@testable import RizqCore
import RizqTestSupport
import XCTest

/// PrivateFile, the one door files are read through: what it opens, what it refuses before a
/// byte is read (links, FIFOs, folders, devices, another user's files, loose modes, sizes), and
/// reads that a signal interrupts or the kernel cuts short.
final class PrivateFileTests: XCTestCase {
    func testReadsTheBytesWithTheVersionTheyWereReadAt() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "{\"a\":1}")
        let read = try XCTUnwrap(try PrivateFile.read(path, trust: .settings("suite file"), limit: 1024))
        XCTAssertEqual(String(decoding: read.bytes, as: UTF8.self), "{\"a\":1}")
        XCTAssertEqual(read.stamp, FileStamp.of(path))
        guard let file = try PrivateFile.open(path, trust: .settings("suite file")) else { return XCTFail("not opened") }
        XCTAssertEqual(file.stamp, read.stamp)
        XCTAssertEqual(fcntl(file.descriptor, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC, "not inherited by a child the app starts")
    }

    func testNothingThereIsNoFileNotAnError() throws {
        let folder = ScratchFolder()
        XCTAssertNil(try PrivateFile.read(folder.file("missing"), trust: .secret("key file"), limit: 10))
        let plain = folder.write("plain", "x")
        XCTAssertNil(try PrivateFile.read(plain + "/under", trust: .secret("key file"), limit: 10), "a path through a file (ENOTDIR)")
    }

    func testALinkIsRefusedNamingWhereItPointsUnlessTheRuleFollowsLinks() throws {
        let folder = ScratchFolder()
        let target = folder.write("elsewhere", "secret")
        let link = folder.file("vault.age")
        XCTAssertEqual(symlink(target, link), 0)
        for trust in [FileTrust.settings("vault"), .configuration("vault"), .secret("vault")] {
            let error = fileError { try PrivateFile.read(link, trust: trust, limit: 100) }
            XCTAssertEqual(error?.problem, .symbolicLink(target: "'\(target)'"), "\(trust)")
            XCTAssertEqual(
                error?.description,
                "cannot read the vault \(link): it is a symbolic link (to '\(target)'), and this vault is never read or written through a link, so that no file elsewhere is touched; replace the link by the vault itself (rm '\(link)', then put the real one there)"
            )
        }
        XCTAssertEqual(try PrivateFile.read(link, trust: .input("input"), limit: 100)?.bytes, Array("secret".utf8))
        XCTAssertEqual(try PrivateFile.read(link, trust: .hostProvided("credential"), limit: 100)?.bytes, Array("secret".utf8))
        // Followed, the file it names is judged: a target others can write is refused.
        XCTAssertEqual(chmod(target, 0o666), 0)
        XCTAssertEqual(
            fileError { try PrivateFile.read(link, trust: .hostProvided("credential"), limit: 100) }?.problem,
            .tooOpen(mode: UInt32(S_IFREG) | 0o666, what: "any user can write it", fix: "make it yours alone (chmod o-w '%PATH%')"))
    }

    /// A FIFO with no writer would hang a plain open or read for ever: it is refused at once, by
    /// every rule, even the one for a file the user named.
    func testAFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let folder = ScratchFolder()
        let fifo = folder.file("suite.json")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for trust in [FileTrust.settings("suite file"), .secret("suite file"), .input("suite file")] {
            let error = fileError { try PrivateFile.read(fifo, trust: trust, limit: 100) }
            XCTAssertEqual(error?.problem, .wrongKind(found: "a FIFO (named pipe)", expected: "a regular file"))
            XCTAssertEqual(
                error?.description,
                "cannot read the suite file \(fifo): it is a FIFO (named pipe), not a regular file, so it is not opened (a FIFO or a device would hang or feed anything); move it away (mv '\(fifo)' '\(fifo).moved')"
            )
        }
    }

    func testAFolderOrADeviceWhereAFileShouldBeIsRefused() throws {
        let folder = ScratchFolder()
        let inner = folder.folder("suite.json")
        XCTAssertEqual(fileError { try PrivateFile.read(inner, trust: .settings("suite file"), limit: 100) }?.problem,
                       .wrongKind(found: "a folder", expected: "a regular file"))
        let device = folder.file("zero")
        XCTAssertEqual(symlink("/dev/zero", device), 0)
        XCTAssertEqual(fileError { try PrivateFile.read(device, trust: .input("input"), limit: 100) }?.problem,
                       .wrongKind(found: "a character device", expected: "a regular file"), "an endless device is never read")
    }

    /// Running as root (as CI does): a file of user 65534 is refused by every rule that names
    /// its owners, and read by the settings rule (a root service keeps users' files theirs) and
    /// the user's own input.
    func testAnotherUsersFileIsRefusedByTheRulesThatNameOwners() throws {
        try XCTSkipIf(geteuid() != 0, "needs root, to give a file to another user")
        let folder = ScratchFolder()
        let path = folder.write("theirs", "value")
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        for trust in [FileTrust.configuration("secrets config file"), .secret("secrets config file"), .hostProvided("secrets config file")] {
            let error = fileError { try PrivateFile.read(path, trust: trust, limit: 100) }
            XCTAssertEqual(error?.problem, .foreignOwner(owner: 65534, user: 0), "\(trust)")
            XCTAssertEqual(
                error?.description,
                "cannot read the secrets config file \(path): it belongs to user 65534 (nobody), not to this user (0, root) or root, so another user could have written what it says; if it is yours, chown it (chown root '\(path)'), else remove it"
            )
        }
        XCTAssertEqual(try PrivateFile.read(path, trust: .settings("suite file"), limit: 100)?.bytes, Array("value".utf8))
        XCTAssertEqual(try PrivateFile.read(path, trust: .input("input"), limit: 100)?.bytes, Array("value".utf8))
    }

    /// A process that is not root (nobody, through runuser) reads its own files and root's, and
    /// refuses a file of a third user under every rule but input.
    func testAProcessThatIsNotRootRefusesAThirdUsersFile() throws {
        let folder = ScratchFolder()
        let roots = folder.write("roots", "from root", mode: 0o644)
        let third = folder.write("third", "from 65533", mode: 0o644)
        try XCTSkipIf(geteuid() != 0, "needs root, to give a file to another user")
        XCTAssertEqual(chown(third, 65533, 65533), 0)
        XCTAssertEqual(try FilesChild.run(["read", "settings", roots], as: "nobody").lines, ["from root", "done"])
        let refused = try FilesChild.run(["read", "settings", third], as: "nobody")
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.lines.first?.hasPrefix("error cannot read the file \(third): it belongs to user 65533 (no name), not to this user (65534, nobody)"), true,
                       "\(refused.lines)")
        XCTAssertEqual(try FilesChild.run(["read", "input", third], as: "nobody").lines, ["from 65533", "done"])
    }

    func testModesThatLetOthersInAreRefusedAsEachRuleSays() throws {
        let folder = ScratchFolder()
        let anyoneWrites = folder.write("a", "x", mode: 0o602)
        let groupWrites = folder.write("b", "x", mode: 0o620)
        let othersRead = folder.write("c", "x", mode: 0o644)
        XCTAssertEqual(fileError { try PrivateFile.read(anyoneWrites, trust: .settings("suite file"), limit: 10) }?.reason,
                       "it has mode 602, so any user can write it; make it yours alone (chmod o-w '\(anyoneWrites)')")
        XCTAssertNotNil(try PrivateFile.read(groupWrites, trust: .settings("suite file"), limit: 10), "settings: a group may write")
        XCTAssertEqual(fileError { try PrivateFile.read(groupWrites, trust: .configuration("secrets config file"), limit: 10) }?.reason,
                       "it has mode 620, so its group can write it; make it yours alone (chmod g-w,o-w '\(groupWrites)')")
        XCTAssertNotNil(try PrivateFile.read(othersRead, trust: .hostProvided("credential"), limit: 10), "Docker's secrets are 0444")
        XCTAssertEqual(fileError { try PrivateFile.read(othersRead, trust: .secret("key file"), limit: 10) }?.reason,
                       "it has mode 644, so other users can read it; make it private (chmod 600 '\(othersRead)')")
    }

    func testAFileOverTheLimitIsRefusedBeforeAByteIsRead() throws {
        let folder = ScratchFolder()
        let path = folder.write("big", String(repeating: "x", count: 100))
        XCTAssertEqual(try PrivateFile.read(path, trust: .settings("suite file"), limit: 100)?.bytes.count, 100)
        #if DEBUG
        SystemCallFaults.inject { faults in
            let error = fileError { try PrivateFile.read(path, trust: .settings("suite file"), limit: 99) }
            XCTAssertEqual(error?.problem, .tooLarge(size: 100, limit: 99))
            XCTAssertEqual(error?.reason, "it is 100 bytes, over the 99 bytes a suite file may hold; move it away (mv '\(path)' '\(path).moved')")
            XCTAssertFalse(faults.calls.contains { $0.call == .read }, "refused on its size: \(faults.calls)")
        }
        #endif
    }

    #if DEBUG
    /// A file another program appends to between the check of its size and the end of the read
    /// is refused too: the read stops once it is over the limit.
    func testAFileThatGrowsWhileItIsReadIsRefused() throws {
        let folder = ScratchFolder()
        let path = folder.write("growing", String(repeating: "x", count: 50))
        SystemCallFaults.inject { faults in
            var grown = false
            faults.beforeEachCall = { call in
                guard call.call == .read, !grown else { return }
                grown = true
                let handle = FileHandle(forWritingAtPath: path)
                handle?.seekToEndOfFile()
                handle?.write(Data(repeating: 0x79, count: 4096))
                try? handle?.close()
            }
            let error = fileError { try PrivateFile.read(path, trust: .settings("suite file"), limit: 1000) }
            XCTAssertEqual(error?.problem, .tooLarge(size: 1001, limit: 1000))
        }
    }

    /// Reads that a signal interrupts (EINTR) are made again, and reads the kernel cuts short
    /// are continued: the bytes come back whole.
    func testInterruptedAndShortReadsStillReadEveryByte() throws {
        let folder = ScratchFolder()
        let text = (0..<3000).map { String($0 % 10) }.joined()
        let path = folder.write("suite.json", text)
        try SystemCallFaults.inject { faults in
            faults.fail(.read, with: .interrupted, times: 3)
            faults.shorten(.read, to: 7)
            let read = try XCTUnwrap(try PrivateFile.read(path, trust: .settings("suite file"), limit: 1 << 20))
            XCTAssertEqual(String(decoding: read.bytes, as: UTF8.self), text)
            XCTAssertEqual(faults.calls.filter { $0.fault == .fail(.interrupted) }.count, 3)
            XCTAssertGreaterThan(faults.calls.filter { $0.fault == .shorten(7) }.count, 400, "3,000 bytes, 7 at a time")
        }
    }

    func testAReadErrorNamesTheFileAndWhatWentWrong() throws {
        let folder = ScratchFolder()
        let path = folder.write("suite.json", "{}")
        SystemCallFaults.inject { faults in
            faults.fail(.read, with: .ioError)
            let error = fileError { try PrivateFile.read(path, trust: .settings("suite file"), limit: 100) }
            XCTAssertEqual(error?.description, "cannot read the suite file \(path): Input/output error")
        }
    }
    #endif
}
