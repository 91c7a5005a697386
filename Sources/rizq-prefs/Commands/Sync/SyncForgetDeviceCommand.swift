import RizqCommandLine
import ArgumentParser
import RizqPrefs
import RizqSync

/// `rizq-prefs sync forget-device ID`
struct SyncForgetDeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget-device",
        abstract: "Remove a device that is gone for good from every synced suite (or one).",
        discussion: """
            Removes the device's replica file from each synced folder (the sync engine spreads the \
            removal) and ignores that device from then on, unless it publishes something newer. \
            Its changes merged so far stay: this device's replica carries them. The ids are those \
            'rizq-prefs sync status --json' lists under "devices".
            """)

    @Argument(help: ArgumentHelp("The device's replica id.", valueName: "id"))
    var id: String

    @Option(help: ArgumentHelp("Only this suite.", valueName: "name"))
    var suite: String?

    @Option(name: .customLong("app"), help: ArgumentHelp("The app of --suite.", valueName: "id"))
    var app: String?

    func run() throws {
        var removed = 0
        var suites = 0
        for enabled in DeviceSync.enabledSuites() {
            if let suite, enabled.suite != suite || (app != nil && enabled.app != app) { continue }
            let store = try SyncSuiteOptions.open(suite: enabled.suite, app: enabled.app)
            do throws(SyncError) {
                guard let sync = try store.deviceSync() else { continue }
                suites += 1
                if try sync.forgetDevice(id) { removed += 1 }
            } catch {
                throw CLIError(error)
            }
        }
        guard suites > 0 else {
            throw CLIError(.notFound, suite.map { "suite \($0) is not synced" } ?? "no suite is synced")
        }
        Output.line("device \(id) forgotten in \(suites) suite\(suites == 1 ? "" : "s"); replica files removed: \(removed)")
    }
}
