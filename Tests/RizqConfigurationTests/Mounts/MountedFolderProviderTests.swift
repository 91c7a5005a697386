import Configuration
import ConfigurationTesting
import Foundation
import RizqConfiguration
import RizqPrefs
import RizqTestSupport
import Testing

/// The provider over a mounted folder: swift-configuration's own conformance check on a volume
/// kubelet's writer made, typed reads of what kubelet and Docker write, secrets marked, and the
/// watches fed by inotify while the writer (another process) publishes generations.
@Suite struct MountedFolderProviderTests {
    /// The check's data set as files (arrays comma-separated; one byte chunk a file).
    static let compatFiles: [String: String] = [
        "string": "Hello", "other.string": "Other Hello",
        "int": "42", "other.int": "24",
        "double": "3.14", "other.double": "2.72",
        "bool": "true", "other.bool": "false",
        "bytes": "magic", "other.bytes": "magic2",
        "stringy.array": "Hello,World", "other.stringy.array": "Hello,Swift",
        "inty.array": "42,24", "other.inty.array": "16,32",
        "doubly.array": "3.14,2.72", "other.doubly.array": "0.9,1.8",
        "booly.array": "true,false", "other.booly.array": "false,true,true",
        "byteChunky.array": "magic", "other.byteChunky.array": "magic2",
    ]
    /// A file is one chunk: the check's two- and three-chunk arrays are one chunk here.
    static let compatOverrides: [String: ConfigContent] = [
        "byteChunky.array": .byteChunkArray([Array("magic".utf8)]),
        "other.byteChunky.array": .byteChunkArray([Array("magic2".utf8)]),
    ]

    @Test func aKubernetesVolumePassesTheCheck() async throws {
        let volume = try KubeletVolume("compat")
        try volume.write(Self.compatFiles)
        let provider = try MountedFolderProvider(folder: volume.path, sensitivity: .configuration)
        try await ProviderCompatTest(provider: provider, configuration: .init(overrides: Self.compatOverrides)).runTest()
    }

    @Test func aPlainFolderPassesTheCheck() async throws {
        let volume = try KubeletVolume("compat-plain")
        for (name, text) in Self.compatFiles { try Data(text.utf8).write(to: URL(fileURLWithPath: volume.path + "/" + name)) }
        let provider = try MountedFolderProvider(folder: volume.path, sensitivity: .configuration)
        try await ProviderCompatTest(provider: provider, configuration: .init(overrides: Self.compatOverrides)).runTest()
    }

    /// The check can fail: a volume missing one of its values does not pass it.
    @Test func theCheckFailsForAnIncompleteVolume() async throws {
        let volume = try KubeletVolume("compat-incomplete")
        try volume.write(Self.compatFiles.filter { $0.key != "other.int" })
        let provider = try MountedFolderProvider(folder: volume.path, sensitivity: .configuration)
        await withKnownIssue("the compat check reports the missing other.int") {
            try await ProviderCompatTest(provider: provider, configuration: .init(overrides: Self.compatOverrides)).runTest()
        }
    }

    @Test func valuesReadAsKubeletAndDockerWriteThem() throws {
        let volume = try KubeletVolume("typed")
        try volume.write(["http.port": "8080\n", "debug": "yes\n", "ratio": " 0.5 ", "tls.crt": "-----BEGIN-----\n", "hosts": "a, b ,c\n", "empty.list": "\n"])
        let reader = ConfigReader(provider: try MountedFolderProvider(folder: volume.path, sensitivity: .configuration))
        #expect(reader.int(forKey: "http.port") == 8080)
        #expect(reader.bool(forKey: "debug") == true)
        #expect(reader.double(forKey: "ratio") == 0.5)
        #expect(reader.string(forKey: "tls.crt") == "-----BEGIN-----", "a dotted file name is the dotted key; the trailing newline cut")
        #expect(reader.bytes(forKey: "tls.crt") == Array("-----BEGIN-----\n".utf8), "bytes are exact")
        #expect(reader.stringArray(forKey: "hosts") == ["a", "b", "c"])
        #expect(reader.stringArray(forKey: "empty.list") == [])
        #expect(reader.int(forKey: "debug", default: 7) == 7, "text that is no int: the default")
        #expect(throws: ConfigTypeMismatch.self) { try reader.requiredInt(forKey: "debug") }
    }

