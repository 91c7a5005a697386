import Foundation
import XCTest

/// `get`, `set` and `list` read by the quick reader (QuickCommandLine) behave exactly as when
/// argument-parser reads them: the same lines, run in the same order against two roots — one of
/// them with the quick reader off — give the same exit statuses, stdout, stderr and suite files.
final class QuickCommandLineTests: XCTestCase {
    func testTheQuickReaderAndArgumentParserAgreeLineForLine() throws {
        let quick = try CLIHarness()
        let full = try CLIHarness()
        full.environment["RIZQ_PREFS_FULL_PARSER"] = "1"
        let lines: [[String]] = [
            ["set", "streak", "12", "--int"],
            ["set", "--type", "int", "goal", "3"],
            ["set", "--type=double", "ratio", "0.5"],
            ["set", "flag", "yes", "--bool"],
            ["set", "name", "Zeynep Ümit"],
            ["set", "empty", ""],
            ["set", "--json", "prefs", #"{"dailyGoal": 3, "tags": ["a", "b"]}"#],
            ["set", "--suite", "group.com.rizq.clitest.shared", "theme", "dark"],
            ["set", "--suite=group.com.rizq.clitest.shared", "--app", "com.rizq.other", "theme", "light"],
            ["set", "offset", "-7", "--int"],
            ["set", "bad", "twelve", "--int"],
            ["set", "clash", "1", "--type", "int", "--bool"],
            ["set", "two", "1", "--int", "--bool"],
            ["set", "unknown", "1", "--type", "integer"],
            ["set", "only-key"],
            ["set", "k", "v", "extra"],
            ["set", "k", "v", "--bogus"],
            ["set", "--app", "com.rizq.other", "k", "v"],
            ["set", "--app", "--int", "k", "v"],
            ["get", "streak"],
            ["get", "--json", "name"],
            ["get", "name", "--json"],
            ["get", "prefs"],
            ["get", "empty"],
            ["get", "offset"],
            ["get", "missing"],
            ["get", "--app=com.rizq.other", "k"],
            ["get", "--suite", "group.com.rizq.clitest.shared", "theme"],
            ["get", "--suite", "rizq-migrations", "k"],
            ["get", "--app", "bad/app", "k"],
            ["get"],
            ["get", "a", "b"],
            ["get", "--int", "streak"],
            ["get", "--app", "com.rizq.other", "--app", "com.rizq.clitest", "k"],
            ["get", "--", "--odd"],
            ["get", "--help"],
            ["list"],
            ["list", "--json"],
            ["list", "--app", "com.rizq.empty"],
            ["list", "--suite", "group.com.rizq.clitest.shared", "--json"],
            ["list", "extra"],
        ]
        for line in lines {
            let a = try quick.run(line)
            let b = try full.run(line)
            XCTAssertEqual(a.status, b.status, "exit status of \(line)")
            XCTAssertEqual(a.stdout, b.stdout, "stdout of \(line)")
            XCTAssertEqual(a.stderr.replacingOccurrences(of: quick.root, with: "ROOT"), b.stderr.replacingOccurrences(of: full.root, with: "ROOT"), "stderr of \(line)")
        }
        XCTAssertEqual(try suiteFiles(quick.root), try suiteFiles(full.root), "the suite files")
        XCTAssertEqual(try quick.run(["get", "streak"]).stdout, "12\n", "the quick reader stored the value")
    }

    /// Every suite file under `root` (not the change logs, which hold times), by relative path.
    private func suiteFiles(_ root: String) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".json"), !(path as NSString).lastPathComponent.hasPrefix(".") else { continue }
            files[path] = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
        }
        XCTAssertFalse(files.isEmpty)
        return files
    }
}
