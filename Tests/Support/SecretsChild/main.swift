// A second process for the secret tests that need another environment.
//
//   rizq-secrets-test-child SERVICE ACCOUNT
//       reads one secret; prints "value <secret>", "missing" or "error <description>"; exits 0.
//   rizq-secrets-test-child locked SERVICE
//       (inside a throw-away keyring session) stores an item, locks the default keyring, then
//       tries to store the secret given on stdin and to read the item back; prints one line per
//       step ("store-new error …", "read-existing error …", "accounts a,b", "locked true").
//   rizq-secrets-test-child frozen SERVICE PID
//       stores an item, stops the daemon PID (SIGSTOP), reads with a 1 s time-out, reads again
//       with D-Bus round trips of 0.5 s under a 600 s time-out (so that only the round trip can
//       time out), resumes the daemon and reads again; one line per step.
//   rizq-secrets-test-child timeouts SERVICE PID
//       before any secret call (so the first also connects), stops the daemon PID, reads account
//       "token" with two stores of different time-outs, prints whether the libsecret thread is
//       free again ("worker-free true"), resumes the daemon and reads once more.
//   rizq-secrets-test-child unavailable SERVICE ACCOUNT
//       for a machine without libsecret: prints "started", then each secret call's error by its
//       case ("read libsecretMissing …"), then a preference written and read back ("prefs 42").
//   rizq-secrets-test-child faults SERVICE PID
//       the daemon frozen, the keyring locked, the daemon killed mid-call (see Faults.swift).
//   rizq-secrets-test-child import-frozen SERVICE PID resume|stay
//       an import whose second secret write times out on a frozen daemon (see Faults.swift).
//   rizq-secrets-test-child restart SERVICE
//       stores an item, runs $RIZQ_RESTART_COMMAND (which replaces the daemon), reads it back.
//   rizq-secrets-test-child cache-locked SERVICE
//       stores and reads an item twice (the second read takes the remembered path), runs
//       $RIZQ_LOCK_COMMAND (another process locks the keyring), reads it again.
//   rizq-secrets-test-child file-keyring SERVICE COMMAND …, portal TIMEOUT
//       the file keyring and the Secret portal (see FileKeyringChild.swift).
//   rizq-secrets-test-child cache-restart SERVICE
//       stores and reads accounts "kept" and "cleared" twice, runs $RIZQ_RESTART_COMMAND (which
//       may clear and store items around a daemon restart), then reads both again.
import Foundation
import RizqPrefs
import RizqSecrets

func describe<Value>(_ step: String, _ body: () throws(SecretError) -> Value) -> String {
    do {
        return "\(step) ok \(try body())"
    } catch {
        return "\(step) error \(error)"
    }
}

/// Prints "STEP ok VALUE" ("nil" when there is no item) or "STEP error …".
func printRead(_ step: String, _ store: SecretServiceStore, account: String) {
    print(describe(step) { () throws(SecretError) in try store.secret(forAccount: account) ?? "nil" })
}

