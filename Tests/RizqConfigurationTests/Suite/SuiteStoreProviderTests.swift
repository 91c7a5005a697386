import Configuration
import Foundation
import RizqConfiguration
import RizqPrefs
import Testing

/// Missing values, wrong types, conversions and snapshots: each scenario run against a suite and,
/// side by side, against swift-configuration's own `InMemoryProvider` holding the same values,
/// so that a reader behaves the same over both.
@Suite struct SuiteStoreProviderTests {
    let folder: SuiteFolder
    let store: SuiteStore

    init() throws {
        folder = try SuiteFolder()
        store = try folder.store("server")
        store.set("db.internal", forKey: "database.host")
        store.set("45", forKey: "http.timeout")          // a string, as `rizq-prefs set` without --int stores it
        store.set(8080, forKey: "http.port")
        store.set(["a", "b"], forKey: "hosts")
        try store.flush()
    }

    /// The same values in swift-configuration's in-memory provider.
    var inMemory: InMemoryProvider {
        InMemoryProvider(values: [
            "database.host": "db.internal", "http.timeout": "45", "http.port": 8080,
            "hosts": ConfigValue(.stringArray(["a", "b"]), isSecret: false),
        ])
    }

    var readers: [(String, ConfigReader)] {
        [("suite", ConfigReader(provider: SuiteStoreProvider(store: store))), ("in-memory", ConfigReader(provider: inMemory))]
    }

    @Test func presentValuesReadTheSame() throws {
        for (name, reader) in readers {
            #expect(reader.string(forKey: "database.host") == "db.internal", "\(name)")
            #expect(reader.int(forKey: "http.port") == 8080, "\(name)")
            #expect(reader.stringArray(forKey: "hosts") == ["a", "b"], "\(name)")
            #expect(try reader.requiredInt(forKey: "http.port") == 8080, "\(name)")
        }
    }

    @Test func missingValuesAreNilOrTheDefaultOrAnError() throws {
        for (name, reader) in readers {
            #expect(reader.string(forKey: "absent") == nil, "\(name)")
            #expect(reader.int(forKey: "absent", default: 7) == 7, "\(name)")
            #expect(throws: (any Error).self, "\(name)") { try reader.requiredString(forKey: "absent") }
        }
    }

    @Test func aWrongTypeIsTheDefaultOrAnErrorAndStopsTheLookup() throws {
        let fallback = InMemoryProvider(values: ["http.timeout": 99])
        for (name, reader) in [
            ("suite", ConfigReader(providers: [SuiteStoreProvider(store: store), fallback])),
            ("in-memory", ConfigReader(providers: [inMemory, fallback])),
        ] {
            #expect(reader.int(forKey: "http.timeout") == nil, "\(name)")
            #expect(reader.int(forKey: "http.timeout", default: 30) == 30, "\(name): the next provider is not asked")
            #expect(throws: (any Error).self, "\(name)") { try reader.requiredInt(forKey: "http.timeout") }
            #expect(reader.string(forKey: "http.timeout") == "45", "\(name)")
        }
        #expect(store.value(forKey: "http.timeout", as: String.self) == "45", "nothing stored is changed")
    }

    @Test func aWrongTypeSaysWhatToDoWithoutTheValue() throws {
        let provider = SuiteStoreProvider(store: store)
        let error = try #require(throws: ConfigTypeMismatch.self) {
            try provider.value(forKey: AbsoluteConfigKey(dotted: "http.timeout"), type: .int)
        }
        #expect(error.found == "string")
        #expect(error.requested == .int)
        #expect(error.description.contains("rizq-prefs set http.timeout VALUE --int"))
        #expect(!error.description.contains("45"))
    }

    @Test func numbersConvertAsTheStoresTypedReadsDo() throws {
        store.set(2.0, forKey: "ratio.whole")
        store.set(2.5, forKey: "ratio.half")
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        #expect(reader.double(forKey: "http.port") == 8080.0)
        #expect(reader.int(forKey: "ratio.whole") == 2)
        #expect(reader.int(forKey: "ratio.half") == nil)
        #expect(reader.bool(forKey: "http.port") == nil)
    }

    @Test func datesReadAsISO8601Text() throws {
        store.set(Date(timeIntervalSince1970: 1_795_000_000.25), forKey: "last.sync")
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let text = try #require(reader.string(forKey: "last.sync"))
        #expect(text == "2026-11-18T11:06:40.250Z")
    }

    @Test func registeredDefaultsReadLikeStoredValues() throws {
        store.register(defaults: ["feature.enabled": true])
        let provider = SuiteStoreProvider(store: store)
        #expect(ConfigReader(provider: provider).bool(forKey: "feature.enabled") == true)
        #expect(ConfigReader(provider: provider).snapshot().bool(forKey: "feature.enabled") == true)
    }

    @Test func aSnapshotDoesNotChange() throws {
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store))
        let before = reader.snapshot()
        store.set(9090, forKey: "http.port")
        store.removeObject(forKey: "database.host")
        #expect(before.int(forKey: "http.port") == 8080)
        #expect(before.string(forKey: "database.host") == "db.internal")
        #expect(reader.snapshot().int(forKey: "http.port") == 9090)
        #expect(reader.snapshot().string(forKey: "database.host") == nil)
    }

    @Test func theProviderIsNamedAfterItsSuite() throws {
        #expect(SuiteStoreProvider(store: store).providerName == "SuiteStoreProvider[server]")
    }

    @Test func anInvalidSuiteNameIsATypedError() throws {
        #expect(throws: SuiteStoreError.self) { try SuiteStoreProvider(suite: "../escape", appID: folder.appID) }
    }
}
