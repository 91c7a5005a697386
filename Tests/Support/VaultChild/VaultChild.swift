import Foundation
import RizqSecrets

/// A child process for the vault tests: drives a VaultSecretStore from the command line, so that
/// the tests can use real processes (several writers, kill -9, another uid, a seccomp filter,
/// strace). Configuration comes from the environment (VaultConfiguration.fromEnvironment:
/// RIZQ_SECRETS_DIR, RIZQ_SECRETS_PASSPHRASE_FILE/_FD/_COMMAND, RIZQ_SECRETS_KEY_FILE), plus
/// RIZQ_TEST_TERMINAL=1 (ask on the terminal), RIZQ_TEST_NO_SYSTEMD=1, RIZQ_TEST_NO_CACHE=1,
/// RIZQ_TEST_WORK_FACTOR (scrypt log2 N), RIZQ_TEST_LOCK_TIMEOUT and RIZQ_TEST_COMMAND_TIMEOUT
/// (seconds).
/// Secrets come in on stdin and go out on stdout, never in an argument. Every outcome is one line
/// (`ok …`, or `error <case> <message>` with exit status 1).
///
/// `chain-writer SERVICE INDEX FROM TO` is `writer` through a ChainedSecretStore (its settings
/// from the environment: RIZQ_SECRETS_SYSTEMD_CREDS, RIZQ_SECRETS_KEYRING_CACHE, …), for the
/// writers that race to make the vault and remember it as the write target.
@main
struct VaultChild {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count >= 2 else { fail("usage", "vault-child COMMAND SERVICE …") }
        let command = arguments[0]
        let environment = ProcessInfo.processInfo.environment
        var configuration = VaultConfiguration.fromEnvironment()
        if environment["RIZQ_TEST_TERMINAL"] == "1" { configuration.passphraseSources.append(.terminal) }
        if environment["RIZQ_TEST_NO_SYSTEMD"] == "1" { configuration.usesSystemdCredentials = false }
        if environment["RIZQ_TEST_NO_CACHE"] == "1" { configuration.usesKeyringCache = false }
        if let factor = environment["RIZQ_TEST_WORK_FACTOR"].flatMap(Int.init) { configuration.scryptWorkFactor = factor }
        if let seconds = environment["RIZQ_TEST_LOCK_TIMEOUT"].flatMap(Double.init) { configuration.lockTimeout = seconds }
        if let seconds = environment["RIZQ_TEST_COMMAND_TIMEOUT"].flatMap(Double.init) { configuration.commandTimeout = seconds }
        let vault = VaultSecretStore(service: arguments[1], configuration: configuration)
        let rest = Array(arguments.dropFirst(2))
        if command == "chain-writer" {
            let chain = ChainedSecretStore(service: arguments[1])
            runWriter(rest) { (account, value) throws(SecretError) in try chain.setSecret(value, forAccount: account) }
        }
        do {
            try run(command, vault, rest)
        } catch {
            fail(caseName(error), error.description)
        }
    }

    static func run(_ command: String, _ vault: VaultSecretStore, _ rest: [String]) throws(VaultError) {
        switch command {
        case "create":
            let slots = (rest.first ?? "").split(separator: ",").compactMap { VaultKeySource(rawValue: String($0)) }
            print("ok created \(try vault.create(slots: slots))")
        case "set":
            let bytes = FileHandle.standardInput.readDataToEndOfFile()
            let binary = rest.dropFirst().contains("--binary")
            try vault.store(bytes, isText: !binary, forAccount: rest[0], label: nil)
            print("ok stored")
        case "get":
            let started = Date()
            let item = try vault.item(forAccount: rest[0])
            let seconds = Date().timeIntervalSince(started)
            guard let item else {
                print("absent")
                exit(3)
            }
            if rest.dropFirst().contains("--timed") { FileHandle.standardError.write(Data("seconds \(seconds)\n".utf8)) }
            FileHandle.standardOutput.write(item.data)
        case "timed-get":
            // The outcome and how long it took, for the report (the tests assert no durations).
            let started = Date()
            do {
                let item = try vault.item(forAccount: rest[0])
                print("ok \(item == nil ? "absent" : "present") seconds \(Date().timeIntervalSince(started))")
            } catch {
                print("error \(caseName(error)) seconds \(Date().timeIntervalSince(started)) \(error.description)")
                exit(1)
            }
        case "delete":
            print("ok \(try vault.remove(account: rest[0]))")
        case "list":
            print("ok " + (try vault.accountNames()).joined(separator: ","))
        case "unlock":
            let seconds = rest.first.flatMap(Int64.init) ?? 3600
            let report = try vault.unlock(timeout: .seconds(seconds))
            let failure = report.cacheFailureCode.map { "errno=\($0)" } ?? "none"
            print("ok unlocked source=\(report.source.rawValue) cached=\(report.isCached) keyring=\(report.keyring ?? "-") serial=\(report.keySerial ?? 0) failure=\(failure)")
            print("summary \(report.summary)")
        case "lock":
            print("ok locked \(try vault.lock())")
        case "status":
            for status in vault.keySourceStatuses() {
                print("\(status.source.rawValue) present=\(status.isPresent) usable=\(status.isUsable) protection=\(status.protection.rawValue) persistence=\(status.persistence.rawValue) reason=\(status.reason)")
            }
        case "add-slot":
            try vault.addSlot(VaultKeySource(rawValue: rest[0]) ?? .kernelKeyringCache)
            print("ok added")
        case "remove-slot":
            try vault.removeSlot(VaultKeySource(rawValue: rest[0]) ?? .kernelKeyringCache)
            print("ok removed")
        case "rekey":
            print("ok rekeyed \(try vault.rekey())")
        case "accept-restored":
            try vault.acceptRestoredVault()
            print("ok accepted")
        case "upgrade":
            print(try vault.upgradeUnsealedVault() ? "ok sealed" : "ok sealed already")
        case "set-aside":
            print("ok \(try vault.setAsideDamagedVault() ?? "none")")
        case "writer":
            runWriter(rest) { (account, value) throws(SecretError) in
                do throws(VaultError) { try vault.store(Data(value.utf8), isText: true, forAccount: account, label: nil) } catch { throw error.secretError }
            }
        default:
            fail("usage", "unknown command \(command)")
        }
    }

    /// writer SERVICE INDEX FROM TO: stores w<INDEX>-<i> for i in FROM..<TO with `store`,
    /// printing `ack <i>` only after each store returned (durable), then exits.
    static func runWriter(_ rest: [String], _ store: (String, String) throws(SecretError) -> Void) -> Never {
        guard rest.count == 3, let writer = Int(rest[0]), let from = Int(rest[1]), let to = Int(rest[2]) else {
            fail("usage", "writer SERVICE INDEX FROM TO")
        }
        print("ready")
        fflush(nil)
        for index in from..<to {
            do throws(SecretError) {
                try store("w\(writer)-\(index)", writerValue(writer: writer, index: index))
            } catch {
                fail("store", error.description)
            }
            print("ack \(index)")
            fflush(nil)
        }
        print("done")
        exit(0)
    }

    /// The value writer `writer` stores at `index` (the test computes the same).
    static func writerValue(writer: Int, index: Int) -> String {
        "value-\(writer)-\(index)-\(String((writer &* 7919 &+ index &* 104_729) & 0xFFFFFF, radix: 16))"
    }

    static func caseName(_ error: VaultError) -> String {
        switch error {
        case .invalidService: return "invalidService"
        case .invalidInput: return "invalidInput"
        case .notCreated: return "notCreated"
        case .alreadyExists: return "alreadyExists"
        case .noKeySource: return "noKeySource"
        case .wrongPassphrase: return "wrongPassphrase"
        case .keySourceFailed: return "keySourceFailed"
        case .wrongKey: return "wrongKey"
        case .damaged: return "damaged"
        case .damagedSlot: return "damagedSlot"
        case .fileSystem: return "fileSystem"
        case .unsafeFolder: return "unsafeFolder"
        case .untrusted: return "untrusted"
        case .timedOut: return "timedOut"
        case .invalidSlotChange: return "invalidSlotChange"
        case .unauthenticated: return "unauthenticated"
        case .rolledBack: return "rolledBack"
        case .vaultFull: return "vaultFull"
        case .invalidConfiguration: return "invalidConfiguration"
        }
    }

    static func fail(_ name: String, _ message: String) -> Never {
        print("error \(name) \(message)")
        exit(1)
    }
}
