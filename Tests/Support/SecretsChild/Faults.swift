// The fault modes of the secrets test child (see main.swift): a real gnome-keyring frozen,
// locked or killed under the store and under an import, inside a throw-away keyring session.
import Foundation
import Logging
import RizqImport
import RizqPrefs
import RizqSecrets

/// Every log line of every level, on stderr, so that the test can look for a leaked secret in
/// the most verbose output there is.
struct TraceToStderr: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        FileHandle.standardError.write(Data("log \(event.level) \(label): \(event.message) \(all)\n".utf8))
    }
}

/// How many processes hold `needle` in their argument list or environment.
func processesHolding(_ needle: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let bytes = Data(needle.utf8)
    return names.filter { Int($0) != nil }.filter { pid in
        ["cmdline", "environ"].contains { FileManager.default.contents(atPath: "/proc/\(pid)/\($0)")?.range(of: bytes) != nil }
    }.count
}

/// `faults SERVICE PID` (the secret on stdin): one line per step.
///   frozen-store / frozen-read   the daemon stopped (SIGSTOP): each a time-out error
///   argv-leaks N                 processes whose arguments or environment hold the secret, while frozen
///   locked-store / locked-read   the keyring locked: each the locked error
///   killed-inflight              a store in flight when the daemon is killed (SIGKILL): its error
///   killed-next, killed-again    the next calls after the kill: an error or a result, never a hang
func runFaults(service: String, pid: pid_t) {
    LoggingSystem.bootstrap { TraceToStderr(label: $0) }
    let secret = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    let quick = SecretServiceStore(service: service, timeout: 1)
    let patient = SecretServiceStore(service: service, timeout: 30)
    printStore("store-existing", patient, "before-faults", account: "existing")

    kill(pid, SIGSTOP)
    printStore("frozen-store", quick, secret, account: "frozen_token")
    print("argv-leaks \(processesHolding(secret))")
    printRead("frozen-read", quick, account: "existing")
    kill(pid, SIGCONT)
    // The store that timed out may or may not have reached the daemon: either is fine, another value is not.
    print(describe("resumed-read") { () throws(SecretError) -> String in
        guard let stored = try patient.secret(forAccount: "frozen_token") else { return "nothing" }
        return stored == secret ? "the secret" : "another value"
    })
    print(describe("resumed-delete") { () throws(SecretError) in try patient.deleteSecret(forAccount: "frozen_token") })

    print(describe("lock") { () throws(SecretError) in try patient.lockKeyring() })
    printStore("locked-store", patient, secret, account: "locked_token")
    printRead("locked-read", patient, account: "existing")

    // A store in flight when the daemon dies: frozen first, so that the call is surely waiting
    // inside libsecret (its caller has given up) when the daemon is killed.
    kill(pid, SIGSTOP)
    printStore("killed-timeout", quick, secret, account: "killed_token")
    kill(pid, SIGKILL)
    kill(pid, SIGCONT)
    printStore("killed-next", SecretServiceStore(service: service, timeout: 10), secret, account: "killed_token")
    printStore("killed-again", SecretServiceStore(service: service, timeout: 10), secret, account: "killed_token")
    fflush(nil)
    exit(0)
}

/// The real store, with the daemon frozen (SIGSTOP) just before its second write; resumed
/// (SIGCONT) at the import's first rollback call when `resumeOnRollback`. Reads and deletes wait
/// patiently: what is tested is what the importer undoes, not the time-outs.
final class FreezingStore: SecretStore, @unchecked Sendable {
    private let quick: SecretServiceStore
    private let patient: SecretServiceStore
    private let pid: pid_t
    private let resumeOnRollback: Bool
    private let lock = NSLock()
    private var writes = 0
    private var resumed = false

    init(service: String, pid: pid_t, resumeOnRollback: Bool) {
        quick = SecretServiceStore(service: service, timeout: 1)
        patient = SecretServiceStore(service: service, timeout: 30)
        self.pid = pid
        self.resumeOnRollback = resumeOnRollback
    }

    var service: String { quick.service }

    func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        let count = lock.withLock { () -> Int in
            writes += 1
            return writes
        }
        if count == 2 {
            kill(pid, SIGSTOP)
            print("frozen before writing \(account)")
        }
        try (count == 1 ? patient : quick).storeSecret(bytes, isText: isText, forAccount: account, label: label)
    }

    func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        let resume = lock.withLock { () -> Bool in
            defer { resumed = true }
            return resumeOnRollback && !resumed
        }
        if resume {
            kill(pid, SIGCONT)
            print("resumed at the rollback")
        }
        return try (resumeOnRollback ? patient : quick).deleteSecret(forAccount: account)
    }

    func secretBytes(forAccount account: String) throws(SecretError) -> Data? { try patient.secretBytes(forAccount: account) }
    func accounts() throws(SecretError) -> [String] { try patient.accounts() }
}

/// `import-frozen SERVICE PID resume|stay`: imports two tokens and a setting; the daemon
/// freezes before the second token's write, which times out. With `resume` it answers again
/// when the rollback starts; with `stay` it stays frozen through the rollback and is resumed
/// afterwards. Prints the error, then (once the daemon answers and every queued call is done)
/// the accounts that remain.
func runFrozenImport(service: String, pid: pid_t, resume: Bool) {
    let dump = ImportDump(pairs: [
        ("auth_token", FakeSecret.make("auth")), ("refresh_token", FakeSecret.make("refresh")), ("theme_mode", "dark"),
    ])
    let store = FreezingStore(service: service, pid: pid, resumeOnRollback: resume)
    let options = Importer.Options(secretService: service, appID: "com.rizq.tests.frozen")
    do {
        let report = try Importer(options: options, secretStore: { _ in store }).run(dump)
        print("imported \(report.status)")
    } catch {
        print("error " + "\(error)".replacingOccurrences(of: "\n", with: " | "))
        if case .secretService(_, let rollback?) = error {
            print("unknown " + rollback.unknownSecrets.map(\.account).joined(separator: ","))
        }
    }
    kill(pid, SIGCONT)
    // Queued behind every call this process made: it answers once they are all done.
    let remaining = describe("remaining") { () throws(SecretError) in
        try SecretServiceStore(service: service, timeout: 60).accounts().joined(separator: ",")
    }
    print(remaining)
    let suite = try? SuiteStore(suite: "com.rizq.tests.frozen", appID: "com.rizq.tests.frozen")
    print("suite-keys " + (suite?.keys.sorted().joined(separator: ",") ?? "unopenable"))
    fflush(nil)
    exit(0)
}

/// Token-shaped test values made at run time (nothing token-shaped is committed).
enum FakeSecret {
    static func make(_ name: String) -> String {
        let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let payload = Data(#"{"sub":"\#(name)","n":"\#(UUID().uuidString)"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        return header + "." + payload + "." + UUID().uuidString.replacingOccurrences(of: "-", with: "")
    }
}
