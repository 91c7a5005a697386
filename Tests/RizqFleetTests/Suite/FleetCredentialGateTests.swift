import Foundation
import RizqFleet
import RizqPrefs
import RizqTestSupport
import Testing

/// Issue 37, item 19: what the fleet's credential gate let through before it asked the one
/// credential rule (`CredentialRule`, the same for import, schema moves and device sync) — each
/// refused now before anything is sent, and nothing written.
@Suite struct FleetCredentialGateTests {
    let server: PostgresServer

    init() throws {
        server = try PostgresServer.shared()
    }

    /// Each case: a key, a value, and what it is.
    static let cases: [(String, PrefValue, String)] = {
        let token = FakeToken.github()
        return [
            ("blob", .data(Data([0xFF, 0xFE, 0x00]) + Data(token.utf8) + Data([0x80, 0xC3])), "data that is not UTF-8, holding a token"),
            ("pin", .int(4711), "a number under pin"),
            ("card.pin", .int(1234), "a number under card.pin"),
            ("db.password", .int(31_415_926), "a number under db.password"),
            ("password.value", "Tr0ub4dor-and-3", "a string under password.value"),
            ("db.password.primary", "c0rrect-h0rse-battery", "a string under db.password.primary"),
            ("secret.db", "pg-s3cret-value-42", "a string under secret.db"),
            ("service", ["auth": ["pass": "hunter2-hunter2"]], "an object holding auth.pass"),
            ("deploy.blob", .string(Data(token.utf8).base64EncodedString()), "a token, base64-encoded"),
        ]
    }()

    @Test(arguments: cases)
    func theOneCredentialRuleRefusesIt(key: String, value: PrefValue, what: String) async throws {
        let suite = uniqueSuite("gate")
        let engine = try server.engine()
        let root = temporaryRoot("gate")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fleet = try openFleet(suite, engine: engine, root: root)
        do {
            try await fleet.set(value, forKey: key)
            Issue.record("\(what) was written to the fleet suite")
        } catch {
            guard case .secretRefused(let refusedKey, _) = error else {
                Issue.record("\(what): \(error)")
                return
            }
            #expect(refusedKey == key)
        }
        _ = try await engine.prepare(suite: suite)
        #expect(try await engine.changes(suite: suite, after: 0, limit: 10).entries.isEmpty, "\(what): nothing was written")
        #expect(fleet.value(forKey: key) == nil)
    }
}
