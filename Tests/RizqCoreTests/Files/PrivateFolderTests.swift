import Foundation
@testable import RizqCore
import RizqTestSupport
import XCTest

/// PrivateFolder: folders made 0700 whatever the umask, judged like files (a link, a file where a
/// folder should be, another user's, one others can write), given their parent's owner by a root
/// process, and a full disk while they are made.
final class PrivateFolderTests: XCTestCase {
    func testEnsureMakesEveryMissingFolder0700WhateverTheUmask() throws {
        let folder = ScratchFolder()
        let deep = folder.file("a/b/c")
        try withUmask(0) { try PrivateFolder.ensure(deep, trust: .settings("folder")) }
        for path in [folder.file("a"), folder.file("a/b"), deep] {
            XCTAssertEqual(fileInfo(path).st_mode & 0o7777, 0o700, path)
        }
        // A umask that takes the owner's own bits: each folder is still made 0700, and usable.
        let tight = folder.file("x/y")
        try withUmask(0o277) { try PrivateFolder.ensure(tight, trust: .secret("folder")) }
        XCTAssertEqual(fileInfo(folder.file("x")).st_mode & 0o7777, 0o700)
        XCTAssertEqual(fileInfo(tight).st_mode & 0o7777, 0o700)
        XCTAssertTrue(try PrivateFolder.check(tight, trust: .secret("folder")))
        try PrivateFolder.ensure(tight, trust: .secret("folder"))  // there already: nothing to do
    }

    func testCheckSaysWhatIsThereAndRefusesAFileOrALink() throws {
        let folder = ScratchFolder()
        XCTAssertFalse(try PrivateFolder.check(folder.file("missing"), trust: .settings("folder")))
        let file = folder.write("file", "x")
        XCTAssertFalse(try PrivateFolder.check(file + "/under", trust: .settings("folder")), "a path through a file (ENOTDIR)")
        let error = fileError { try PrivateFolder.check(file, trust: .settings("suites folder")) }
        XCTAssertEqual(error?.description,
                       "cannot inspect the suites folder \(file): it is a regular file, not a folder, so it is not opened (a FIFO or a device would hang or feed anything); move it away (mv '\(file)' '\(file).moved')")
        XCTAssertEqual(fileError { try PrivateFolder.ensure(file, trust: .settings("folder")) }?.problem, .wrongKind(found: "a regular file", expected: "a folder"))

        let target = folder.folder("target")
        let link = folder.file("link")
        XCTAssertEqual(symlink(target, link), 0)
        XCTAssertEqual(fileError { try PrivateFolder.check(link, trust: .settings("folder")) }?.problem, .symbolicLink(target: "'\(target)'"))
        XCTAssertTrue(try PrivateFolder.check(link, trust: .hostProvided("credential folder")), "followed, and the folder it names judged")
        XCTAssertEqual(chmod(target, 0o770), 0)
        XCTAssertEqual(fileError { try PrivateFolder.check(link, trust: .hostProvided("credential folder")) }?.reason,
                       "it has mode 770, so its group can write it; make it yours alone (chmod g-w,o-w '\(link)')")
        let dangling = folder.file("dangling")
        XCTAssertEqual(symlink(folder.file("nowhere"), dangling), 0)
        XCTAssertFalse(try PrivateFolder.check(dangling, trust: .hostProvided("credential folder")))
    }

    /// A group-writable parent passes the settings rule and no stricter one; one any user can
    /// write passes none, unless it is sticky.
    func testAGroupWritableFolderPassesOnlyTheSettingsRule() throws {
        let folder = ScratchFolder()
        let group = folder.folder("group", mode: 0o770)
        XCTAssertTrue(try PrivateFolder.check(group, trust: .settings("folder")))
        for trust in [FileTrust.configuration("folder"), .secret("folder")] {
            XCTAssertEqual(fileError { try PrivateFolder.check(group, trust: trust) }?.reason,
                           "it has mode 770, so its group can write it; make it yours alone (chmod g-w,o-w '\(group)')")
        }
        let open = folder.folder("open", mode: 0o777)
        XCTAssertEqual(fileError { try PrivateFolder.check(open, trust: .settings("folder")) }?.reason,
                       "it has mode 777, so any user can write it; make it yours alone (chmod o-w '\(open)')")
        let sticky = folder.folder("sticky", mode: 0o1777)
        XCTAssertTrue(try PrivateFolder.check(sticky, trust: .configuration("folder")))
        // Issue 50, item 10: never a secret's folder, sticky or not.
        XCTAssertEqual(fileError { try PrivateFolder.check(sticky, trust: .secret("folder")) }?.reason,
                       "it has mode 1777, so any user can write it; make it yours alone (chmod o-w '\(sticky)')")
    }

