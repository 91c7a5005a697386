#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqSecrets

/// `rizq-prefs secret unlock [--timeout 8h]`
struct SecretUnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the vault once, for every process of this user, until the time-out or a reboot.",
        discussion: """
            Opens the service's vault through its key slots (systemd-creds as root, a key file, a \
            passphrase from RIZQ_SECRETS_PASSPHRASE_FILE, _FD, _COMMAND, or typed on the terminal), \
            checks that the key opens the vault, and caches the key in the kernel keyring (the \
            user's persistent keyring, else the user keyring; readable by this user's processes \
            only) for --timeout: until then, cron jobs, services and other shells of this user \
            need no key source. Where the kernel keyring is refused (a container's seccomp profile) \
            it says so; the vault works without the cache. A service with no vault gets one, with \
            every slot that can be made now (on a terminal: a passphrase, asked twice).
            """)

    @OptionGroup var name: SecretNameOptions

    @Option(help: ArgumentHelp("How long the key stays cached: seconds, or a number with s, m, h or d (default: 8h).", valueName: "duration"),
            transform: SecretUnlockCommand.parseDuration)
    var timeout: Int64 = 8 * 3600

    static func parseDuration(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = text
        var unit: Int64 = 1
        if let last = text.last, let factor = units[last] {
            number = String(text.dropLast())
            unit = factor
        }
        guard let value = Int64(number), value > 0, value <= 366 * 86400 / unit else {
            throw ValidationError("give a duration such as 8h, 30m, 90s or 3600 (more than 0, at most a year)")
        }
        return value * unit
    }

    func run() throws {
        let chain = try name.chain()
        let unlocked = try CLIError.secrets { () throws(SecretError) in try chain.unlockVault(timeout: .seconds(timeout)) }
        if unlocked.created, let vault = chain.vault { Output.line("made the vault \(vault.folder)") }
        if unlocked.becameWriteTarget { Output.line("the vault is now where the secrets of \(chain.service) are written") }
        Output.line(unlocked.report.summary)
    }
}
#endif
