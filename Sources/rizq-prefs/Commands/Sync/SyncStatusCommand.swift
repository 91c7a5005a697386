#if CLI
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
            Below the table: each device whose stamps are more than a minute from this device's \
            clock, with the offset (a clock that is off decides edits made on two devices before \
            either saw the other's), and each key whose last merge such a clock decided. \
            --json prints an array of {"suite", "app", "folder", "status", "device", "devices", \
            "keys", "clocks": [{"device", "thisDevice", "offsetMilliseconds", "text", "fix"}], \
            "decidedByClock": {key: explanation}}.
            """)

    @Flag(help: "Print a JSON array.")
    var json = false

    func run() throws {
        var rows: [[String]] = []
        var items: [PrefValue] = []
        var notes: [String] = []
        for enabled in DeviceSync.enabledSuites() {
            let store = try SyncSuiteOptions.open(suite: enabled.suite, app: enabled.app)
            let sync: DeviceSync
            let configuration: DeviceSyncConfiguration
            let devices: [String: ChangeStamp]
            let keys: Set<String>
            let skews: [ClockSkew]
            let decided: [String: String]
            do throws(SyncError) {
                guard let opened = try store.deviceSync() else { continue }
                sync = opened
                configuration = try sync.configuration
                devices = try sync.devices
                keys = try sync.syncedKeys
                skews = try sync.clockSkews
                decided = try sync.decidedByClock
            } catch {
                throw CLIError(error)
            }
            for skew in skews { notes.append("\(store.suiteName): clock: \(skew); \(skew.fix)") }
            for (_, explanation) in decided.sorted(by: { $0.key < $1.key }) { notes.append("\(store.suiteName): decided by a clock: \(explanation)") }
            let status = sync.status
            rows.append([store.suiteName, enabled.app ?? "(group)", status.description, configuration.folder, "\(devices.count)", "\(keys.count)"])
            items.append([
                "suite": .string(store.suiteName), "app": enabled.app.map(PrefValue.string) ?? .null,
                "folder": .string(configuration.folder), "status": .string(status.description),
                "device": .string(sync.replicaID), "devices": .array(devices.keys.sorted().map(PrefValue.string)),
                "keys": .array(keys.sorted().map(PrefValue.string)),
                "clocks": .array(skews.map(\.json)),
                "decidedByClock": .dictionary(decided.mapValues(PrefValue.string)),
            ])
        }
        if json {
            Output.line(DisplayText.escapedJSON(PrefValue.array(items).json))
        } else if rows.isEmpty {
            Output.line("no suite is synced; enable one with 'rizq-prefs sync enable SUITE --folder PATH'")
        } else {
            Output.raw(Table(header: ["SUITE", "APP", "STATUS", "FOLDER", "OTHER DEVICES", "KEYS"], rows: rows).text)
            for note in notes { Output.line(DisplayText.escaped(note)) }
        }
    }
}
#endif
