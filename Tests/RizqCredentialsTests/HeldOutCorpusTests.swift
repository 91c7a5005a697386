import Foundation
import RizqCore
@testable import RizqCredentials
@testable import RizqFleet
@testable import RizqImport
import RizqPrefs
@testable import RizqSync
import RizqTestSupport
import XCTest

/// One credential rule: a corpus of keys and typed values written down before the rule was
/// (`Fixtures/held-out.json`: each entry says whether it is a credential and why) gets the same
/// answers through all four ways a value can leave a suite or the machine — the importer (a
/// credential goes to the secret store), a schema migration's `moveCredentialsToSecretStore`
/// (a real suite migrated at open), a fleet suite's gate and device sync's gate.
final class HeldOutCorpusTests: XCTestCase {
    struct Sample: Decodable {
        var key: String
        var type: String
        var value: JSONValue
        var credential: Bool
        var why: String?
    }

    /// What the corpus file holds for a value, before it is typed.
    enum JSONValue: Decodable {
        case string(String), number(Double), integer(Int), bool(Bool), array([JSONValue]), object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) { self = .bool(flag); return }
            if let integer = try? container.decode(Int.self) { self = .integer(integer); return }
            if let number = try? container.decode(Double.self) { self = .number(number); return }
            if let text = try? container.decode(String.self) { self = .string(text); return }
            if let array = try? container.decode([JSONValue].self) { self = .array(array); return }
            self = .object(try container.decode([String: JSONValue].self))
        }

        var prefValue: PrefValue {
            switch self {
            case .string(let text): return .string(text)
            case .number(let number): return .double(number)
            case .integer(let integer): return .int(integer)
            case .bool(let flag): return .bool(flag)
            case .array(let values): return .array(values.map(\.prefValue))
            case .object(let members): return .dictionary(members.mapValues(\.prefValue))
            }
        }
    }

    private func samples() throws -> [(sample: Sample, value: PrefValue)] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/held-out.json").path
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path), path)
        return try JSONDecoder().decode([Sample].self, from: data).map { sample in
            let value: PrefValue
            switch (sample.type, sample.value) {
            case ("data-base64", .string(let text)): value = .data(try XCTUnwrap(Data(base64Encoded: text), sample.key))
            case ("date", .string(let text)): value = .date(try XCTUnwrap(ISO8601DateFormatter().date(from: text), sample.key))
            case ("double", .integer(let integer)): value = .double(Double(integer))
            default: value = sample.value.prefValue
            }
            return (sample, value)
        }
    }

    func testTheRuleItselfAnswersAsTheCorpusSays() throws {
        for (sample, value) in try samples() {
            let verdict = CredentialRule.judge(key: sample.key, value: value)
            XCTAssertEqual(verdict != nil, sample.credential, "\(sample.key) (\(sample.type)): \(verdict?.reason ?? "not a credential"); \(sample.why ?? "")")
        }
    }

    func testImportSchemaFleetAndSyncGiveTheSameAnswers() throws {
        let corpus = try samples()
        // Each sample in a suite of its own: one key may appear with two types.
        for (index, (sample, value)) in corpus.enumerated() {
            // 1. The importer: a credential goes to the secret store.
            let decider = ImportDecider(plan: nil, defaultSuite: "held-out", defaultService: "held-out")
            let decision = try decider.decide(ImportDump.Entry(key: sample.key, typedValue: value))
            var imported = false
            if case .secret = decision.outcome { imported = true }

            // 2. A schema migration at open: the value moves to the secret store, out of the file.
            let root = NSTemporaryDirectory() + "held-out-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: root) }
            let suite = "held-out-\(index)"
            // Written the way another process would leave it: a file with the value, unmigrated.
            let document = try XCTUnwrap(String(data: try JSONSerialization.data(withJSONObject: [sample.key: "placeholder"]), encoding: .utf8))
            try FileManager.default.createDirectory(atPath: root + "/apps/tests", withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: root + "/apps/tests/\(suite).json", contents: Data(document.utf8)))
            let writer = try SuiteStore(suite: suite, appID: "tests", root: root)
            try writer.put(value, forKey: sample.key)
            try writer.flush()
            let keyring = InMemorySecretStore(service: "held-out")
            let schema = try SuiteMigrations(version: 1, stages: [.lightweight(from: 0, to: 1, [.moveCredentialsToSecretStore(keyring)])])
            let reopened = try SuiteStore(suite: suite, appID: "tests", root: root, migrations: schema)
            let moved = try keyring.accounts().contains(sample.key)
            XCTAssertEqual(moved, reopened.object(forKey: sample.key) == nil, "\(sample.key): moved out of the suite exactly when moved into the store")

            // 3. A fleet suite's gate, which every set and import of a fleet suite passes.
            var fleetRefused = false
            do { try FleetSecretGate.check(key: sample.key, value: value) } catch { fleetRefused = true }

            // 4. Device sync's gate, for what goes out and what comes in from a peer.
            let syncRefused = SecretGate.refusal(key: sample.key, value: value) != nil

            let answers = [imported, moved, fleetRefused, syncRefused]
            XCTAssertEqual(answers, Array(repeating: sample.credential, count: 4), "\(sample.key) (\(sample.type)): import, schema, fleet, sync; \(sample.why ?? "")")
        }
    }
}
