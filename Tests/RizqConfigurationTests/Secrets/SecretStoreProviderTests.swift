import Configuration
import Foundation
import InMemoryLogging
import Logging
import RizqConfiguration
import RizqSecrets
import RizqTestSupport
import Testing

/// The provider over a `SecretStore`: values marked secret and redacted in swift-configuration's
/// access log, typed reads of secret text, and missing items. An app's tests would use
/// `InMemorySecretStore` as these do; the last tests use the real Secret Service that
/// scripts/test starts.
@Suite struct SecretStoreProviderTests {
    static let password = "pa55-\(UUID().uuidString)"

    var store: InMemorySecretStore {
        let store = InMemorySecretStore(service: "com.rizq.server")
        try? store.setSecret(Self.password, forAccount: "database.password")
        try? store.setSecret("8080", forAccount: "admin.port")
        try? store.setSecret(Data([0, 1, 2, 255]), forAccount: "device.key")
        return store
    }

    @Test func valuesAreMarkedSecret() throws {
        let provider = SecretStoreProvider(store: store)
        let result = try provider.value(forKey: AbsoluteConfigKey(dotted: "database.password"), type: .string)
        #expect(result.value == ConfigValue(.string(Self.password), isSecret: true))
        #expect(result.encodedKey == "database.password")
        #expect(result.value?.description == "[string: <REDACTED>]")
        #expect(ConfigReader(provider: provider).string(forKey: "database.password") == Self.password)
    }

    @Test func theAccessLogRedactsTheSecret() throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "config-access", factory: { _ in logs })
        logger.logLevel = .debug
        let reader = ConfigReader(
            providers: [InMemoryProvider(values: ["http.port": 8080]), SecretStoreProvider(store: store)],
            accessReporter: AccessLogger(logger: logger))
        #expect(reader.string(forKey: "database.password") == Self.password)
        #expect(reader.int(forKey: "http.port") == 8080)

        let lines = logs.entries.map { "\($0.message) \($0.metadata)" }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { !$0.contains(Self.password) }, "the secret never appears in the access log")
        #expect(lines[0].contains("<REDACTED>"))
        #expect(lines[0].contains("SecretStoreProvider[com.rizq.server]"))
        #expect(lines[1].contains("8080"), "other values are logged as they are")
    }

    @Test func secretTextReadsAsNumbersAndFlags() throws {
        let reader = ConfigReader(provider: SecretStoreProvider(store: store))
        #expect(reader.int(forKey: "admin.port") == 8080)
        #expect(reader.double(forKey: "admin.port") == 8080)
        #expect(reader.bytes(forKey: "device.key") == [0, 1, 2, 255])
        #expect(reader.int(forKey: "database.password", default: 5) == 5)
        #expect(reader.string(forKey: "device.key") == nil, "bytes that are not UTF-8 are no string")
    }

    @Test func aWrongTypeNeverShowsTheSecret() throws {
        let provider = SecretStoreProvider(store: store)
        let error = try #require(throws: ConfigTypeMismatch.self) {
            try provider.value(forKey: AbsoluteConfigKey(dotted: "database.password"), type: .int)
        }
        #expect(error.found == "text")
        #expect(!error.description.contains(Self.password))
        #expect(throws: ConfigTypeMismatch.self) {
            try provider.value(forKey: AbsoluteConfigKey(dotted: "database.password"), type: .stringArray)
        }
    }

    @Test func aMissingSecretFallsThroughToTheDefault() throws {
        let reader = ConfigReader(provider: SecretStoreProvider(store: store))
        #expect(reader.string(forKey: "absent") == nil)
        #expect(reader.string(forKey: "absent", default: "none") == "none")
    }

    @Test func fetchReadsTheStoreAgain() async throws {
        let store = self.store
        let reader = ConfigReader(provider: SecretStoreProvider(store: store))
        #expect(try await reader.fetchString(forKey: "database.password") == Self.password)
        try await store.setSecret("rotated", forAccount: "database.password")
        #expect(try await reader.fetchString(forKey: "database.password") == "rotated")
    }

    @Test func aSnapshotKeepsWhatItFirstRead() throws {
        let store = self.store
        let reader = ConfigReader(provider: SecretStoreProvider(store: store))
        let snapshot = reader.snapshot()
        #expect(snapshot.string(forKey: "database.password") == Self.password)
        try store.setSecret("rotated", forAccount: "database.password")
        #expect(snapshot.string(forKey: "database.password") == Self.password)
        #expect(reader.snapshot().string(forKey: "database.password") == "rotated")
    }

    @Test func watchGivesTheCurrentValue() async throws {
        let reader = ConfigReader(provider: SecretStoreProvider(store: store))
        let first = try await withHangGuard {
            try await reader.watchString(forKey: "database.password") { updates in
                for await value in updates { return value }
                return nil
            }
        }
        #expect(first == Self.password)
    }

    // MARK: The real Secret Service

    @Test func theSecretServiceThroughAReader() async throws {
        let secrets = try Self.realSecretService()
        defer { _ = try? secrets.deleteSecret(forAccount: "database.password") }
        try await secrets.setSecret(Self.password, forAccount: "database.password")

        let reader = ConfigReader(provider: SecretStoreProvider(store: secrets))
        #expect(reader.string(forKey: "database.password") == Self.password)
        #expect(try await reader.fetchString(forKey: "database.password") == Self.password)
        #expect(reader.string(forKey: "database.user") == nil)
    }

    @Test func aSecretStoredByRizqPrefsIsReadThroughTheReader() async throws {
        let secrets = try Self.realSecretService()
        defer { _ = try? secrets.deleteSecret(forAccount: "api.key") }
        try rizqPrefs(["secret", "set", "api.key", "--service", secrets.service], ProcessInfo.processInfo.environment, input: Self.password)
        let reader = ConfigReader(provider: SecretStoreProvider(store: secrets))
        #expect(try await reader.fetchString(forKey: "api.key") == Self.password)
    }

    /// A store of the Secret Service that scripts/test starts, under a service of its own.
    static func realSecretService() throws -> SecretServiceStore {
        try #require(
            ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil,
            "no D-Bus session: run these tests through scripts/test (or scripts/with-keyring swift test)")
        return SecretServiceStore(service: "com.rizq.configtest.\(UUID().uuidString.prefix(8))")
    }
}
