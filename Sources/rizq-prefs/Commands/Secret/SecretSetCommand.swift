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
            one trailing newline is dropped (so 'echo "$TOKEN" | rizq-prefs secret set KEY' stores \
            the token itself). An empty secret is refused. Replaces the secret of an existing item.

            Example:
              printf '%s' "$TOKEN" | rizq-prefs secret set --app com.rizq.app auth_token --label "RIZQ sign-in"
            """)

    @OptionGroup var options: SecretOptions

    @Argument(help: "The account: the secret's name, such as auth_token.", transform: NegativeNumbers.unmarked)
    var key: String

    @Option(help: ArgumentHelp("The label keyring managers show (default: 'KEY (SERVICE)').", valueName: "text"))
    var label: String?

    func run() throws {
        let store = try options.openStore()
        var secret = isatty(STDIN_FILENO) != 0 ? Self.prompt("Secret for '\(key)': ") : FileHandle.standardInput.readDataToEndOfFile()
        if secret.last == 0x0A { secret.removeLast() }
        if secret.last == 0x0D { secret.removeLast() }
        guard !secret.isEmpty else {
            throw CLIError(.usage, "the secret is empty; give it on stdin, e.g. printf '%s' \"$TOKEN\" | rizq-prefs secret set \(key)")
        }
        let isText = String(data: secret, encoding: .utf8) != nil
        try CLIError.secrets { () throws(SecretError) in
            try store.storeSecret(secret, isText: isText, forAccount: key, label: label)
        }
        secret.resetBytes(in: 0..<secret.count)
    }

    /// Reads one line from the terminal with echo off.
    private static func prompt(_ text: String) -> Data {
        Output.prompt(text)
        var saved = termios()
        let haveTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if haveTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            Output.prompt("\n")
        }
        var line = Data()
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1, byte != 0x0A {
            line.append(byte)
        }
        return line
    }
}
