import Foundation
import RizqSecrets
#if canImport(Glibc)
import Glibc
#endif

/// `git-helper-vault` and `git-helper-keyring` (issue 49): a credential helper's `get` as git
/// meets it — one whole process per request, from `posix_spawn` with the request on its standard
/// input to its exit, the answer read — for the same stored password:
/// - `git-helper-vault`: `git-credential-rizq get` on a machine with no session bus, from its vault
///   unlocked (the key in the kernel-keyring cache, as `rizq-prefs secret unlock` leaves it);
/// - `git-helper-keyring`: `git-credential-rizq get` from the bench's gnome-keyring, beside
///   git-credential-libsecret's `get` of the same item (git's C helper, built from the source
///   Debian's git ships: `RIZQ_BENCH_LIBSECRET_HELPER`).
/// Both beside `git credential-store get` (the password in a plain-text file: what a helper costs
/// with no encryption and no service) and the floor, starting and reaping `/bin/true`. Ours is
/// the binary `RIZQ_BENCH_GIT_HELPER` names, built as scripts/install builds it.
enum GitHelperWorkload {
    static let request = ["protocol=https", "host=bench.example", ""]
    static let password = "bench-git-password-" + String(repeating: "p", count: 40)

    static func run(_ workload: String, home: BenchHome, options: Options, helper: String?, libsecretHelper: String?) throws -> BenchResult {
        guard let helper, !helper.isEmpty else { throw BenchError("\(workload): set RIZQ_BENCH_GIT_HELPER to a git-credential-rizq binary (scripts/bench does)") }
        let keyring = workload == "git-helper-keyring"
        let bus = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        // The helper's chain state and vault in the bench's home; no session bus for the vault row.
        setenv("RIZQ_SECRETS_DIR", home.path + "/secrets-\(workload)", 1)
        setenv("XDG_STATE_HOME", home.path + "/state", 1)
        let passphrase = home.path + "/git-vault-passphrase"
        guard FileManager.default.createFile(atPath: passphrase, contents: Data("bench \(UUID().uuidString)".utf8), attributes: [.posixPermissions: 0o600]) else {
            throw BenchError("cannot write \(passphrase)")
        }
        setenv("RIZQ_SECRETS_PASSPHRASE_FILE", passphrase, 1)
        if !keyring { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        defer { if let bus { setenv("DBUS_SESSION_BUS_ADDRESS", bus, 1) } }
        let store = ["protocol=https", "host=bench.example", "username=bench", "password=\(password)", ""]
        guard try exchange(helper, ["store"], store).status == 0 else { throw BenchError("\(workload): git-credential-rizq store failed") }
        if !keyring {
            var configuration = VaultConfiguration.fromEnvironment(ProcessInfo.processInfo.environment)
            configuration.stateFolder = home.path + "/state/rizq-prefs/vaults"
            let vault = VaultSecretStore(service: NetworkCredentialStore.defaultService, configuration: configuration)
            _ = try vault.unlock(timeout: .seconds(600))
        }
        let plainFile = home.path + "/git-credentials"
        guard try exchange("/usr/bin/git", ["credential-store", "--file", plainFile, "store"], store).status == 0 else {
            throw BenchError("git credential-store store failed")
        }
        var sampler = options.quick ? Sampler(repetitions: 3, warmup: 1) : Sampler(repetitions: 101, warmup: 5)
        sampler.oursOnly = options.oursOnly
        var contenders = [
            Contender("ours") { try timedGet(helper, ["get"]) },
            Contender("floor") { try timedGet("/bin/true", []) },
            .peer("credential-store") { try timedGet("/usr/bin/git", ["credential-store", "--file", plainFile, "get"]) },
        ]
        if keyring, let libsecretHelper, !libsecretHelper.isEmpty {
            guard try exchange(libsecretHelper, ["store"], store).status == 0 else { throw BenchError("git-credential-libsecret store failed") }
            contenders.append(.peer("libsecret") { try timedGet(libsecretHelper, ["get"]) })
        }
        let medians = try sampler.medians(contenders)
        var result = BenchResult(workload: workload, size: 1, ours: medians.of("ours"), unit: "ns")
        result.floor("starting and reaping /bin/true", medians.of("floor"))
        if keyring {
            if let libsecretHelper, !libsecretHelper.isEmpty {
                result.peer("git-credential-libsecret get (git's C helper, the same item)", "libsecret", in: medians)
            } else {
                result.peer("git-credential-libsecret get", missing: "RIZQ_BENCH_LIBSECRET_HELPER is not set")
            }
        }
        result.peer("git credential-store get (a plain-text file)", "credential-store", in: medians)
        return result
    }

    /// Wall-clock nanoseconds from spawning `path` with git's request to reaping it, the answer
    /// checked (`/bin/true` answers nothing).
    private static func timedGet(_ path: String, _ arguments: [String]) throws -> Double {
        var answer: (status: Int32, output: Data) = (0, Data())
        // /bin/true reads nothing (a request written after its exit would fail).
        let lines = path == "/bin/true" ? [] : request
        let elapsed = try elapsedNanoseconds { answer = try exchange(path, arguments, lines) }
        guard answer.status == 0 else { throw BenchError("\(path) \(arguments.joined(separator: " ")) exited with status \(answer.status)") }
        if path != "/bin/true", !String(decoding: answer.output, as: UTF8.self).contains("password=\(password)") {
            throw BenchError("\(path) \(arguments.joined(separator: " ")) did not answer the password")
        }
        return elapsed
    }

    /// Runs `path` with `lines` on its standard input; its exit status and standard output.
    private static func exchange(_ path: String, _ arguments: [String], _ lines: [String]) throws -> (status: Int32, output: Data) {
        let child = try ChildProcess(path, arguments)
        for line in lines { try child.send(line) }
        child.closeInput()
        let output = child.readAll()
        return (try child.wait(), output)
    }
}
