import Configuration
import Foundation
import RizqConfiguration
import RizqPrefs
import RizqTestSupport
import Testing

/// `watch` through a reader: the current value first, then each change, from this process or
/// from `rizq-prefs` in another one. Every step waits for the stream, never for time.
@Suite struct LiveChangeTests {
    @Test func aValueSetByRizqPrefsInAnotherProcessReachesARunningReader() async throws {
        let (folder, store) = try suite(with: ["http.timeout": 30])
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let environment = folder.environment
        let seen = try await withHangGuard {
            try await reader.watchInt(forKey: "http.timeout", default: 10) { updates in
                try await collect(updates, afterFirst: { try rizqPrefs(["set", "http.timeout", "45", "--int"], environment) }) { $0 == 45 }
            }
        }
        #expect(seen.first == 30)
        #expect(seen.last == 45)
    }

    @Test func aRemovalInAnotherProcessBringsBackTheDefault() async throws {
        let (folder, store) = try suite(with: ["http.timeout": 30])
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let environment = folder.environment
        let seen = try await withHangGuard {
            try await reader.watchInt(forKey: "http.timeout", default: 10) { updates in
                try await collect(updates, afterFirst: { try rizqPrefs(["delete", "http.timeout"], environment) }) { $0 == 10 }
            }
        }
        #expect(seen.first == 30)
        #expect(seen.last == 10)
    }

    @Test func snapshotsFollowChangesInAnotherProcess() async throws {
        let (folder, store) = try suite(with: ["database.host": "db-1"])
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let environment = folder.environment
        let hosts = try await withHangGuard {
            try await reader.watchSnapshot { snapshots in
                try await collect(snapshots, afterFirst: { try rizqPrefs(["set", "database.host", "db-2"], environment) }) {
                    $0.string(forKey: "database.host") == "db-2"
                }.map { $0.string(forKey: "database.host") }
            }
        }
        #expect(hosts.first == "db-1")
        #expect(hosts.last == "db-2")
    }

    @Test func aNestedValueChangesWithItsObject() async throws {
        let (folder, store) = try suite(with: ["http": ["timeout": 30]])
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store, keyMapping: .nestedPath))
        let environment = folder.environment
        let seen = try await withHangGuard {
            try await reader.watchInt(forKey: "http.timeout", default: 10) { updates in
                try await collect(updates, afterFirst: { try rizqPrefs(["set", "http", #"{"timeout": 60}"#, "--json"], environment) }) { $0 == 60 }
            }
        }
        #expect(seen.first == 30)
        #expect(seen.last == 60)
    }

    @Test func aChangeInThisProcessReachesTheWatcher() async throws {
        let (_, store) = try suite(with: [:])
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let values = try await withHangGuard {
            try await reader.watchString(forKey: "mode") { updates in
                try await collect(updates, afterFirst: { store.set("maintenance", forKey: "mode") }) { $0 == "maintenance" }
            }
        }
        #expect(values == [nil, "maintenance"])
    }

    /// A new suite of the test's app holding `values`, written to its file.
    private func suite(with values: [String: PrefValue]) throws -> (SuiteFolder, SuiteStore) {
        let folder = try SuiteFolder()
        let store = try folder.store(folder.appID)
        for (key, value) in values { store.set(value, forKey: key) }
        try store.flush()
        return (folder, store)
    }
}

/// Every element of `updates` until one satisfies `isDone` (included); `change` runs once, as soon
/// as the first element — the value the watch started with — is in.
func collect<Updates: AsyncSequence>(
    _ updates: Updates, afterFirst change: () throws -> Void, until isDone: (Updates.Element) -> Bool
) async throws -> [Updates.Element] where Updates.Failure == Never {
    var seen: [Updates.Element] = []
    for await element in updates {
        seen.append(element)
        if seen.count == 1 { try change() }
        if isDone(element) { break }
    }
    return seen
}

/// Runs the built `rizq-prefs` as another process and expects it to succeed.
func rizqPrefs(_ arguments: [String], _ environment: [String: String], input: String? = nil) throws {
    let result = try runCommand(rizqPrefsBinary, arguments, input: input, environment: environment)
    #expect(result.status == 0, "rizq-prefs \(arguments): \(result.stderr)")
}
