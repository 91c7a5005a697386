#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqFleet
import RizqJSON
import RizqPrefs

/// `rizq-prefs fleet import FILE`
struct FleetImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Make a fleet suite hold the values of a JSON object (as 'fleet export' writes it).",
        discussion: """
            FILE (or - for stdin) holds one JSON object: each key whose value differs from the \
            suite's is set, a key whose value is null is removed, and with --replace every key \
            the object does not name is removed too. Keys already holding the value are left \
            alone (their change stamps too). Every value is checked before anything is sent: \
            input that is not a JSON object, or a value that looks like a credential, is an \
            error (exit 2) and nothing is written. Each key is its own change, decided as any \
            other (there is no transaction across keys): the command lists the keys where a later \
            change won and exits 7; exit 6 when the engine cannot be reached.

            Example:
              rizq-prefs fleet export --suite checkout > checkout.json
              # edit, review, commit checkout.json; then on any host:
              rizq-prefs fleet import --suite checkout checkout.json
            """)

    @OptionGroup var fleetOptions: FleetOptionsGroup

    @Argument(help: ArgumentHelp("The JSON file, or - for stdin.", valueName: "file"), completion: .file(extensions: ["json"]))
    var file: String

    @Flag(help: "Remove every key the file does not name.")
    var replace = false

    func run() async throws {
        let entries = try InputFile(file).readObject(writtenBy: "rizq-prefs fleet export")
        let fleet = try fleetOptions.open()
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            do {
                try fleet.validate(value == .null ? nil : value, forKey: key)
            } catch {
                throw CLIError(.usage, "\(displayName): \(error.description)")
            }
        }
        try await FleetReading.catchUpOrFail(fleet)
        var changes: [(String, PrefValue?)] = []
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            let current = fleet.value(forKey: key)
            if value == .null {
                if current != nil { changes.append((key, nil)) }
            } else if current != value {
                changes.append((key, value))
            }
        }
        if replace {
            for key in fleet.keys where entries[key] == nil { changes.append((key, nil)) }
        }
        var superseded: [String] = []
        for (key, value) in changes {
            do {
                try await fleet.set(value, forKey: key)
            } catch {
                guard case .superseded = error else { throw CLIError(error) }
                superseded.append(key)
            }
        }
        let written = changes.count - superseded.count
        Output.line("imported \(written) change\(written == 1 ? "" : "s") into fleet suite \(fleet.name) (\(entries.count - changes.count) key\(entries.count - changes.count == 1 ? "" : "s") already as in \(displayName))")
        if !superseded.isEmpty {
            throw CLIError(.superseded, "a later change won for \(superseded.count) key\(superseded.count == 1 ? "" : "s"): \(superseded.joined(separator: ", ")); export again and review")
        }
    }

    private var displayName: String { InputFile(file).displayName }
}
#endif
