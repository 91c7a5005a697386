import Foundation
import RizqPrefs
@testable import RizqSync
import RizqTestSupport
import XCTest

/// A device whose clock is a day behind (issue 37, item 14): its later edit loses to an earlier
/// one, and both devices, `sync status` and `doctor` now say why, with the offset.
final class ClockSkewTests: XCTestCase {
    func testADeviceADayBehindIsReportedWithItsOffsetAndTheEditItLostIsExplained() throws {
        let scratch = TemporaryFolder()
        let folder = scratch.sub("shared")
        let keys = ["theme", "fontSize"]
        let b = try TestDevice("b", in: scratch, folder: folder, keys: keys, first: true)
        try b.sync.set(1, forKey: "fontSize")
        try b.sync.syncNow()

        // Device A: another process, its wall clock a day behind (libfaketime). Its rounds are
        // asked for ("now"): under a negative offset libfaketime shifts the deadlines of
        // Dispatch's timers a day ahead, so a round scheduled after a delay never comes.
        let clockOffset = repositoryRoot().appendingPathComponent("scripts/with-clock-offset").path
        let a = try SyncChild(
            [clockOffset, "-1d", productsFolder + "/rizq-sync-test-child", scratch.sub("root-a"), TestDevice.app, TestDevice.app, "device-a",
             folder, "--keys", keys.joined(separator: ",")])
        XCTAssertNotNil(a.waitForLine { $0 == "ready" })
        a.send("now")
        // Its first round merged B's replica and found B's stamps a day ahead of its clock. (An
        // event's line and "ok now" come in either order: events are printed by another task.)
        let first = Self.both(a, "ok now") { $0.hasPrefix("clock device-b ") }
        let seen = try XCTUnwrap(first.event, "A reports B's clock")
        XCTAssertEqual(first.done, "ok now")
        let ahead = try XCTUnwrap(Int64(seen.split(separator: " ")[2]))
        XCTAssertGreaterThan(ahead, 86_000_000, seen)
        XCTAssertLessThanOrEqual(ahead, 86_400_000, "a lower bound: the time the file travelled only makes it look nearer")
        XCTAssertTrue(eventually { (try? DeviceSyncTests.replica(folder, "device-a"))?.clocks["device-b"] != nil }, "and publishes what it found")

        // B edits first; A edits after it (by the real time), before either saw the other's.
        try b.sync.set("b's earlier edit", forKey: "theme")
        a.send("set theme \"a's later edit\"")
        XCTAssertEqual(a.waitForLine { $0.hasPrefix("ok set theme") || $0.hasPrefix("error") }?.hasPrefix("ok set theme"), true)
        a.send("now")
        XCTAssertEqual(a.waitForLine { $0.hasPrefix("ok now") || $0.hasPrefix("error now") }, "ok now")
        XCTAssertEqual(try DeviceSyncTests.replica(folder, "device-a")?.entries["theme"]?.value, "a's later edit")

        // B's round: B's edit wins by its stamp, and B says why A's later one lost.
        let report = try b.sync.syncNow()
        XCTAssertEqual(b.value("theme"), "b's earlier edit", "the clocks decided (the fault reproduced)")
        let skew = try XCTUnwrap(report.clockSkews.first { $0.device == "device-a" }, "\(report.clockSkews)")
        XCTAssertLessThan(skew.offsetMilliseconds, -86_000_000, "A's clock is a day behind B's")
        XCTAssertTrue(skew.description.contains("behind"), skew.description)
        let explanation = try XCTUnwrap(report.decidedByClock["theme"], "\(report)")
        XCTAssertTrue(explanation.contains("device device-a") && explanation.contains("may have been made later"), explanation)
        XCTAssertEqual(try b.sync.decidedByClock["theme"], explanation, "kept for sync status and doctor")

        // A takes B's value, and says so too.
        a.send("now")
        let decided = Self.both(a, "ok now") { $0 == "decided theme" }
        XCTAssertNotNil(decided.event, "A explains its own loss")
        XCTAssertEqual(decided.done, "ok now")
        a.send("get theme")
        XCTAssertEqual(a.waitForLine { $0.hasPrefix("value theme") }, "value theme \"b's earlier edit\"")
        // A's next edit is stamped after what it saw: a day ahead of its own clock.
        a.send("set fontSize 2")
        XCTAssertNotNil(a.waitForLine { $0.hasPrefix("ok set fontSize") })
        a.send("now")
        XCTAssertEqual(a.waitForLine { $0.hasPrefix("ok now") || $0.hasPrefix("error now") }, "ok now")
        a.send("skews")
        var lines: [String] = []
        while let line = a.waitForLine({ $0.hasPrefix("skew ") || $0 == "skews done" }), line != "skews done" { lines.append(line) }
        XCTAssertTrue(lines.contains { $0.hasPrefix("skew device-b other ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("skew device-a this ") }, "this device's own stamps run ahead of its clock: \(lines)")
        a.send("quit")
        XCTAssertEqual(a.waitForExit(), 0)

        // `sync status` and `doctor` on B say it, with the offset.
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = b.root
        environment["RIZQ_PREFS_REPLICA_ID"] = "device-b"
        environment["RIZQ_PREFS_APP_ID"] = TestDevice.app
        let status = try runCommand(productsFolder + "/rizq-prefs", ["sync", "status"], environment: environment)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("device device-a's clock runs at least 23 h"), status.stdout)
        XCTAssertTrue(status.stdout.contains("decided by a clock: key 'theme'"), status.stdout)
        let json = try runCommand(productsFolder + "/rizq-prefs", ["sync", "status", "--json"], environment: environment)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let clocks = try XCTUnwrap(items.first?["clocks"] as? [[String: Any]])
        XCTAssertEqual(clocks.first?["device"] as? String, "device-a")
        XCTAssertLessThan(try XCTUnwrap(clocks.first?["offsetMilliseconds"] as? Int), -86_000_000)
        let doctor = try runCommand(productsFolder + "/rizq-prefs", ["doctor", "--skip-secrets"], environment: environment)
        XCTAssertEqual(doctor.status, 0, "a clock is a warning: \(doctor.stdout) \(doctor.stderr)")
        XCTAssertTrue(doctor.stdout.contains("Device sync"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("device device-a's clock runs at least 23 h"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("timedatectl"), doctor.stdout)
    }

    /// Waits for the answer line (`done`, or an error of the same command) and for an event line
    /// that `event` matches, in whichever order the child printed them.
    private static func both(_ child: SyncChild, _ done: String, event: (String) -> Bool) -> (done: String?, event: String?) {
        let command = done.split(separator: " ").last.map(String.init) ?? done
        var answer: String?
        var seen: String?
        while answer == nil || seen == nil {
            guard let line = child.waitForLine({ line in
                (answer == nil && (line == done || line.hasPrefix("error " + command))) || (seen == nil && event(line))
            }) else { break }
            if seen == nil, event(line) { seen = line } else { answer = line }
        }
        return (answer, seen)
    }
}