    @Test func aSecretsFolderMarksEveryValueSecret() throws {
        let volume = try KubeletVolume("secrets")
        try volume.write(["database.password": "hunter2\n"])
        let secrets = try MountedFolderProvider(folder: volume.path, sensitivity: .secrets)
        let result = try secrets.value(forKey: AbsoluteConfigKey(dotted: "database.password"), type: .string)
        #expect(result.value == ConfigValue(.string("hunter2"), isSecret: true))
        #expect(result.value?.description == "[string: <REDACTED>]")
        let plain = try MountedFolderProvider(folder: volume.path, sensitivity: .configuration)
        #expect(try plain.value(forKey: AbsoluteConfigKey(dotted: "database.password"), type: .string).value?.isSecret == false)
    }

    /// A lookup is never older than the folder: a generation published while nothing watches
    /// is read at the next lookup.
    @Test func aLookupSeesTheNewGenerationAtOnce() throws {
        let volume = try KubeletVolume("fresh")
        try volume.write(["log.level": "info"])
        let provider = try MountedFolderProvider(folder: volume.path)
        let reader = ConfigReader(provider: provider)
        #expect(reader.string(forKey: "log.level") == "info")
        try volume.write(["log.level": "debug"])
        #expect(reader.string(forKey: "log.level") == "debug")
        #expect(reader.snapshot().string(forKey: "log.level") == "debug")
    }

    /// The writer publishes in another process; the watch gets the value it started with, then
    /// the new one, and nothing for a generation that changed another key.
    @Test func aWatchedValueFollowsTheWriterAndSkipsOtherKeys() async throws {
        let volume = try KubeletVolume("watch")
        try volume.write(["log.level": "info", "other": "1"])
        let reader = ConfigReader(provider: try MountedFolderProvider(folder: volume.path))
        let path = volume.path
        let seen = try await withHangGuard {
            try await reader.watchString(forKey: "log.level", default: "none") { updates in
                try await collect(updates, afterFirst: {
                    // Another key first: kubelet rewrites every file, and this key must not be told.
                    try KubeletVolume.write(path, ["log.level": "info", "other": "2"])
                    try KubeletVolume.write(path, ["log.level": "debug", "other": "2"])
                }) { $0 == "debug" }
            }
        }
        #expect(seen == ["info", "debug"])
    }

    @Test func snapshotsFollowTheWriter() async throws {
        let volume = try KubeletVolume("snapshots")
        try volume.write(["a": "1", "b": "1"])
        let reader = ConfigReader(provider: try MountedFolderProvider(folder: volume.path))
        let path = volume.path
        let values = try await withHangGuard {
            try await reader.watchSnapshot { snapshots in
                try await collect(snapshots, afterFirst: { try KubeletVolume.write(path, ["a": "2", "b": "2"]) }) {
                    $0.string(forKey: "a") == "2"
                }.map { [$0.string(forKey: "a"), $0.string(forKey: "b")] }
            }
        }
        #expect(values.first == ["1", "1"])
        #expect(values.last == ["2", "2"], "both keys of one generation")
    }

    /// `NAME_FILE` through swift-configuration's environment provider: `database.password` from
    /// the file `DATABASE_PASSWORD_FILE` names, marked secret.
    @Test func theEnvironmentProviderReadsNameFile() throws {
        let volume = try KubeletVolume("file-env")
        try volume.write(["db-password": "hunter2\n"])
        let provider = try EnvironmentVariablesProvider(
            resolvingFileVariables: ["DATABASE_PASSWORD"],
            environmentVariables: ["DATABASE_PASSWORD_FILE": volume.path + "/db-password", "HTTP_PORT": "8080"])
        let password = try provider.value(forKey: AbsoluteConfigKey(dotted: "database.password"), type: .string)
        #expect(password.value == ConfigValue(.string("hunter2"), isSecret: true))
        #expect(try provider.value(forKey: AbsoluteConfigKey(dotted: "http.port"), type: .int).value == ConfigValue(.int(8080), isSecret: false))
        #expect(try provider.environmentValue(forName: "DATABASE_PASSWORD_FILE") == nil, "NAME_FILE is gone, as file_env leaves it")
        #expect(throws: MountError.variableBothSet(name: "DATABASE_PASSWORD")) {
            try EnvironmentVariablesProvider(
                resolvingFileVariables: ["DATABASE_PASSWORD"],
                environmentVariables: ["DATABASE_PASSWORD_FILE": volume.path + "/db-password", "DATABASE_PASSWORD": "x"])
        }
    }
}

extension KubeletVolume {
    /// Writes one generation of the volume at `path` (from a `@Sendable` closure).
    static func write(_ path: String, _ values: [String: String]) throws {
        let pairs = values.keys.sorted().map { "\($0)=\(values[$0] ?? "")" }
        let result = try runCommand("/usr/bin/python3", [script, path] + pairs)
        #expect(result.status == 0, "kubelet-writer: \(result.stderr)")
    }
}