/// Prints "STEP ok ()" or "STEP error …".
func printStore(_ step: String, _ store: SecretServiceStore, _ secret: String, account: String) {
    print(describe(step) { () throws(SecretError) in try store.setSecret(secret, forAccount: account) })
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count >= 3, arguments[0] == "file-keyring" {
    runFileKeyring(arguments)
}
if arguments.count == 2, arguments[0] == "portal", let timeout = Double(arguments[1]) {
    runPortal(timeout: timeout)
}
if arguments.count == 3, arguments[0] == "faults", let pid = pid_t(arguments[2]) {
    runFaults(service: arguments[1], pid: pid)
}
if arguments.count == 4, arguments[0] == "import-frozen", let pid = pid_t(arguments[2]) {
    runFrozenImport(service: arguments[1], pid: pid, resume: arguments[3] == "resume")
}
if arguments.count == 2, arguments[0] == "locked" {
    let store = SecretServiceStore(service: arguments[1], timeout: 10)
    let secret = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    printStore("store-existing", store, "before-lock", account: "existing")
    print(describe("lock") { () throws(SecretError) in try store.lockKeyring() })
    print(describe("locked") { () throws(SecretError) in try store.keyringStatus().locked })
    printStore("store-new", store, secret, account: "new_token")
    printStore("store-over-existing", store, secret, account: "existing")
    printRead("read-existing", store, account: "existing")
    print(describe("delete-existing") { () throws(SecretError) in try store.deleteSecret(forAccount: "existing") })
    print(describe("accounts") { () throws(SecretError) in try store.accounts().joined(separator: ",") })
    // Headless, a prompt cannot be shown: allowing one must end quickly, not hang.
    let prompting = SecretServiceStore(service: arguments[1], timeout: 10, allowsPrompt: true)
    printRead("read-prompting", prompting, account: "existing")
    exit(0)
}
if arguments.count == 3, arguments[0] == "frozen", let pid = pid_t(arguments[2]) {
    let store = SecretServiceStore(service: arguments[1], timeout: 1)
    printStore("store", store, "before-freeze", account: "token")
    kill(pid, SIGSTOP)
    printRead("read-frozen", store, account: "token")
    let roundTripOnly = SecretServiceStore(service: arguments[1], timeout: 600, roundTripTimeout: 0.5)
    printRead("read-round-trip-timed-out", roundTripOnly, account: "token")
    kill(pid, SIGCONT)
    // The worker finishes the call that timed out once the daemon answers; then calls work again.
    let patient = SecretServiceStore(service: arguments[1], timeout: 10)
    printRead("read-resumed", patient, account: "token")
    exit(0)
}
if arguments.count == 3, arguments[0] == "timeouts", let pid = pid_t(arguments[2]) {
    kill(pid, SIGSTOP)
    // The caller would wait 600 s: only the call's own 0.5 s round trips can end it sooner.
    let patient = SecretServiceStore(service: arguments[1], timeout: 600, roundTripTimeout: 0.5)
    printRead("frozen-patient", patient, account: "token")
    let quick = SecretServiceStore(service: arguments[1], timeout: 1)
    printRead("frozen-quick", quick, account: "token")
    // The caller gave up after 1 s; the worker is free once the call's own round trip (0.75 s)
    // timed out, not after GDBus's default 25 s (or two of them, connecting).
    print("worker-free \(SecretServiceStore.workerIsFree(within: 10))")
    printRead("frozen-patient-again", patient, account: "token")
    kill(pid, SIGCONT)
    printRead("resumed", SecretServiceStore(service: arguments[1], timeout: 10), account: "token")
    exit(0)
}
if arguments.count == 3, arguments[0] == "unavailable" {
    print("started")
    fflush(nil)
    let store = SecretServiceStore(service: arguments[1], timeout: 5)
    func printKind(_ step: String, _ body: () throws(SecretError) -> Void) {
        do throws(SecretError) {
            try body()
            print("\(step) no error")
        } catch {
            guard case .libsecretMissing(let detail) = error else { return print("\(step) other \(error)") }
            print("\(step) libsecretMissing \(detail)")
        }
    }
    printKind("read") { () throws(SecretError) in _ = try store.secret(forAccount: arguments[2]) }
    printKind("store") { () throws(SecretError) in try store.setSecret("never-stored", forAccount: arguments[2]) }
    printKind("accounts") { () throws(SecretError) in _ = try store.accounts() }
    do {
        let suite = try SuiteStore(suite: "com.rizq.tests.unavailable", appID: "com.rizq.tests.unavailable")
        suite.set(42, forKey: "answer")
        try suite.flush()
        print("prefs \(suite.integer(forKey: "answer"))")
    } catch {
        print("prefs error \(error)")
    }
    exit(0)
}
/// Runs the shell command in the environment variable `name`; its exit status, or an error.
/// posix_spawn and waitpid: Foundation's Process misses the exit of a child in a process where
/// GLib runs (libsecret), and would wait forever.
func runShell(commandIn name: String) -> String {
    fflush(nil)  // every stream: the command's output comes after the lines printed so far
    let command = ProcessInfo.processInfo.environment[name] ?? "false"
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
    defer { argv.forEach { free($0) } }
    guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else {
        return "error \(String(cString: strerror(errno)))"
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    return "\((status >> 8) & 0xff)"
}

if arguments.count == 2, arguments[0] == "restart" {
    let store = SecretServiceStore(service: arguments[1], timeout: 10)
    printStore("store", store, "before-restart", account: "token")
    print("restarted \(runShell(commandIn: "RIZQ_RESTART_COMMAND"))")
    printRead("read-after-restart", store, account: "token")
    printStore("store-after-restart", store, "after-restart", account: "token")
    printRead("read-again", store, account: "token")
    exit(0)
}
if arguments.count == 2, arguments[0] == "cache-locked" {
    let store = SecretServiceStore(service: arguments[1], timeout: 10)
    printStore("store", store, "before-lock", account: "token")
    printRead("read", store, account: "token")
    printRead("read-again", store, account: "token")
    print("locked-by-other \(runShell(commandIn: "RIZQ_LOCK_COMMAND"))")
    printRead("read-locked", store, account: "token")
    printRead("read-locked-again", store, account: "token")
    let prompting = SecretServiceStore(service: arguments[1], timeout: 10, allowsPrompt: true)
    printRead("read-prompting", prompting, account: "token")
    exit(0)
}
if arguments.count == 2, arguments[0] == "cache-restart" {
    let store = SecretServiceStore(service: arguments[1], timeout: 10)
    for account in ["kept", "cleared"] {
        printStore("store-\(account)", store, "\(account)-secret", account: account)
        for step in ["read", "read-again"] {
            printRead("\(step)-\(account)", store, account: account)
        }
    }
    print("restarted \(runShell(commandIn: "RIZQ_RESTART_COMMAND"))")
    // "kept" first: its read finds the daemon gone and reconnects; "cleared" comes after that.
    for account in ["kept", "cleared"] {
        for step in ["read-after-restart", "read-again-after-restart"] {
            printRead("\(step)-\(account)", store, account: account)
        }
    }
    exit(0)
}
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: SERVICE ACCOUNT | locked SERVICE | frozen SERVICE PID | timeouts SERVICE PID | unavailable SERVICE ACCOUNT | restart SERVICE | cache-locked SERVICE | cache-restart SERVICE\n".utf8))
    exit(2)
}
let store = SecretServiceStore(service: arguments[0], timeout: 5)
let line: String
do {
    if let value = try store.secret(forAccount: arguments[1]) {
        line = "value \(value)"
    } else {
        line = "missing"
    }
} catch {
    line = "error \(error)"
}
print(line)
