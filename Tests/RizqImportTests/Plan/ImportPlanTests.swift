import Foundation
import XCTest
@testable import RizqImport

/// The plan: its JSON file and Swift value, rule matching, and the errors a user sees.
final class ImportPlanTests: XCTestCase {
    private let example = """
        {
          "id": "rizq-web-2026",
          "defaultSuite": "com.rizq.app",
          "secretService": "com.rizq.app",
          "unmapped": "skip",
          "rules": [
            {"key": "rizq_user_habits", "to": {"type": "json"}},
            {"key": "rizq_daily_activity", "to": {"suite": "com.rizq.app.activity", "key": "days", "type": "json"}},
            {"pattern": "firebase:authUser:*", "to": {"secret": {"account": "firebase_session"}}},
            {"pattern": "debug_*", "to": "skip"},
            {"key": "debug_keep", "to": {"type": "bool"}},
            {"pattern": "legacy_*", "to": {"skip": "replaced in version 2"}},
            {"key": "theme_mode"}
          ]
        }
        """

    private func plan(_ text: String) throws(ImportError) -> ImportPlan {
        try ImportPlan(json: Data(text.utf8), file: "plan.json")
    }

    private func planError(_ text: String) -> ImportError.PlanProblem? {
        do {
            _ = try plan(text)
            return nil
        } catch {
            guard case .plan(let problem) = error else { XCTFail("not a plan problem: \(error)"); return nil }
            return problem
        }
    }

    func testTheJSONFileAndTheSwiftValueAreTheSame() throws {
        let fromFile = try plan(example)
        let inSwift = ImportPlan(id: "rizq-web-2026", defaultSuite: "com.rizq.app", secretService: "com.rizq.app", unmapped: .skip, rules: [
            .key("rizq_user_habits", to: .suite(type: .json)),
            .key("rizq_daily_activity", to: .suite("com.rizq.app.activity", key: "days", type: .json)),
            .pattern("firebase:authUser:*", to: .secret(account: "firebase_session")),
            .pattern("debug_*", to: .skip()),
            .key("debug_keep", to: .suite(type: .bool)),
            .pattern("legacy_*", to: .skip(reason: "replaced in version 2")),
            .key("theme_mode"),
        ])
        XCTAssertEqual(fromFile, inSwift)
        // And it survives a round trip through its own JSON.
        XCTAssertEqual(try ImportPlan(json: try inSwift.jsonData()), inSwift)
    }

    func testRuleMatchingExactKeyBeforePatternsFirstPatternWins() throws {
        let plan = try plan(example)
        XCTAssertEqual(plan.rule(forKey: "debug_keep")?.index, 4, "the exact key wins over an earlier pattern")
        XCTAssertEqual(plan.rule(forKey: "debug_other")?.index, 3)
        XCTAssertEqual(plan.rule(forKey: "firebase:authUser:k:[DEFAULT]")?.index, 2)
        XCTAssertNil(plan.rule(forKey: "unknown"))
        XCTAssertEqual(try self.plan(#"{"id":"x"}"#).unmapped, .infer, "infer is the default")
    }

    func testSyntaxErrorsHaveAPosition() {
        guard case .notJSON(let file, let position, _)? = planError("{\n  \"id\": \"x\",\n  \"rules\": [\n") else { return XCTFail("expected notJSON") }
        XCTAssertEqual(file, "plan.json")
        XCTAssertEqual(position.line, 4)
    }

    func testFieldErrorsNameTheField() {
        func path(_ text: String) -> (String, String)? {
            guard case .invalid(_, let path, let reason)? = planError(text) else { return nil }
            return (path, reason)
        }
        XCTAssertEqual(path(#"{"rules":[]}"#)?.0, "id")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","to":{"type":"integer"}}]}"#)?.0, "rules[0].to.type")
        XCTAssertTrue(path(#"{"id":"x","rules":[{"key":"a","to":{"type":"integer"}}]}"#)?.1.contains("bool, int, double, string, date, json") == true)
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","to":{"tpye":"int"}}]}"#)?.0, "rules[0].to.tpye")
        XCTAssertTrue(path(#"{"id":"x","rules":[{"key":"a","to":{"tpye":"int"}}]}"#)?.1.contains("unknown field 'tpye'") == true)
        XCTAssertEqual(path(#"{"id":"x","rules":[{"to":"skip"}]}"#)?.0, "rules[0]")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","pattern":"b*"}]}"#)?.0, "rules[0]")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","to":"elsewhere"}]}"#)?.0, "rules[0].to")
        XCTAssertEqual(path(#"{"id":"x","unmapped":"drop"}"#)?.0, "unmapped")
        XCTAssertEqual(path(#"{"id":"","rules":[]}"#)?.0, "id")
        XCTAssertEqual(path(#"{"id":"x","defaultSuite":"../etc"}"#)?.0, "defaultSuite")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","to":{"suite":"a/b"}}]}"#)?.0, "rules[0].to.suite")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a"},{"key":"a","to":"skip"}]}"#)?.0, "rules[1]")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","to":{"suite":"rizq-imports"}}]}"#)?.1, "'rizq-imports' cannot name a suite: it is where imports are recorded; choose another suite")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","to":{"suite":"rizq-migrations"}}]}"#)?.1, "'rizq-migrations' cannot name a suite: it is where imports are recorded; choose another suite")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","to":{"secret":{"account":""}}}]}"#)?.0, "rules[0].to.secret.account")
        XCTAssertEqual(path(#"{"id":"x","rules":[{"key":"a","to":{"secret":{},"type":"int"}}]}"#)?.0, "rules[0].to")
        XCTAssertEqual(path(#"{"id":"x","extra":1}"#)?.0, "extra")
        let message = "\(planError(#"{"id":"x","rules":[{"key":"a","to":{"type":"integer"}}]}"#).map { "\($0)" } ?? "")"
        XCTAssertTrue(message.contains("plan.json at rules[0].to.type is invalid"), message)
    }

    func testMissingPlanFile() {
        XCTAssertThrowsError(try ImportPlan(contentsOfFile: "/nonexistent/plan.json")) { error in
            guard case ImportError.plan(.unreadable(_, let reason)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "no such file")
        }
    }
}
