import RizqCommandLine
import ArgumentParser
import RizqPrefs
import RizqSync

/// `rizq-prefs sync status`
struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show every synced suite: its folder, status, devices and keys.",
        discussion: """
            STATUS is one of: up to date; initial sync (this device waits for another device's \
            replica and publishes nothing yet); folder missing; engine not running (Syncthing's \
            REST API does not answer, shares no folder holding this one, or has it paused — when \
            enabled with --syncthing-home; otherwise: no .stfolder marker in or above the folder). \
            --json prints an array of {"suite", "app", "folder", "status", "device", "devices", "keys"}.
            """)

    @Flag(help: "Print a JSON array.")
    var json = false

    func run() throws {
        var rows: [[String]] = []
        var items: [PrefValue] = []
        for enabled in DeviceSync.enabledSuites() {
            let store = try SyncSuiteOptions.open(suite: enabled.suite, app: enabled.app)
            let sync: DeviceSync
            let configuration: DeviceSyncConfiguration
            let devices: [String: ChangeStamp]
            let keys: Set<String>
            do throws(SyncError) {
                guard let opened = try store.deviceSync() else { continue }
                sync = opened
                configuration = try sync.configuration
                devices = try sync.devices
                keys = try sync.syncedKeys
            } catch {
                throw CLIError(error)
            }
            let status = sync.status
            rows.append([store.suiteName, enabled.app ?? "(group)", status.description, configuration.folder, "\(devices.count)", "\(keys.count)"])
            items.append([
                "suite": .string(store.suiteName), "app": enabled.app.map(PrefValue.string) ?? .null,
                "folder": .string(configuration.folder), "status": .string(status.description),
                "device": .string(sync.replicaID), "devices": .array(devices.keys.sorted().map(PrefValue.string)),
                "keys": .array(keys.sorted().map(PrefValue.string)),
            ])
        }
        if json {
            Output.line(PrefValue.array(items).json)
        } else if rows.isEmpty {
            Output.line("no suite is synced; enable one with 'rizq-prefs sync enable SUITE --folder PATH'")
        } else {
            Output.raw(Table(header: ["SUITE", "APP", "STATUS", "FOLDER", "OTHER DEVICES", "KEYS"], rows: rows).text)
        }
    }
}
