import Configuration
import Foundation
import RizqConfiguration
import RizqPrefs
import Testing

/// `http.timeout` against the two shapes of suite file, in both key mappings.
@Suite struct KeyMappingTests {
    static let flatFile = #"{"http.timeout": 45}"#
    static let nestedFile = #"{"http": {"timeout": 45, "retries": null}}"#

    @Test(arguments: [
        (flatFile, SuiteKeyMapping.dottedKey, 45 as Int?),
        (nestedFile, .dottedKey, nil),
        (flatFile, .nestedPath, nil),
        (nestedFile, .nestedPath, 45),
    ])
    func httpTimeout(file: String, mapping: SuiteKeyMapping, expected: Int?) throws {
        let folder = try SuiteFolder()
        try folder.writeFile(suite: "server", json: file)
        let reader = ConfigReader(provider: SuiteStoreProvider(store: try folder.store("server"), keyMapping: mapping))
        #expect(reader.int(forKey: "http.timeout") == expected)
        #expect(reader.int(forKey: "http.timeout", default: 30) == expected ?? 30)
        #expect(reader.snapshot().int(forKey: "http.timeout") == expected)
    }

    @Test func aNestedNullIsMissing() throws {
        let folder = try SuiteFolder()
        try folder.writeFile(suite: "server", json: Self.nestedFile)
        let provider = SuiteStoreProvider(store: try folder.store("server"), keyMapping: .nestedPath)
        let result = try provider.value(forKey: AbsoluteConfigKey(dotted: "http.retries"), type: .int)
        #expect(result.value == nil)
        #expect(result.encodedKey == "http/retries")
    }

    @Test func encodedKeysSayWhereTheValueWasLookedFor() throws {
        let folder = try SuiteFolder()
        let store = try folder.store("server")
        let key = AbsoluteConfigKey(dotted: "http.timeout")
        #expect(try SuiteStoreProvider(store: store).value(forKey: key, type: .int).encodedKey == "http.timeout")
        #expect(try SuiteStoreProvider(store: store, keyMapping: .nestedPath).value(forKey: key, type: .int).encodedKey == "http/timeout")
    }

    @Test func aScopedReaderReadsTheSameKeys() throws {
        let folder = try SuiteFolder()
        let store = try folder.store("server")
        store.set(45, forKey: "http.timeout")
        let reader = ConfigReader(provider: SuiteStoreProvider(store: store)).scoped(to: "http")
        #expect(reader.int(forKey: "timeout") == 45)
    }
}
