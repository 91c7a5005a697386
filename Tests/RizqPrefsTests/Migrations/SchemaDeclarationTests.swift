import XCTest
@testable import RizqPrefs

/// A schema's chain is checked when it is declared: one stage per step, from version 0 up to the
/// schema's version, in order, none twice.
final class SchemaDeclarationTests: XCTestCase {
    private func stage(_ from: Int, _ to: Int) -> MigrationStage {
        .lightweight(from: from, to: to, [])
    }

    private func refusal(_ version: Int, _ stages: [MigrationStage], file: StaticString = #filePath, line: UInt = #line) -> MigrationError.ChainProblem? {
        do {
            _ = try SuiteMigrations(version: version, stages: stages)
            XCTFail("a chain that should be refused was accepted", file: file, line: line)
            return nil
        } catch {
            guard case .invalidChain(let problem) = error else {
                XCTFail("not a refused chain: \(error)", file: file, line: line)
                return nil
            }
            return problem
        }
    }

    func testAWholeChainIsAccepted() throws {
        let schema = try SuiteMigrations(version: 3, stages: [stage(0, 1), stage(1, 2), stage(2, 3)])
        XCTAssertEqual(schema.version, 3)
        XCTAssertEqual(schema.stages.map(\.fromVersion), [0, 1, 2])
        XCTAssertEqual(schema.stages(from: 1).map(\.fromVersion), [1, 2])
        XCTAssertEqual(schema.stages(from: 3).count, 0)
        XCTAssertEqual(schema.stages(from: 7).count, 0)
        XCTAssertEqual(try SuiteMigrations(version: 0, stages: []).version, 0)
    }

    func testAChainWithAGapIsRefused() {
        XCTAssertEqual(refusal(3, [stage(0, 1), stage(2, 3)]), .gap(fromVersion: 1))
        XCTAssertEqual(refusal(2, [stage(1, 2)]), .gap(fromVersion: 0))
        XCTAssertEqual(refusal(3, [stage(0, 1), stage(1, 2)]), .gap(fromVersion: 2))
        XCTAssertEqual(refusal(1, []), .gap(fromVersion: 0))
        let message = MigrationError.ChainProblem.gap(fromVersion: 1).description
        XCTAssertTrue(message.contains("no stage goes from version 1 to 2"), message)
        XCTAssertTrue(message.contains(".lightweight(from: 1, to: 2, [])"), message)
    }

    func testADuplicateIsRefused() {
        XCTAssertEqual(refusal(2, [stage(0, 1), stage(0, 1), stage(1, 2)]), .duplicate(fromVersion: 0))
        XCTAssertEqual(refusal(2, [stage(0, 1), stage(1, 2), .custom(from: 1, to: 2) { _ in }]), .duplicate(fromVersion: 1))
    }

    func testSkippingAVersionOrGoingNowhereIsRefused() {
        XCTAssertEqual(refusal(3, [stage(0, 1), stage(1, 3)]), .notOneStep(fromVersion: 1, toVersion: 3))
        XCTAssertEqual(refusal(1, [stage(0, 0)]), .notOneStep(fromVersion: 0, toVersion: 0))
        XCTAssertEqual(refusal(1, [stage(1, 0)]), .notOneStep(fromVersion: 1, toVersion: 0))
        XCTAssertEqual(refusal(1, [stage(-1, 0), stage(0, 1)]), .notOneStep(fromVersion: -1, toVersion: 0))
    }

    func testOrderAndRangeAreChecked() {
        XCTAssertEqual(refusal(3, [stage(0, 1), stage(2, 3), stage(1, 2)]), .outOfOrder(fromVersion: 1))
        XCTAssertEqual(refusal(1, [stage(0, 1), stage(1, 2)]), .beyondVersion(toVersion: 2, version: 1))
        XCTAssertEqual(refusal(-1, []), .negativeVersion(-1))
    }

    func testLightweightChangesThatCannotWorkAreRefused() {
        let cases: [(MigrationChange, String)] = [
            (.rename("a", to: "a"), "to itself"),
            (.rename("$schemaVersion", to: "b"), "schema version"),
            (.rename("a", to: "$schemaVersion"), "schema version"),
            (.remove("$schemaVersion"), "schema version"),
            (.move("a", toSuite: "../escape"), "not a valid suite name: it contains '/'"),
            (.move("a", toSuite: "dot..dot"), "'..'"),
            (.move("a", toSuite: ""), "empty"),
        ]
        for (change, expected) in cases {
            guard case .invalidChange(let from, let reason) = refusal(1, [.lightweight(from: 0, to: 1, [change])]) else {
                XCTFail("not refused as an invalid change: \(expected)")
                continue
            }
            XCTAssertEqual(from, 0)
            XCTAssertTrue(reason.contains(expected), reason)
        }
    }
}
