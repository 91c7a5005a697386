import Foundation
import RizqJSON
import XCTest
@testable import RizqPrefs

/// A writer killed with SIGKILL at random moments never leaves a broken file behind, and every
/// key whose flush() returned survives.
final class CrashSafetyTests: XCTestCase {
    func testWriterKilledTwentyTimesNeverBreaksTheFileOrLosesFlushedKeys() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.crash"
        var acknowledged: [String: Int] = [:]
        for round in 0..<20 {
            let child = Child.start(root, suite, ["write-flushed", "round\(round)", "100000"])
            let out = child.standardOutput as! Pipe
            try child.run()
            // Killed once it has acknowledged a random number of keys, however long that takes
            // on a busy machine: the child writes on without pause, so the kill lands wherever
            // its next write has got to by then.
            var printed = Child.read(child, until: "ok \(Int.random(in: 1...24))")
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal)
            printed += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            for line in printed.split(separator: "\n") where line.hasPrefix("ok ") {
                if let index = Int(line.dropFirst(3)) { acknowledged["round\(round)-\(index)"] = index }
            }
            // Every time: the file parses, as an object, and holds every acknowledged key.
            guard let data = root.fileBytes(suite) else {
                XCTAssertTrue(acknowledged.isEmpty, "no file but keys were acknowledged")
                continue
            }
            guard case .dictionary(let entries) = try JSONReader.parse(data) else { return XCTFail("root is not an object") }
            for (key, value) in acknowledged {
                XCTAssertEqual(entries[key], .int(value), "round \(round): acknowledged key \(key) lost")
            }
        }
        XCTAssertGreaterThanOrEqual(acknowledged.count, 40, "each round waited for at least two acknowledged keys")
        // Temporaries of killed writers are cleaned up by the next writer (its first write).
        let next = try SuiteStore(suite: suite, appID: "tests", root: root.path)
        next.set(true, forKey: "after")
        try next.flush()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path + "/groups").filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }
}
