#if CLI
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
            'rizq-prefs sync status --json' lists under "devices". An id no synced suite knows \
            changes nothing and exits 1.
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
        var forgotten = 0
        var known: Set<String> = []
        for enabled in DeviceSync.enabledSuites() {
            if let suite, enabled.suite != suite || (app != nil && enabled.app != app) { continue }
            let store = try SyncSuiteOptions.open(suite: enabled.suite, app: enabled.app)
            do throws(SyncError) {
                guard let sync = try store.deviceSync() else { continue }
                suites += 1
                do throws(SyncError) {
                    if try sync.forgetDevice(id) { removed += 1 }
                    forgotten += 1
                } catch .unknownDevice(_, let others) {
                    // Not a device of this suite: another suite may know it.
                    known.formUnion(others)
                }
            } catch {
                throw CLIError(error)
            }
        }
        guard suites > 0 else {
            throw CLIError(.notFound, suite.map { "suite \($0) is not synced" } ?? "no suite is synced")
        }
        guard forgotten > 0 else {
            throw CLIError(error: .unknownDevice(id: id, known: known.sorted()), suites: suites)
        }
        Output.line("device \(id) forgotten in \(forgotten) suite\(forgotten == 1 ? "" : "s"); replica files removed: \(removed)")
    }
}

extension CLIError {
    /// No synced suite knows the device: nothing was changed (exit 1).
    fileprivate init(error: SyncError, suites: Int) {
        guard case .unknownDevice(let id, let known) = error else {
            self.init(error)
            return
        }
        self.init(
            .notFound,
            "no device '\(id)' is known to the \(suites) synced suite\(suites == 1 ? "" : "s") looked at ("
                + (known.isEmpty ? "they have merged no other device" : "known: " + known.joined(separator: ", "))
                + "); nothing was changed: take the id from 'rizq-prefs sync status --json' (\"devices\")")
    }
}
#endif
