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

    /// The largest input accepted (as the local import).
    static let maximumSize = 64 * 1024 * 1024

    @OptionGroup var fleetOptions: FleetOptionsGroup

    @Argument(help: ArgumentHelp("The JSON file, or - for stdin.", valueName: "file"))
    var file: String

    @Flag(help: "Remove every key the file does not name.")
    var replace = false

    func run() async throws {
        let entries = try readEntries()
        let fleet = try fleetOptions.open()
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            do {
                try fleet.validate(value == .null ? nil : value, forKey: key)
            } catch {
                throw FleetCLIError(.usage, "\(displayName): \(error.description)")
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
                guard case .superseded = error else { throw FleetCLIError(error) }
                superseded.append(key)
            }
        }
        let written = changes.count - superseded.count
        Output.line("imported \(written) change\(written == 1 ? "" : "s") into fleet suite \(fleet.name) (\(entries.count - changes.count) key\(entries.count - changes.count == 1 ? "" : "s") already as in \(displayName))")
        if !superseded.isEmpty {
            throw FleetCLIError(.superseded, "a later change won for \(superseded.count) key\(superseded.count == 1 ? "" : "s"): \(superseded.joined(separator: ", ")); export again and review")
        }
    }

    private var displayName: String { file == "-" ? "stdin" : file }

    private func readEntries() throws(FleetCLIError) -> [String: PrefValue] {
        let handle: FileHandle
        if file == "-" {
            handle = FileHandle.standardInput
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
                throw FleetCLIError(.usage, "no file '\(file)'; give the path of a JSON file, or - to read stdin")
            }
            guard !isFolder.boolValue, let opened = FileHandle(forReadingAtPath: file) else {
                throw FleetCLIError(.usage, "cannot read '\(file)': \(isFolder.boolValue ? "it is a folder" : "permission denied"); give a readable JSON file")
            }
            handle = opened
        }
        let data: Data
        do {
            data = try handle.read(upToCount: Self.maximumSize + 1) ?? Data()
        } catch {
            throw FleetCLIError(.usage, "cannot read \(displayName): \(error.localizedDescription)")
        }
        guard data.count <= Self.maximumSize else {
            throw FleetCLIError(.usage, "\(displayName) is larger than 64 MiB; a suite is not that big: split the file")
        }
        let parsed: PrefValue
        do {
            parsed = try JSONReader.parseSuiteDocument(data).value
        } catch {
            throw FleetCLIError(.usage, "\(displayName) is not JSON (\(error.reason), line \(error.line), column \(error.column)); give a JSON object as 'rizq-prefs fleet export' writes it")
        }
        guard case .dictionary(let entries) = parsed else {
            throw FleetCLIError(.usage, "\(displayName) holds \(parsed.kindName), not a JSON object; give an object as 'rizq-prefs fleet export' writes it")
        }
        return entries
    }
}
