import Foundation
import XCTest
@testable import RizqPrefs

/// Issue 29, item 3: change delivery never goes silently stale. Each way inotify can fail —
/// no instance left (`max_user_instances`), the event queue overflowed (`IN_Q_OVERFLOW`), the
/// watched folder removed and made again — used to leave a process with the old values and no
/// word; now the store detects it, says so once in the log, and keeps readers fresh by checking
/// the file (every read checks its stamp; a bounded poll feeds the change streams).
///
/// Real processes throughout. The inotify limits are lowered for the children only, in a user
/// namespace of their own (`scripts/with-inotify-limits`), never for the machine, and come back
/// with that namespace.
final class ChangeDeliveryFaultTests: XCTestCase {
    private var script: (String) -> String {
        { repositoryRoot().appendingPathComponent("scripts/" + $0).path }
    }

    /// 200 watchers of one suite where only 10 inotify instances are allowed: every one of them
    /// prints the change (72 of 200 printed nothing with the machine's default of 128).
    func testTwoHundredWatchersOfOneSuiteAllSeeTheChange() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.watched"
        let count = 200
        XCTAssertEqual(try Child.run(root, suite, ["set-json", "k", "\"old\""]).status, 0)
        let watchers = try LiveChild(
            root, suite, ["watch", "k", "1"],
            wrapper: [
                script("with-inotify-limits"), "--instances", "10", "/bin/sh", "-c",
                "trap 'kill $(jobs -p) 2>/dev/null' TERM; for i in $(seq \(count)); do \"$@\" & done; wait; wait", "sh",
            ])
        addTeardownBlock {
            // The shell ends its watchers (any still waiting for the change) and itself.
            kill(watchers.process.processIdentifier, SIGTERM)
            watchers.waitForExit()
        }
        XCTAssertTrue(eventually(timeout: 300) { watchers.printed.filter { $0 == "ready" }.count == count }, "\(watchers.printed.count) lines; \(watchers.stderr)")
        XCTAssertEqual(try Child.run(root, suite, ["set-json", "k", "\"new\""]).status, 0)
        XCTAssertTrue(
            eventually(timeout: 120) { watchers.printed.filter { $0 == #""new""# }.count == count },
            "\(watchers.printed.filter { $0 == #""new""# }.count) of \(count) watchers saw the change")
        kill(watchers.process.processIdentifier, SIGTERM)
        watchers.waitForExit()
        XCTAssertTrue(watchers.stderr.contains("max_user_instances"), "the log says which limit to raise: \(watchers.stderr.prefix(2_000))")
    }

    /// A process with 300 open suites and no inotify instance at all: a read of each suite after
    /// another process wrote it returns the new value, and each suite's change stream delivers it
    /// (0 of 300 before, and `get` returned the old value in all 300).
    func testThreeHundredSuitesWithoutAnInstanceStayFresh() throws {
        let root = TemporaryRoot()
        let count = 300
        let watcher = try LiveChild(
            root, "group.com.rizq.unused", ["watch-suites", "group.com.rizq.many", "\(count)"],
            wrapper: [script("with-inotify-limits"), "--instances", "0"])
        addTeardownBlock {
            watcher.closeInput()
            watcher.kill()
            watcher.waitForExit()
        }
        XCTAssertNotNil(watcher.waitForLine { $0 == "ready" }, watcher.stderr)
        for index in 0..<count {
            XCTAssertEqual(try Child.run(root, "group.com.rizq.many-\(index)", ["set-json", "k", "\"new\""]).status, 0)
        }
        watcher.send("check")
        XCTAssertEqual(watcher.waitForLine { $0.hasPrefix("fresh") }, "fresh \(count)", "a read is never older than the file")
        XCTAssertEqual(watcher.waitForLine { $0.hasPrefix("changes") }, "changes \(count)", "every change stream delivered")
        watcher.closeInput()
        XCTAssertEqual(watcher.waitForExit(), 0)
        XCTAssertTrue(watcher.stderr.contains("max_user_instances"), "the log says which limit to raise: \(watcher.stderr)")
    }

    /// An instance but no watch left (`max_user_watches` reached, here 0 in the children's
    /// namespace): `inotify_add_watch` fails with ENOSPC, and the folder's suites are checked
    /// instead — reads are fresh, the change streams deliver, and the log names the limit.
    func testSuitesWithoutAWatchLeftStayFresh() throws {
        let root = TemporaryRoot()
        let count = 20
        let watcher = try LiveChild(
            root, "group.com.rizq.unused", ["watch-suites", "group.com.rizq.nowatch", "\(count)"],
            wrapper: [script("with-inotify-limits"), "--watches", "0"])
        addTeardownBlock {
            watcher.closeInput()
            watcher.kill()
            watcher.waitForExit()
        }
        XCTAssertNotNil(watcher.waitForLine { $0 == "ready" }, watcher.stderr)
        for index in 0..<count {
            XCTAssertEqual(try Child.run(root, "group.com.rizq.nowatch-\(index)", ["set-json", "k", "\"new\""]).status, 0)
        }
        watcher.send("check")
        XCTAssertEqual(watcher.waitForLine { $0.hasPrefix("fresh") }, "fresh \(count)", "a read is never older than the file")
        XCTAssertEqual(watcher.waitForLine { $0.hasPrefix("changes") }, "changes \(count)", "every change stream delivered")
        watcher.closeInput()
        XCTAssertEqual(watcher.waitForExit(), 0)
        XCTAssertTrue(watcher.stderr.contains("max_user_watches"), "the log says which limit to raise: \(watcher.stderr)")
    }

    /// The watcher's event queue overflows while it is stopped, and the suite's write is one of
    /// the events lost: after `IN_Q_OVERFLOW` every suite is checked at once, so the change is
    /// delivered (it was missed until the file was written again, 3 of 3).
    func testAChangeLostInAQueueOverflowIsDelivered() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.overflow"
        XCTAssertEqual(try Child.run(root, suite, ["set-json", "k", "\"old\""]).status, 0)
        let watcher = try LiveChild(root, suite, ["watch", "k", "1"])
        addTeardownBlock {
            kill(watcher.process.processIdentifier, SIGCONT)
            watcher.kill()
            watcher.waitForExit()
        }
        XCTAssertNotNil(watcher.waitForLine { $0 == "ready" })
        kill(watcher.process.processIdentifier, SIGSTOP)
        waitUntilStopped(watcher)
        // More distinct events than the queue holds (max_queued_events, 16,384 by default).
        let folder = root.path + "/groups"
        let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16_384
        for index in 0..<(limit / 2 + 1_000) {
            let temporary = folder + "/.noise-\(index)"
            XCTAssertTrue(FileManager.default.createFile(atPath: temporary, contents: nil))
            XCTAssertEqual(rename(temporary, folder + "/noise-\(index % 50)"), 0)
        }
        XCTAssertEqual(try Child.run(root, suite, ["set-json", "k", "\"new\""]).status, 0)
        kill(watcher.process.processIdentifier, SIGCONT)
        XCTAssertNotNil(watcher.waitForLine(timeout: 60) { $0 == #""new""# }, "the change lost in the overflow was delivered: \(watcher.printed)")
    }

    /// The suite's folder is removed and made again (or `~/.config` restored from a backup):
    /// the watcher watches the new folder, and prints the next change (nothing more was printed).
    func testAChangeAfterTheFolderWasRemovedAndMadeAgainIsDelivered() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.refolder"
        XCTAssertEqual(try Child.run(root, suite, ["set-json", "k", "\"old\""]).status, 0)
        // Two changes: the removal (the key is gone with its file), then the new value.
        let watcher = try LiveChild(root, suite, ["watch", "k", "2"])
        addTeardownBlock {
            watcher.kill()
            watcher.waitForExit()
        }
        XCTAssertNotNil(watcher.waitForLine { $0 == "ready" })
        let folder = root.path + "/groups"
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        XCTAssertEqual(try Child.run(root, suite, ["set-json", "k", "\"new\""]).status, 0)
        XCTAssertNotNil(watcher.waitForLine(timeout: 60) { $0 == #""new""# }, "printed: \(watcher.printed)")
    }

    /// The folder's parent is moved away and a copy put in its place (a backup restored): the
    /// watcher follows the path, not the moved folder.
    func testAChangeAfterTheParentFolderWasReplacedIsDelivered() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.restored"
        let home = root.path + "/config"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let child = { (arguments: [String]) throws -> Int32 in
            try runCommand(Child.executable, [home, suite] + arguments).status
        }
        XCTAssertEqual(try child(["set-json", "k", "\"old\""]), 0)
        let watcherProcess = Process()
        watcherProcess.executableURL = URL(fileURLWithPath: Child.executable)
        watcherProcess.arguments = [home, suite, "watch", "k", "1"]
        let output = Pipe()
        watcherProcess.standardOutput = output
        watcherProcess.standardError = Pipe()
        try watcherProcess.run()
        addTeardownBlock {
            watcherProcess.terminate()
            watcherProcess.waitUntilExit()
        }
        XCTAssertTrue(Child.read(watcherProcess, until: "ready").contains("ready"))
        try FileManager.default.moveItem(atPath: home, toPath: root.path + "/config.old")
        try FileManager.default.copyItem(atPath: root.path + "/config.old", toPath: home)
        XCTAssertEqual(try child(["set-json", "k", "\"new\""]), 0)
        let printed = LockedBox("")
        let finished = DispatchSemaphore(value: 0)
        Thread {
            printed.set(Child.read(watcherProcess, until: #""new""#))
            finished.signal()
        }.start()
        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success, "nothing printed after the folder was restored")
        XCTAssertTrue(printed.get().contains(#""new""#), printed.get())
    }
}
