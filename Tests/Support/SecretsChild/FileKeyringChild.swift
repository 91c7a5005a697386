import Foundation
import RizqSecrets

// The file-keyring and Secret-portal commands, for the tests that run them in another
// environment: under bwrap with a /.flatpak-info (scripts/as-flatpak), beside a real or fake
// portal (scripts/with-portal), or with SECRET_FILE_TEST_* variables of their own.
//
//   rizq-secrets-test-child file-keyring SERVICE set ACCOUNT [LABEL]   (the secret on stdin)
//   rizq-secrets-test-child file-keyring SERVICE get ACCOUNT           "value HEX" | "missing"
//   rizq-secrets-test-child file-keyring SERVICE delete ACCOUNT        "deleted true|false"
//   rizq-secrets-test-child file-keyring SERVICE accounts              "accounts A,B"
//   rizq-secrets-test-child file-keyring SERVICE status                the status as one JSON line
//   rizq-secrets-test-child portal TIMEOUT                             "secret LENGTH HEX"
// Any failure prints "error CASE DESCRIPTION" (CASE: the SecretError case, or "portal"); the
// exit status is 0 either way.

/// The case name of an error ("wrongPassphrase"), for the tests to match on.
func caseName(_ error: SecretError) -> String {
    Mirror(reflecting: error).children.first?.label ?? "\(error)"
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

func runFileKeyring(_ arguments: [String]) -> Never {
    let store = FileKeyringStore(service: arguments[1], portalTimeout: 20)
    let command = arguments[2]
    let operand = arguments.count > 3 ? arguments[3] : ""
    do throws(SecretError) {
        switch command {
        case "set":
            let secret = FileHandle.standardInput.readDataToEndOfFile()
            try store.storeSecret(secret, isText: false, forAccount: operand, label: arguments.count > 4 ? arguments[4] : nil)
            print("stored")
        case "get":
            print(try store.secretBytes(forAccount: operand).map { "value " + hex($0) } ?? "missing")
        case "delete":
            print("deleted \(try store.deleteSecret(forAccount: operand))")
        case "accounts":
            print("accounts " + (try store.accounts()).joined(separator: ","))
        case "status":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: (try? encoder.encode(store.status())) ?? Data(), as: UTF8.self))
        default:
            print("error usage unknown command \(command)")
        }
    } catch {
        print("error \(caseName(error)) \(error)")
    }
    exit(0)
}

func runPortal(timeout: Double) -> Never {
    do throws(SecretPortalFailure) {
        let secret = try SecretPortal.retrieveSecret(timeout: timeout)
        print("secret \(secret.count) " + secret.withBytes { hex($0) })
    } catch {
        print("error portal \(error)")
    }
    exit(0)
}
