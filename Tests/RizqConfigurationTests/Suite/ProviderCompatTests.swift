import Configuration
import ConfigurationTesting
import Foundation
import RizqConfiguration
import RizqPrefs
import Testing

/// swift-configuration's own conformance check for providers (ConfigurationTesting's
/// `ProviderCompatTest`: get, fetch, watch, snapshot and watchSnapshot of every value type,
/// present and absent) run against a suite, in both key mappings.
@Suite struct ProviderCompatTests {
    /// The data set the check requires, by its dotted keys.
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

    @Test func dottedKeysPassTheCheck() async throws {
        let folder = try SuiteFolder()
        let store = try folder.store("compat-dotted")
        for (key, value) in Self.compatValues { store.set(value, forKey: key) }
        try store.flush()
        try await ProviderCompatTest(provider: SuiteStoreProvider(store: store)).runTest()
    }

    @Test func nestedPathsPassTheCheck() async throws {
        let folder = try SuiteFolder()
        let store = try folder.store("compat-nested")
        var tree: [String: PrefValue] = [:]
        for (key, value) in Self.compatValues { tree.insert(value, at: key.split(separator: ".").map(String.init)) }
        for (key, value) in tree { store.set(value, forKey: key) }
        try store.flush()
        try await ProviderCompatTest(provider: SuiteStoreProvider(store: store, keyMapping: .nestedPath)).runTest()
    }

    /// The check can fail: a suite missing one of the required values does not pass it.
    @Test func theCheckFailsForAnIncompleteSuite() async throws {
        let folder = try SuiteFolder()
        let store = try folder.store("compat-incomplete")
        for (key, value) in Self.compatValues where key != "other.int" { store.set(value, forKey: key) }
        await withKnownIssue("the compat check reports the missing other.int") {
            try await ProviderCompatTest(provider: SuiteStoreProvider(store: store)).runTest()
        }
    }
}

extension [String: PrefValue] {
    /// Puts `value` at `path`, making the objects on the way.
    mutating func insert(_ value: PrefValue, at path: [String]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            self[first] = value
            return
        }
        var child: [String: PrefValue] = [:]
        if case .dictionary(let existing) = self[first] { child = existing }
        child.insert(value, at: Array(path.dropFirst()))
        self[first] = .dictionary(child)
    }
}
