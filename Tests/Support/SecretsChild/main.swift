// A second process for the secret tests that need another environment.
//
//   rizq-secrets-test-child SERVICE ACCOUNT
//       reads one secret; prints "value <secret>", "missing" or "error <description>", then
//       "seconds <elapsed>"; exits 0.
//   rizq-secrets-test-child locked SERVICE
//       (inside a throw-away keyring session) stores an item, locks the default keyring, then
//       tries to store the secret given on stdin and to read the item back; prints one line per
//       step ("store-new error …", "read-existing error …", "accounts a,b", "locked true").
//   rizq-secrets-test-child frozen SERVICE PID
//       stores an item, stops the daemon PID (SIGSTOP), reads with a 1 s time-out, resumes the
//       daemon and reads again; one line per step, each with its elapsed seconds.
//   rizq-secrets-test-child restart SERVICE
//       stores an item, runs $RIZQ_RESTART_COMMAND (which replaces the daemon), reads it back.
//   rizq-secrets-test-child cache-locked SERVICE
//       stores and reads an item twice (the second read takes the remembered path), runs
//       $RIZQ_LOCK_COMMAND (another process locks the keyring), reads it again.
//   rizq-secrets-test-child cache-restart SERVICE
//       stores and reads accounts "kept" and "cleared" twice, runs $RIZQ_RESTART_COMMAND (which
//       may clear and store items around a daemon restart), then reads both again.
import Foundation
import RizqSecrets

func describe<Value>(_ step: String, _ body: () throws(SecretError) -> Value) -> String {
    do {
        return "\(step) ok \(try body())"
    } catch {
        return "\(step) error \(error)"
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2, arguments[0] == "locked" {
    let store = SecretServiceStore(service: arguments[1], timeout: 10)
    let secret = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    print(describe("store-existing") { () throws(SecretError) in try store.setSecret("before-lock", forAccount: "existing") })
    print(describe("lock") { () throws(SecretError) in try store.lockKeyring() })
    print(describe("locked") { () throws(SecretError) in try store.keyringStatus().locked })
    print(describe("store-new") { () throws(SecretError) in try store.setSecret(secret, forAccount: "new_token") })
    print(describe("read-existing") { () throws(SecretError) in try store.secret(forAccount: "existing") ?? "nil" })
    print(describe("accounts") { () throws(SecretError) in try store.accounts().joined(separator: ",") })
    // Headless, a prompt cannot be shown: allowing one must end quickly, not hang.
    let prompting = SecretServiceStore(service: arguments[1], timeout: 10, allowsPrompt: true)
    print(describe("read-prompting") { () throws(SecretError) in try prompting.secret(forAccount: "existing") ?? "nil" })
    exit(0)
}
if arguments.count == 3, arguments[0] == "frozen", let pid = pid_t(arguments[2]) {
    let store = SecretServiceStore(service: arguments[1], timeout: 1)
    print(describe("store") { () throws(SecretError) in try store.setSecret("before-freeze", forAccount: "token") })
    kill(pid, SIGSTOP)
    let started = Date()
    print(describe("read-frozen") { () throws(SecretError) in try store.secret(forAccount: "token") ?? "nil" })
    print(String(format: "seconds %.3f", Date().timeIntervalSince(started)))
    kill(pid, SIGCONT)
    // The worker finishes the call that timed out once the daemon answers; then calls work again.
    let patient = SecretServiceStore(service: arguments[1], timeout: 10)
    print(describe("read-resumed") { () throws(SecretError) in try patient.secret(forAccount: "token") ?? "nil" })
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
    print(describe("store") { () throws(SecretError) in try store.setSecret("before-restart", forAccount: "token") })
    print("restarted \(runShell(commandIn: "RIZQ_RESTART_COMMAND"))")
    print(describe("read-after-restart") { () throws(SecretError) in try store.secret(forAccount: "token") ?? "nil" })
    print(describe("store-after-restart") { () throws(SecretError) in try store.setSecret("after-restart", forAccount: "token") })
    print(describe("read-again") { () throws(SecretError) in try store.secret(forAccount: "token") ?? "nil" })
    exit(0)
}
if arguments.count == 2, arguments[0] == "cache-locked" {
    let store = SecretServiceStore(service: arguments[1], timeout: 10)
    print(describe("store") { () throws(SecretError) in try store.setSecret("before-lock", forAccount: "token") })
    print(describe("read") { () throws(SecretError) in try store.secret(forAccount: "token") ?? "nil" })
    print(describe("read-again") { () throws(SecretError) in try store.secret(forAccount: "token") ?? "nil" })
    print("locked-by-other \(runShell(commandIn: "RIZQ_LOCK_COMMAND"))")
    print(describe("read-locked") { () throws(SecretError) in try store.secret(forAccount: "token") ?? "nil" })
    print(describe("read-locked-again") { () throws(SecretError) in try store.secret(forAccount: "token") ?? "nil" })
    let prompting = SecretServiceStore(service: arguments[1], timeout: 10, allowsPrompt: true)
    print(describe("read-prompting") { () throws(SecretError) in try prompting.secret(forAccount: "token") ?? "nil" })
    exit(0)
}
if arguments.count == 2, arguments[0] == "cache-restart" {
    let store = SecretServiceStore(service: arguments[1], timeout: 10)
    for account in ["kept", "cleared"] {
        print(describe("store-\(account)") { () throws(SecretError) in try store.setSecret("\(account)-secret", forAccount: account) })
        for step in ["read", "read-again"] {
            print(describe("\(step)-\(account)") { () throws(SecretError) in try store.secret(forAccount: account) ?? "nil" })
        }
    }
    print("restarted \(runShell(commandIn: "RIZQ_RESTART_COMMAND"))")
    // "kept" first: its read finds the daemon gone and reconnects; "cleared" comes after that.
    for account in ["kept", "cleared"] {
        for step in ["read-after-restart", "read-again-after-restart"] {
            print(describe("\(step)-\(account)") { () throws(SecretError) in try store.secret(forAccount: account) ?? "nil" })
        }
    }
    exit(0)
}
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: SERVICE ACCOUNT | locked SERVICE | frozen SERVICE PID | restart SERVICE | cache-locked SERVICE | cache-restart SERVICE\n".utf8))
    exit(2)
}
let store = SecretServiceStore(service: arguments[0], timeout: 5)
let started = Date()
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
print(String(format: "seconds %.3f", Date().timeIntervalSince(started)))
