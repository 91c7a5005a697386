import Configuration
import Foundation
import RizqConfiguration
import RizqPrefs
import RizqTestSupport
import Testing

/// `watch` through a reader: the current value first, then each change, from this process or
/// from `rizq-prefs set` in another one. Every step waits for the stream, never for time.
@Suite struct LiveChangeTests {
    @Test func aValueSetByRizqPrefsInAnotherProcessReachesARunningReader() async throws {
        let folder = try SuiteFolder()
        let store = try folder.store(folder.appID)
        store.set(30, forKey: "http.timeout")
        try store.flush()
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let environment = folder.environment

        let seen = try await withHangGuard {
            try await reader.watchInt(forKey: "http.timeout", default: 10) { updates in
                var seen: [Int] = []
                for await timeout in updates {
                    seen.append(timeout)
                    if seen.count == 1 {
                        // The reader has its first value: now another process changes the file.
                        let set = try runCommand(rizqPrefsBinary, ["set", "http.timeout", "45", "--int"], environment: environment)
                        #expect(set.status == 0, "\(set.stderr)")
                    }
                    if timeout == 45 { break }
                }
                return seen
            }
        }
        #expect(seen.first == 30)
        #expect(seen.last == 45)
    }

    @Test func aRemovalInAnotherProcessBringsBackTheDefault() async throws {
        let folder = try SuiteFolder()
        let store = try folder.store(folder.appID)
        store.set(30, forKey: "http.timeout")
        try store.flush()
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let environment = folder.environment

        let last = try await withHangGuard {
            try await reader.watchInt(forKey: "http.timeout", default: 10) { updates in
                var first = true
                for await timeout in updates {
                    if first {
                        first = false
                        let delete = try runCommand(rizqPrefsBinary, ["delete", "http.timeout"], environment: environment)
                        #expect(delete.status == 0, "\(delete.stderr)")
                    } else if timeout == 10 {
                        return timeout
                    }
                }
                return -1
            }
        }
        #expect(last == 10)
    }

    @Test func snapshotsFollowChangesInAnotherProcess() async throws {
        let folder = try SuiteFolder()
        let store = try folder.store(folder.appID)
        store.set("db-1", forKey: "database.host")
        try store.flush()
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let environment = folder.environment

        let hosts = try await withHangGuard {
            try await reader.watchSnapshot { snapshots in
                var hosts: [String?] = []
                for await snapshot in snapshots {
                    hosts.append(snapshot.string(forKey: "database.host"))
                    if hosts.count == 1 {
                        let set = try runCommand(rizqPrefsBinary, ["set", "database.host", "db-2"], environment: environment)
                        #expect(set.status == 0, "\(set.stderr)")
                    }
                    if hosts.last == "db-2" { break }
                }
                return hosts
            }
        }
        #expect(hosts.first == "db-1")
        #expect(hosts.last == "db-2")
    }

    @Test func aNestedValueChangesWithItsObject() async throws {
        let folder = try SuiteFolder()
        let store = try folder.store(folder.appID)
        store.set(["timeout": 30] as [String: Int], forKey: "http")
        try store.flush()
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store, keyMapping: .nestedPath))
        let environment = folder.environment

        let last = try await withHangGuard {
            try await reader.watchInt(forKey: "http.timeout", default: 10) { updates in
                var first = true
                for await timeout in updates {
                    if first {
                        first = false
                        #expect(timeout == 30)
                        let set = try runCommand(
                            rizqPrefsBinary, ["set", "http", #"{"timeout": 60}"#, "--json"], environment: environment)
                        #expect(set.status == 0, "\(set.stderr)")
                    } else if timeout == 60 {
                        return timeout
                    }
                }
                return -1
            }
        }
        #expect(last == 60)
    }

    @Test func aChangeInThisProcessReachesTheWatcher() async throws {
        let folder = try SuiteFolder()
        let store = try folder.store("local")
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let values = try await withHangGuard {
            try await reader.watchString(forKey: "mode") { updates in
                var values: [String?] = []
                for await mode in updates {
                    values.append(mode)
                    if values.count == 1 { store.set("maintenance", forKey: "mode") }
                    if mode == "maintenance" { break }
                }
                return values
            }
        }
        #expect(values == [nil, "maintenance"])
    }
}
