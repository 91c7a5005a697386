import Configuration
import Foundation
import RizqPrefs
import Testing

/// A fresh folder of suite files for one test; never the user's real ones.
final class SuiteFolder: Sendable {
    let root: String
    let appID = "com.rizq.configtest"

    init() throws {
        root = NSTemporaryDirectory() + "rizq-config-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A suite of the test's app under this root.
    func store(_ suite: String) throws -> SuiteStore {
        try SuiteStore(suite: suite, appID: appID, root: root)
    }

    /// Writes a suite file by hand (as a person or another tool would), before it is opened.
    func writeFile(suite: String, json: String) throws {
        let folder = "\(root)/apps/\(appID)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(suite).json"))
    }

    /// The environment for a `rizq-prefs` child working on this root and app.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["RIZQ_PREFS_HOME"] = root
        environment["RIZQ_PREFS_APP_ID"] = appID
        // The vault and the remembered write target of the test's own, never a shared HOME's.
        environment["RIZQ_SECRETS_DIR"] = root + "/secrets"
        return environment
    }
}

/// The built `rizq-prefs`, beside the test bundle.
var rizqPrefsBinary: String {
    let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: testBinary).deletingLastPathComponent().path + "/rizq-prefs"
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String { "no answer within the time-out (a last resort against a hang, not a timing check)" }
}

/// Runs `work`, failing with ``TimedOut`` if it has not finished after `seconds`: only a guard
/// against a hang; every test waits for a change stream or a child's answer, never for time.
func withHangGuard<T: Sendable>(seconds: Double = 120, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimedOut() }
        return value
    }
}

extension AbsoluteConfigKey {
    /// `"http.timeout"` as the components a reader passes to providers.
    init(dotted: String) {
        self.init(dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }
}
