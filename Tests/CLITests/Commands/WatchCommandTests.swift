import Foundation
import RizqJSON
import RizqPrefs
import XCTest

/// watch: changes made by a second rizq-prefs process arrive, in order, until interrupted.
final class WatchCommandTests: XCTestCase {
    func testWatchSeesChangesMadeByAnotherProcessAsJSONLines() throws {
        let cli = try CLIHarness()
        try cli.run("set", "--suite", "group.com.rizq.app", "current_streak", "1", "--int")
        let watch = try cli.start(["watch", "--suite", "group.com.rizq.app", "--json"])
        XCTAssertTrue(watch.wait { _, err in err.contains("watching suite group.com.rizq.app") }, watch.stderr)

        // Each change once the one before was printed, so that none is folded into the next.
        for (count, change) in [
            ["set", "--suite", "group.com.rizq.app", "current_streak", "2", "--int"],
            ["set", "--suite", "group.com.rizq.app", "theme_mode", "dark"],
            ["delete", "--suite", "group.com.rizq.app", "current_streak"],
        ].enumerated() {
            try cli.run(change)
            XCTAssertTrue(watch.wait { out, _ in out.split(separator: "\n").count > count }, "got: \(watch.stdout) / \(watch.stderr)")
        }
        let lines = try watch.stdout.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        XCTAssertEqual(lines, [
            ["key": "current_streak", "value": 2, "removed": false, "origin": "external"],
            ["key": "theme_mode", "value": "dark", "removed": false, "origin": "external"],
            ["key": "current_streak", "value": .null, "removed": true, "origin": "external"],
        ])
        XCTAssertEqual(watch.stop(with: SIGINT), 0, "Ctrl-C ends watching cleanly")
    }

    func testWatchWithKeysPrintsOnlyThoseAsText() throws {
        let cli = try CLIHarness()
        let watch = try cli.start(["watch", "current_streak"])
        XCTAssertTrue(watch.wait { _, err in err.contains("watching") }, watch.stderr)
        try cli.run("set", "other", "x")
        try cli.run("set", "current_streak", "3", "--int")
        XCTAssertTrue(watch.wait { out, _ in out.contains("current_streak = 3") }, watch.stdout)
        // A later change of the watched key comes after everything before it: had `other` been
        // printed, it would be by now.
        try cli.run("set", "current_streak", "4", "--int")
        XCTAssertTrue(watch.wait { out, _ in out.contains("current_streak = 4") }, watch.stdout)
        XCTAssertEqual(watch.stdout, "current_streak = 3\ncurrent_streak = 4\n")
        XCTAssertEqual(watch.stop(with: SIGTERM), 0)
    }
}
