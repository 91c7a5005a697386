import Foundation
import Synchronization
import XCTest
@testable import RizqPrefs

/// Many writers, and writers killed mid-write: real processes that
/// acknowledge over a pipe; no sleeps.
final class ManyWritersTests: XCTestCase {
    /// 16 processes × 1,000 distinct keys into one app-group suite, flushing every 200 keys while
    /// the others do the same: all 16,000 keys at the end.
    func testSixteenProcessesWritingAThousandKeysEachKeepAll16000() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.load"
        let writers = 16
        let keysEach = 1_000
        let children = try (0..<writers).map { try LiveChild(root, suite, ["write-in-flushes", "p\($0)", "\(keysEach)", "200"]) }
        for child in children { XCTAssertNotNil(child.waitForLine { $0 == "ready" }, child.stderr) }
        for child in children { child.send("go") }
        for child in children {
            XCTAssertEqual(child.waitForExit(), 0, child.stderr)
            XCTAssertEqual(child.printed.last, "ok")
        }
        let object = try root.fileObject(suite)
        XCTAssertEqual(object.count, writers * keysEach)
        for writer in 0..<writers {
            for index in 0..<keysEach where object["p\(writer)-\(index)"] as? Int != index {
                return XCTFail("p\(writer)-\(index) is \(String(describing: object["p\(writer)-\(index)"]))")
            }
        }
    }

    /// 200 rounds: a writer flushes key after key and is killed (SIGKILL) right after one of
    /// its acknowledgements, at a different point each round, while another process parses the
    /// file from disk in a loop. The file parses every time, and every key whose `flush()`
    /// returned is there at the end.
    func testTwoHundredKillsOfAWriterLoseNoAcknowledgedKeyAndNeverBreakTheFile() throws {
        let root = TemporaryRoot()
        let suite = "group.com.rizq.crash"
        let reader = try LiveChild(root, suite, ["parse-loop"])
        XCTAssertNotNil(reader.waitForLine { $0 == "ready" }, reader.stderr)
        var acknowledged: [String: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let killAfter = Int.random(in: 1...4, using: &generator)
            let seen = Mutex<[Int]>([])
            let writer = try LiveChild(root, suite, ["write-flushed", "r\(round)", "1000"]) { line in
                guard line.hasPrefix("ok "), let index = Int(line.dropFirst(3)) else { return }
                seen.withLock { $0.append(index) }
            }
            XCTAssertNotNil(writer.waitForLine { $0 == "ok \(killAfter - 1)" }, writer.stderr)
            writer.kill()
            writer.waitForExit()
            for index in seen.withLock({ $0 }) { acknowledged["r\(round)-\(index)"] = index }
            XCTAssertFalse(reader.printed.contains { $0.hasPrefix("unparseable") }, "round \(round): \(reader.printed)")
        }
        reader.closeInput()
        XCTAssertEqual(reader.waitForExit(), 0, "\(reader.printed) \(reader.stderr)")
        let parsed = try XCTUnwrap(reader.printed.last.flatMap { $0.hasPrefix("parsed ") ? Int($0.dropFirst(7)) : nil }, "\(reader.printed)")
        XCTAssertGreaterThan(parsed, 0)
        let object = try root.fileObject(suite)
        let lost = acknowledged.filter { object[$0.key] as? Int != $0.value }.map(\.key).sorted()
        XCTAssertEqual(lost, [], "\(lost.count) of \(acknowledged.count) acknowledged keys lost")
        XCTAssertGreaterThanOrEqual(acknowledged.count, 200)
    }
}
