// A second process for the secret tests that need another environment.
//
//   rizq-secrets-test-child SERVICE ACCOUNT
//       reads one secret; prints "value <secret>", "missing" or "error <description>", then
//       "seconds <elapsed>"; exits 0.
//   rizq-secrets-test-child locked SERVICE
//       (inside a throw-away keyring session) stores an item, locks the default keyring, then
//       tries to store the secret given on stdin and to read the item back; prints one line per
//       step ("store-new error …", "read-existing error …", "accounts a,b", "locked true").
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
    exit(0)
}
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: SERVICE ACCOUNT | locked SERVICE\n".utf8))
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
