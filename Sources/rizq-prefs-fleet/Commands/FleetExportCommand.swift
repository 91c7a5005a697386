#if CLI
import RizqCommandLine
import ArgumentParser
import RizqFleet
import RizqJSON
import RizqPrefs

/// `rizq-prefs fleet export`
struct FleetExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a fleet suite as one JSON object, for review and for import.",
        discussion: """
            Keys sorted, two-space indented, dates and data in their tagged forms: the format of \
            'rizq-prefs export', a file to keep in version control, review, and give to \
            'rizq-prefs fleet import'. Change stamps are not part of it.

            Example:
              rizq-prefs fleet export --suite checkout > checkout.json
            """)

    @OptionGroup var fleetOptions: FleetOptionsGroup

    func run() async throws {
        let fleet = try fleetOptions.open()
        try await FleetReading.catchUp(fleet)
        do {
            var bytes = try JSONWriter.bytes(.dictionary(fleet.entries), pretty: true)
            if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
            Output.raw(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw CLIError(.storage, "cannot export fleet suite \(fleet.name): \(error)")
        }
    }
}
#endif
