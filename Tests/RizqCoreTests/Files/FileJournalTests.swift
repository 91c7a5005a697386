import Foundation
@testable import RizqCore
import RizqTestSupport
import XCTest

/// FileJournal, the journal of a multi-step operation: a running operation's journal is told
/// from a dead one's by its lock; a journal killed before any of its system calls reads back as
/// none or as one of the states it announced, never a line cut short; a full disk, a short
/// write or an interrupted call leave the journal's lines as they were.
final class FileJournalTests: XCTestCase {
    private let states: [[String]] = [["one", "two"], ["one", "two", "three"], ["four"]]

    func testTheLinesAreWrittenRewrittenAndRemovedUnderTheLock() throws {
        let folder = ScratchFolder()
        let path = folder.file("journals/import.journal")
        do {
            let journal = try withUmask(0) { try FileJournal.begin(path, lines: [bytes("one")]) }
            XCTAssertEqual(fileInfo(path).st_mode & 0o777, 0o600)
            XCTAssertEqual(fileInfo(folder.file("journals")).st_mode & 0o777, 0o700, "its folder made 0700")
            try journal.append(bytes("two"))
            XCTAssertEqual(folder.text("journals/import.journal"), "one\ntwo\n")
            XCTAssertNil(FileJournal.withUnlocked(path) { $0 }, "held by its operation")
            XCTAssertEqual(fileError { try FileJournal.resume(path) }?.problem, .lockTimedOut(waited: "0 s", holders: "another process running the same operation"))
            try journal.rewrite([bytes("three")])
            XCTAssertEqual(folder.text("journals/import.journal"), "three\n")
            XCTAssertNil(FileJournal.withUnlocked(path) { $0 }, "still held after the rewrite")
            XCTAssertEqual(folder.temporaries(in: "journals"), [])
        }
        XCTAssertEqual(FileJournal.withUnlocked(path) { $0.map(text) }, ["three"], "let go with its value")
        let resumed = try XCTUnwrap(try FileJournal.resume(path))
        XCTAssertEqual(resumed.lines.map(text), ["three"])
        try resumed.journal.finish()
        XCTAssertNil(FileStamp.of(path))
        XCTAssertNil(try FileJournal.resume(path), "none left")
    }

    func testASecondBeginFindsTheFirstJournalAndLeavesIt() throws {
        let folder = ScratchFolder()
        let path = folder.file("move.journal")
        let first = try FileJournal.begin(path, lines: [bytes("first")])
        let error = fileError { try FileJournal.begin(path, lines: [bytes("second")]) }
        XCTAssertEqual(error?.problem, .system(.fileExists))
        XCTAssertEqual(error?.path, path)
        XCTAssertEqual(folder.text("move.journal"), "first\n")
        XCTAssertEqual(folder.temporaries(), [])
        try first.finish()
    }

    /// A kill can cut only the last line short: reading drops it, as the step it announced had
    /// not begun.
    func testALineCutShortIsDropped() throws {
        let folder = ScratchFolder()
        let path = folder.write("move.journal", "{\"a\":1}\n{\"b\":2}\n{\"c\":")
        let resumed = try XCTUnwrap(try FileJournal.resume(path))
        XCTAssertEqual(resumed.lines.map(text), ["{\"a\":1}", "{\"b\":2}"])
        XCTAssertEqual(FileJournal.completeLines(bytes("a\n\nb\n")).map(text), ["a", "b"])
        XCTAssertEqual(FileJournal.completeLines(bytes("cut")).map(text), [])
    }

    /// The journal is judged as settings: a link, a FIFO or a mode others can write is refused;
    /// a folder others can write is refused for a new one, a group-writable one is not.
    func testALinkAFIFOOrAnOpenFolderIsRefused() throws {
        let folder = ScratchFolder()
        let elsewhere = folder.write("elsewhere", "x\n")
        XCTAssertEqual(symlink(elsewhere, folder.file("link.journal")), 0)
        XCTAssertEqual(fileError { try FileJournal.resume(folder.file("link.journal")) }?.problem, .symbolicLink(target: "'\(elsewhere)'"))
        XCTAssertNil(FileJournal.withUnlocked(folder.file("link.journal")) { $0 })
        XCTAssertEqual(mkfifo(folder.file("fifo.journal"), 0o600), 0)
        XCTAssertEqual(fileError { try FileJournal.resume(folder.file("fifo.journal")) }?.problem, .wrongKind(found: "a FIFO (named pipe)", expected: "a regular file"))
        folder.write("open.journal", "x\n", mode: 0o666)
        XCTAssertEqual(fileError { try FileJournal.resume(folder.file("open.journal")) }?.reason,
                       "it has mode 666, so any user can write it; make it yours alone (chmod o-w '\(folder.file("open.journal"))')")

        let open = folder.folder("open", mode: 0o777)
        XCTAssertEqual(fileError { try FileJournal.begin(open + "/a.journal", lines: []) }?.description,
                       "cannot inspect the folder \(open): it has mode 777, so any user can write it; make it yours alone (chmod o-w '\(open)')")
        let group = folder.folder("group", mode: 0o770)
        try FileJournal.begin(group + "/a.journal", lines: [bytes("ok")]).finish()
    }

