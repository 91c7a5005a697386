#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqPrefs
import RizqSync

/// `rizq-prefs sync enable SUITE --folder PATH`
struct SyncEnableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable",
        abstract: "Sync a suite through a folder that a sync engine shares.",
        discussion: """
            PATH is a folder Syncthing shares with your other devices (or a folder inside one), for \
            this suite's replicas only. Synced are the keys given with --keys, and the keys apps \
            declare with Key(…, sync: true). On the first device, pass --first-device: its values \
            are the starting point and it publishes at once. Any other device publishes nothing \
            until it has merged another device's replica, so its old values never overwrite the \
            others'. Running it again changes the settings; another --folder is an account change: \
            the suite then takes the new folder's values (the same folder written another way — \
            DIR/, DIR/., a link to it — is the same folder).

            Examples:
              rizq-prefs sync enable com.example.notes --folder ~/Sync/rizq/notes --keys theme,fontSize --first-device
              rizq-prefs sync enable com.example.notes --folder ~/Sync/rizq/notes --keys theme,fontSize
            """)

    @OptionGroup var target: SyncSuiteOptions

    @Option(help: ArgumentHelp("The synced folder (created if missing only when its parent exists).", valueName: "path"), completion: .directory)
    var folder: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Keys to sync, besides those marked sync: true (names, or one comma-separated list).", valueName: "key"))
    var keys: [String] = []

    @Flag(help: "This device starts the synced state (its values win over those other devices had before they joined).")
    var firstDevice = false

    @Flag(help: "Only the keys given with --keys, not those apps mark with sync: true.")
    var onlyListedKeys = false

    @Flag(help: "Apple's NSUbiquitousKeyValueStore limits: 1,024 keys, 1 MB in all and per value.")
    var appleLimits = false

    @Option(help: ArgumentHelp("Syncthing's home (with config.xml): the status asks its REST API, and each publish asks it to rescan at once.", valueName: "path"), completion: .directory)
    var syncthingHome: String?

    @Flag(help: "Do not look for a sync engine (an engine other than Syncthing, whose folders have no .stfolder marker).")
    var noEngineCheck = false

    func validate() throws {
        if noEngineCheck, syncthingHome != nil { throw ValidationError("--no-engine-check and --syncthing-home disagree; give one") }
    }

    func run() throws {
        let store = try target.openStore()
        let absolute = Self.absolute(folder)
        var configuration = DeviceSyncConfiguration(folder: absolute)
        configuration.keys = keys.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
        configuration.includesMarkedKeys = !onlyListedKeys
        configuration.isFirstDevice = firstDevice
        if appleLimits { configuration.limits = .apple }
        if let syncthingHome { configuration.engineCheck = .syncthing(home: Self.absolute(syncthingHome)) }
        if noEngineCheck { configuration.engineCheck = .none }
        let parent = (absolute as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: absolute), FileManager.default.fileExists(atPath: parent) {
            try? FileManager.default.createDirectory(atPath: absolute, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        let sync: DeviceSync
        do throws(SyncError) {
            sync = try store.enableDeviceSync(configuration)
        } catch {
            throw CLIError(error)
        }
        let kept = (try? sync.configuration.folder) ?? absolute
        Output.line("sync of suite \(store.suiteName) enabled: folder \(kept), device \(sync.replicaID)")
        Output.line("status: \(sync.status)")
    }

    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
    }
}
#endif
