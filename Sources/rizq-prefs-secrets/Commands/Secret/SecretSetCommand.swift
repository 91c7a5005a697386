#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqSecrets
#if canImport(Glibc)
import Glibc
#endif

/// `rizq-prefs secret set KEY`
struct SecretSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store a secret read from stdin.",
        discussion: """
            On a terminal, asks for the secret without echoing it. Otherwise reads all of stdin; \
            exactly one trailing newline (\\n) is dropped, so that 'echo "$TOKEN" | rizq-prefs \
            secret set KEY' stores the token itself; --raw keeps every byte. An empty secret is \
            stored as such. Replaces the secret of an existing item. The secret is never taken \
            from the command line, where other users' 'ps' and the shell's history would see it.

            --expires makes the secret expire: from then on reads answer as if it were missing \
            ('secret get' says it expired), and --refresh-token-file keeps the token that \
            renews it (printed by 'secret get --refresh-token'). Storing without them drops \
            the ones the secret had.

            A KEY that starts with '-' goes after '--': rizq-prefs secret set -- --odd-name.

            Example:
              printf '%s' "$TOKEN" | rizq-prefs secret set --app com.rizq.app auth_token --label "RIZQ sign-in"
            """)

    @OptionGroup var options: SecretOptions

    @OptionGroup var backend: SecretBackendOption

    @Argument(help: "The account: the secret's name, such as auth_token.", transform: NegativeNumbers.unmarked)
    var key: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The label keyring managers show (default: 'KEY (SERVICE)').", valueName: "text"),
            transform: NegativeNumbers.unmarked)
    var label: String?

    @OptionGroup var lifetimeOptions: SecretLifetimeOptions

    @Flag(help: "Store stdin exactly, without dropping a trailing newline.")
    var raw = false

    @Flag(help: "Store in the session keyring, forgotten when the keyring daemon stops (reads find items in every keyring).")
    var session = false

    @Flag(help: "If the vault is damaged, forged (not sealed by its key) or older than this machine has seen, move it aside (vault.age.damaged-<time>, kept) and start an empty vault with the same key; without it such a vault is never written over.")
    var force = false

    // Whatever else was typed, options included, so that a secret given as an argument is
    // refused without argument-parser repeating it in its error.
    @Argument(parsing: .allUnrecognized, help: .private)
    var unexpected: [String] = []

    func run() throws {
        guard unexpected.isEmpty else {
            throw CLIError(.usage, "secret set takes one argument, the key, and reads the secret from stdin, never from the command line (where 'ps' and the shell's history would show it); \(unexpected.count == 1 ? "the extra argument was" : "\(unexpected.count) extra arguments were") not shown (a mistyped option counts too: see 'rizq-prefs secret set --help'); pipe the secret in: printf '%s' \"$TOKEN\" | rizq-prefs secret set KEY")
        }
        let lifetime = try lifetimeOptions.lifetime()
        let store = try options.openStore(collection: session ? .session : .default, backend: backend.kind())
        if session {
            // The session keyring is the Secret Service's: a write that goes elsewhere would
            // outlive the session the user asked for.
            let target = try CLIError.secrets { () throws(SecretError) in try store.writeTarget() }
            guard target.backend == .secretService else {
                throw CLIError(.usage, "--session stores in the Secret Service's session keyring, but the secrets of '\(store.service)' go to \(target.backend) (\(target.reason)); nothing was stored: leave out --session, or use --backend secret-service")
            }
        }
        var secret = isatty(STDIN_FILENO) != 0 ? Self.prompt("Secret for '\(key)': ") : FileHandle.standardInput.readDataToEndOfFile()
        // Exactly one "\n", as documented: a lone "\r" (or the "\r" of "\r\n") may belong to the secret.
        if !raw, secret.last == 0x0A { secret.removeLast() }
        let isText = String(data: secret, encoding: .utf8) != nil
        defer { secret.resetBytes(in: 0..<secret.count) }
        do throws(SecretError) {
            try store.storeSecret(secret, isText: isText, forAccount: key, label: label, lifetime: lifetime)
        } catch {
            // A damaged vault is never written over, unless --force moves it aside first.
            // So is one whose contents are not sealed by its key (a forgery) or are older than this
            // machine has seen.
            let refusedPath: String? = switch error {
            case .damaged(let path, _), .untrusted(let path, _): path
            default: nil
            }
            guard force, let path = refusedPath, let vault = store.vault,
                path == vault.folder + "/vault.age"
            else { throw CLIError(error) }
            let aside = try CLIError.secrets { () throws(SecretError) in
                do throws(VaultError) { return try vault.setAsideDamagedVault() } catch { throw error.secretError }
            }
            Output.note("rizq-prefs: the damaged vault was moved aside to \(aside ?? path); an empty vault with the same key starts now")
            try CLIError.secrets { () throws(SecretError) in
                try store.storeSecret(secret, isText: isText, forAccount: key, label: label, lifetime: lifetime)
            }
        }
    }

    /// Reads one line from the terminal with echo off (back on however the prompt ends, Ctrl-C
    /// included). The prompt shows once echo is off (and typeahead discarded), so that what is
    /// typed after it is never echoed.
    private static func prompt(_ text: String) -> Data {
        TerminalEcho.withEchoOff(on: STDIN_FILENO, echoNewline: false) { () -> Data in
            Output.prompt(text)
            defer { Output.prompt("\n") }
            var line = Data()
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1, byte != 0x0A {
                line.append(byte)
            }
            return line
        }
    }
}
#endif