    /// A full disk (a small tmpfs) while a line is appended: the append says so, and the part of
    /// the line that fit is cut off again — the journal holds its lines as they were, and the
    /// next append, once there is room, is a line of its own.
    func testAnAppendOnAFullDiskLeavesTheLinesAsTheyWere() throws {
        let scratch = ScratchFolder()
        let disk = try scratch.smallDisk(size: "64k")
        let path = disk + "/import.journal"
        let journal = try FileJournal.begin(path, lines: [bytes("first")])
        fillDisk(disk + "/filler")
        let long = String(repeating: "x", count: 6000)
        let error = fileError { try journal.append(bytes(long)) }
        XCTAssertEqual(error?.problem, .system(.noSpace))
        XCTAssertEqual(error?.description, "cannot write the journal \(path): the disk is full (No space left on device); free space on it")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "first\n")
        XCTAssertEqual(unlink(disk + "/filler"), 0)
        try journal.append(bytes("after"))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "first\nafter\n")
    }

    #if DEBUG
    func testShortWritesAndInterruptedCallsStillWriteWholeLines() throws {
        let folder = ScratchFolder()
        let path = folder.file("import.journal")
        try SystemCallFaults.inject { faults in
            faults.shorten(.write, to: 2)
            faults.fail(.write, with: .interrupted, times: 3)
            faults.fail(.fdatasync, with: .interrupted, times: 2)
            faults.fail(.flock, with: .interrupted)
            let journal = try FileJournal.begin(path, lines: [bytes("alpha"), bytes("beta")])
            try journal.append(bytes("gamma"))
            XCTAssertEqual(faults.calls.filter { $0.fault == .fail(.interrupted) }.count, 6)
        }
        XCTAssertEqual(folder.text("import.journal"), "alpha\nbeta\ngamma\n")
    }

    /// Each line is on the device before the step it announces begins: a write, then its
    /// fdatasync, line after line; the journal is renamed into place only once it holds them all.
    func testEachLineIsFlushedBeforeTheNextAndTheJournalAppearsWhole() throws {
        let folder = ScratchFolder()
        let path = folder.file("import.journal")
        try SystemCallFaults.inject { faults in
            let journal = try FileJournal.begin(path, lines: [bytes("a"), bytes("b")])
            try journal.append(bytes("c"))
            XCTAssertEqual(faults.calls.map(\.call), [.open, .fchmod, .flock, .write, .fdatasync, .write, .fdatasync, .renameat2, .open, .fsync, .write, .fdatasync],
                           "\(faults.calls)")
        }
    }

    /// A process killed with -9 before each of the journal's system calls in turn (begin,
    /// append, rewrite, finish): its journal is free to take over at once (the lock died with
    /// it), and reads back as none or as one of the states it had announced, whole.
    func testAKillBeforeAnyCallLeavesNoJournalOrOneOfItsStates() throws {
        let folder = ScratchFolder()
        let path = folder.file("import.journal")
        let calls = try FilesChild.runKilled(beforeCall: nil, ["journal", path]).announced
        XCTAssertNil(FileStamp.of(path), "finished: removed")
        var seen = Set<[String]>()
        for kill in 0...calls.count {
            let run = try FilesChild.runKilled(beforeCall: kill, ["journal", path])
            XCTAssertEqual(run.killed, kill < calls.count)
            if let resumed = try FileJournal.resume(path) {
                let lines = resumed.lines.map(text)
                XCTAssertTrue(states.contains(lines), "killed before call \(kill) of \(calls): \(lines)")
                seen.insert(lines)
                try resumed.journal.finish()
            }
            XCTAssertTrue(folder.temporaries().allSatisfy { $0.hasPrefix("import.journal.tmp-") }, "\(folder.temporaries())")
            for name in folder.temporaries() { unlink(folder.file(name)) }
        }
        XCTAssertEqual(seen, Set(states), "every state was reached by some kill")
    }

    /// While the operation runs (its process stopped between two calls), another process sees a
    /// running journal: `resume` refuses it, `withUnlocked` passes it by.
    func testARunningOperationsJournalIsNotTakenOver() throws {
        let folder = ScratchFolder()
        let path = folder.file("import.journal")
        let calls = try FilesChild.runKilled(beforeCall: nil, ["journal", path]).announced
        let afterBegin = try XCTUnwrap(calls.firstIndex { $0.contains(" -> \(path)") }) + 1
        try FilesChild.runKilled(beforeCall: afterBegin + 1, ["journal", path]) {
            XCTAssertEqual(folder.text("import.journal"), "one\ntwo\n")
            XCTAssertEqual(fileError { try FileJournal.resume(path) }?.problem, .lockTimedOut(waited: "0 s", holders: "another process running the same operation"))
            XCTAssertNil(FileJournal.withUnlocked(path) { $0 })
        }
        XCTAssertEqual(FileJournal.withUnlocked(path) { $0.map(text) }, ["one", "two"], "the dead operation's journal")
    }
    #endif

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
