import Foundation
import RizqTestSupport
import Testing

/// Examples/ConfigServer, run as a user runs it: its settings from the environment, its suite
/// and its secrets, then `rizq-prefs set` in another process reaching it while it runs. The same
/// binary reads its password from the keyring on a desktop and from a systemd credential on a
/// server. Every step waits for a line the example prints, never for time.
@Suite struct ConfigServerExampleTests {
    @Test func theExampleReadsEveryProviderAndSeesALiveChange() throws {
        try #require(
            ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil,
            "no D-Bus session: run these tests through scripts/test (or scripts/with-keyring swift test)")
        let folder = try SuiteFolder()
        var environment = folder.environment
        try rizqPrefs(["set", "http.timeout", "30", "--int", "--suite", folder.appID], environment)
        try rizqPrefs(["set", "http.host", "0.0.0.0", "--suite", folder.appID], environment)
        let password = "example-test-\(UUID().uuidString.prefix(8))"
        try rizqPrefs(["secret", "set", "database.password"], environment, input: password)
        defer { _ = try? runCommand(rizqPrefsBinary, ["secret", "delete", "database.password"], environment: environment) }
        // On a desktop the chain put it in the keyring, where secret-tool finds it.
        let lookup = try runCommand("/usr/bin/secret-tool", ["lookup", "service", folder.appID, "account", "database.password"], environment: environment)
        #expect(lookup.stdout == password, "the keyring holds it")
        environment["HTTP_PORT"] = "9000"

        let settings = try runExample(environment) {
            try rizqPrefs(["set", "http.timeout", "45", "--int", "--suite", folder.appID], environment)
        }
        #expect(settings.contains("http.port          9000"), "the environment wins: \(settings)")
        #expect(settings.contains("http.host          0.0.0.0"), "the suite's value: \(settings)")
        #expect(settings.contains("http.timeout       30"), "the suite's value: \(settings)")
        #expect(settings.contains("database.password  set (\(password.count) characters, never printed)"), "\(settings)")
        #expect(!settings.contains(password))
    }

    /// A server: no session bus, no keyring, no vault key source; systemd delivers the password as
    /// the credential `<app id>.database.password` in `$CREDENTIALS_DIRECTORY` (a folder here,
    /// as `LoadCredential=` makes it: systemd is not PID 1 on the test machines).
    @Test func onAServerTheSameBinaryReadsTheSecretFromASystemdCredential() throws {
        let folder = try SuiteFolder()
        let credentials = folder.root + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let password = "credential-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(
            atPath: credentials + "/\(folder.appID).database.password", contents: Data(password.utf8), attributes: [.posixPermissions: 0o400]))
        var environment = folder.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["XDG_RUNTIME_DIR"] = folder.root + "/no-runtime"
        environment["CREDENTIALS_DIRECTORY"] = credentials
        environment["RIZQ_SECRETS_SYSTEMD_CREDS"] = "0"
        for variable in ["RIZQ_SECRETS_PASSPHRASE_FILE", "RIZQ_SECRETS_PASSPHRASE_FD", "RIZQ_SECRETS_PASSPHRASE_COMMAND", "RIZQ_SECRETS_KEY_FILE"] {
            environment[variable] = nil
        }
        try rizqPrefs(["set", "http.timeout", "30", "--int", "--suite", folder.appID], environment)
        let backends = try runCommand(rizqPrefsBinary, ["secret", "backends"], environment: environment)
        #expect(backends.stdout.contains("credentials: available"), "\(backends.stdout)")

        let settings = try runExample(environment) {
            try rizqPrefs(["set", "http.timeout", "45", "--int", "--suite", folder.appID], environment)
        }
        #expect(settings.contains("database.password  set (\(password.count) characters, never printed)"), "\(settings)")
        #expect(!settings.contains(password))
        #expect(!FileManager.default.fileExists(atPath: folder.root + "/secrets/\(folder.appID)/vault.age"), "read from the credential, nothing stored")
    }

    /// Runs the example until it says "ready", then `change` (which must change `http.timeout`),
    /// then to its end; returns what it printed before "ready".
    private func runExample(_ environment: [String: String], change: () throws -> Void) throws -> String {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: productsFolder + "/config-server-example")
        server.arguments = ["--changes", "1"]
        server.environment = environment
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        // Only against a hang: a stuck example is ended, its output ends, and the test fails.
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) { if server.isRunning { server.terminate() } }
        defer { if server.isRunning { server.terminate() } }
        let lines = LineReader(output.fileHandleForReading)

        let start = lines.until { $0 == "ready" }
        #expect(start.last == "ready", "the example never said ready: \(start)")
        try change()
        let changed = lines.until { $0.hasPrefix("http.timeout changed") }
        #expect(changed.last == "http.timeout changed: 45 (no restart)")
        server.waitUntilExit()
        #expect(server.terminationStatus == 0, "--changes 1 ends the example after the change")
        return start.joined(separator: "\n")
    }
}

/// A child's stdout, line by line, read as it comes.
private final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// The lines up to and including the first for which `isLast` holds, or up to the end of the output.
    func until(_ isLast: (String) -> Bool) -> [String] {
        var lines: [String] = []
        while let line = next() {
            lines.append(line)
            if isLast(line) { break }
        }
        return lines
    }

    private func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}