    func testAnotherUsersFolderIsRefusedByTheRulesThatNameOwners() throws {
        try XCTSkipIf(geteuid() != 0, "needs root, to give a folder to another user")
        let folder = ScratchFolder()
        let theirs = folder.folder("theirs")
        XCTAssertEqual(chown(theirs, 65534, 65534), 0)
        XCTAssertTrue(try PrivateFolder.check(theirs, trust: .settings("folder")), "root keeps users' folders theirs")
        XCTAssertEqual(fileError { try PrivateFolder.check(theirs, trust: .configuration("folder")) }?.problem, .foreignOwner(owner: 65534, user: 0))
    }

    /// A root process making folders in a user's folder gives each the user as owner.
    func testARootProcessGivesTheFoldersItMakesTheOwnerOfTheirParent() throws {
        try XCTSkipIf(geteuid() != 0, "needs root, to give a folder to another user")
        let folder = ScratchFolder()
        let home = folder.folder("home")
        XCTAssertEqual(chown(home, 65534, 65534), 0)
        try PrivateFolder.ensure(home + "/config/app", trust: .settings("folder"), ownership: .inheritedWhenRoot)
        XCTAssertEqual(FileOwner.of(home + "/config"), FileOwner(user: 65534, group: 65534))
        XCTAssertEqual(FileOwner.of(home + "/config/app"), FileOwner(user: 65534, group: 65534))
        try PrivateFolder.ensure(folder.file("mine/app"), trust: .settings("folder"), ownership: .inheritedWhenRoot)
        XCTAssertEqual(FileOwner.of(folder.file("mine")), FileOwner(user: 0, group: 0), "root's folder: root's")
    }

    /// A file system out of inodes (a tmpfs with nr_inodes) while the folders are made: the
    /// error names the folder that could not be made and says the disk is full.
    func testAFullDiskWhileMakingFoldersNamesTheOneThatFailed() throws {
        let scratch = ScratchFolder()
        let disk = try scratch.smallDisk(size: "64k", options: "nr_inodes=3")
        let error = fileError { try PrivateFolder.ensure(disk + "/a/b/c/d/e", trust: .settings("folder")) }
        XCTAssertEqual(error?.problem, .system(.noSpace))
        let failed = try XCTUnwrap(error?.path)
        XCTAssertTrue(failed.hasPrefix(disk + "/a/"), failed)
        XCTAssertEqual(error?.description, "cannot create the folder \(failed): the disk is full (No space left on device); free space on it")
        XCTAssertTrue(try PrivateFolder.check(PrivateFolder.parent(of: failed), trust: .settings("folder")), "the ones before it were made")
    }

    func testSyncNamesAFolderItCannotFlush() {
        let folder = ScratchFolder()
        XCTAssertNoThrow(try PrivateFolder.sync(folder.path))
        XCTAssertEqual(fileError { try PrivateFolder.sync(folder.file("missing")) }?.problem, .system(.noSuchFile))
    }

    func testNamesParentsAndLastComponents() {
        let folder = ScratchFolder()
        folder.write("a", "")
        folder.folder("b")
        XCTAssertEqual(PrivateFolder.names(in: folder.path).sorted(), ["a", "b"])
        XCTAssertEqual(PrivateFolder.names(in: folder.file("missing")), [])
        XCTAssertEqual(PrivateFolder.parent(of: "/x/y/z.json"), "/x/y")
        XCTAssertEqual(PrivateFolder.parent(of: "/z.json"), "/")
        XCTAssertEqual(PrivateFolder.parent(of: "z.json"), ".")
        XCTAssertEqual(PrivateFolder.name(of: "/x/y/z.json"), "z.json")
        XCTAssertEqual(PrivateFolder.name(of: "z.json"), "z.json")
    }

    #if DEBUG
    func testAnInterruptedMkdirIsMadeAgain() throws {
        let folder = ScratchFolder()
        try SystemCallFaults.inject { faults in
            // /tmp and the scratch folder exist (EEXIST): the faults are for the new one.
            faults.fail(.mkdir, with: .interrupted, times: 2, after: 2)
            faults.fail(.chmod, with: .interrupted)
            try PrivateFolder.ensure(folder.file("new"), trust: .settings("folder"))
            XCTAssertEqual(faults.calls.filter { $0.call == .mkdir && $0.detail == folder.file("new") }.count, 3, "\(faults.calls)")
        }
        XCTAssertEqual(fileInfo(folder.file("new")).st_mode & 0o7777, 0o700)
    }
    #endif
}
