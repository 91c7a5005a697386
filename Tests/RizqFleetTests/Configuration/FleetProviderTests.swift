import Configuration
import ConfigurationTesting
import Foundation
import RizqFleet
import RizqPrefs
import Testing

/// swift-configuration's own conformance check (`ProviderCompatTest`: get, fetch, watch,
/// snapshot and watchSnapshot of every value type, present and absent) against a fleet suite
/// whose values were written through the real engine; and a live change from another host
/// reaching a `ConfigReader`'s watch.
@Suite struct FleetProviderTests {
    /// The data set the check requires, by its dotted keys (as RizqConfigurationTests' own).
    static let compatValues: [String: PrefValue] = [
        "string": "Hello", "other.string": "Other Hello",
        "int": 42, "other.int": 24,
        "double": 3.14, "other.double": 2.72,
        "bool": true, "other.bool": false,
        "bytes": .data(Data("magic".utf8)), "other.bytes": .data(Data("magic2".utf8)),
        "stringy.array": ["Hello", "World"], "other.stringy.array": ["Hello", "Swift"],
        "inty.array": [42, 24], "other.inty.array": [16, 32],
        "doubly.array": [3.14, 2.72], "other.doubly.array": [0.9, 1.8],
        "booly.array": [true, false], "other.booly.array": [false, true, true],
        "byteChunky.array": [.data(Data("magic".utf8)), .data(Data("magic2".utf8))],
        "other.byteChunky.array": [.data(Data("magic".utf8)), .data(Data("magic2".utf8)), .data(Data("magic".utf8))],
    ]

    let server: PostgresServer
    let root = temporaryRoot("provider")

    init() throws {
        server = try PostgresServer.shared()
    }

    /// Writes the data set from one host, and returns a second host's suite that caught up.
    func filledFleet(skipping skipped: String? = nil) async throws -> FleetSuite {
        let suite = uniqueSuite("compat")
        let writer = try openFleet(suite, engine: try server.engine(), root: root + "/writer", origin: "writer")
        for (key, value) in Self.compatValues where key != skipped { try await writer.set(value, forKey: key) }
        let reader = try openFleet(suite, engine: try server.engine(), root: root + "/reader", origin: "reader")
        try await reader.synchronize()
        return reader
    }

    @Test func aFleetSuitePassesTheCompatCheck() async throws {
        let fleet = try await filledFleet()
        try await ProviderCompatTest(provider: FleetSuiteProvider(fleet)).runTest()
    }

    /// The check can fail: a suite missing one of the required values does not pass it.
    @Test func theCheckFailsForAnIncompleteSuite() async throws {
        let fleet = try await filledFleet(skipping: "other.int")
        await withKnownIssue("the compat check reports the missing other.int") {
            try await ProviderCompatTest(provider: FleetSuiteProvider(fleet)).runTest()
        }
    }

    @Test func aReaderWatchSeesAChangeMadeOnAnotherHost() async throws {
        let suite = uniqueSuite("watch")
        let fleet = try openFleet(suite, engine: try server.engine(), root: root + "/watching", origin: "watching")
        let provider = FleetSuiteProvider(fleet)
        let running = Task { try await provider.run() }
        defer { running.cancel() }
        for await status in fleet.statusUpdates() where status.isLive { break }
        let config = ConfigReader(provider: provider)
        let other = try openFleet(suite, engine: try server.engine(), root: root + "/changing", origin: "changing")
        let seen = try await config.watchInt(forKey: "http.timeout", default: 30) { updates in
            var values: [Int] = []
            for await timeout in updates {
                values.append(timeout)
                if values.count == 1 { try await other.set(.int(45), forKey: "http.timeout") }
                if timeout == 45 { break }
            }
            return values
        }
        #expect(seen.first == 30, "the current value first (the default: nothing stored)")
        #expect(seen.last == 45, "then the other host's change, live")
        #expect(provider.providerName == "FleetSuiteProvider[\(suite)]")
        // fetch asks the engine; with the engine away it answers from the cache.
        try await other.set(.int(60), forKey: "http.timeout")
        #expect(try await config.fetchInt(forKey: "http.timeout") == 60)
    }
}
