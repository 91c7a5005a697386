#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs
import RizqSync

/// `rizq-prefs sync now SUITE`
struct SyncNowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Merge what the synced folder holds into the suite, and publish this device's replica, once.",
        discussion: """
            Records the suite's local changes of synced keys (stamped now, if no running app \
            stamped them as they happened), merges every device's replica key by key, writes what \
            other devices changed into the suite (apps see it as any change), and writes this \
            device's replica — after the initial sync only. Conflict copies of replicas in the \
            folder are merged and archived too. A running app that uses DeviceSync does this by \
            itself, watching the folder. What other devices published and this device did not \
            take is said, with why ("skipped: …"): a link, FIFO or unreadable replica, one whose \
            "replica" field is not its name's device, a stamp more than a day ahead of this \
            device's clock, a credential, a value the suite cannot hold or that would make it too \
            large. So are clocks far off ("clock: …"), and an edit that lost because of them \
            ("decided by a clock: …"). --json prints {"merged": […], "recorded": […], \
            "published": …, "refused": {…}, "skipped": [{"path", "device", "key", "reason"}], \
            "clocks": [{"device", "offsetMilliseconds", "text"}], "decidedByClock": {…}, "status": …}.
            """)

    @OptionGroup var target: SyncSuiteOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let store = try target.openStore()
        let report: SyncReport
        do throws(SyncError) {
            guard let sync = try store.deviceSync() else { throw .notEnabled(suite: store.suiteName) }
            report = try sync.syncNow()
        } catch {
            throw CLIError(error)
        }
        if json {
            let object: PrefValue = [
                "merged": .array(report.merged.map(PrefValue.string)),
                "recorded": .array(report.recorded.map(PrefValue.string)),
                "published": .bool(report.published),
                "refused": .dictionary(report.refused.mapValues(PrefValue.string)),
                "initialSyncCompleted": .bool(report.initialSyncCompleted),
                "skipped": .array(report.skipped.map(\.json)),
                "clocks": .array(report.clockSkews.map(\.json)),
                "decidedByClock": .dictionary(report.decidedByClock.mapValues(PrefValue.string)),
                "status": .string(report.status.description),
            ]
            Output.line(DisplayText.escapedJSON(object.json))
            return
        }
        if report.initialSyncCompleted { Output.line("initial sync completed") }
        Output.line("merged: " + (report.merged.isEmpty ? "nothing" : report.merged.joined(separator: ", ")))
        Output.line("recorded: " + (report.recorded.isEmpty ? "nothing" : report.recorded.joined(separator: ", ")))
        Output.line("published: " + (report.published ? "yes" : "no change"))
        for (key, reason) in report.refused.sorted(by: { $0.key < $1.key }) {
            Output.line("not synced: \(key) (\(reason))")
        }
        for skipped in report.skipped {
            Output.line(DisplayText.escaped("skipped: \(skipped)"))
        }
        for skew in report.clockSkews {
            Output.line(DisplayText.escaped("clock: \(skew)"))
        }
        for (_, explanation) in report.decidedByClock.sorted(by: { $0.key < $1.key }) {
            Output.line(DisplayText.escaped("decided by a clock: \(explanation)"))
        }
        Output.line("status: \(report.status)")
    }
}

extension SkippedInput {
    /// `{"path", "device", "key", "reason"}` (`null` for what is not known).
    var json: PrefValue {
        [
            "path": .string(path), "device": device.map(PrefValue.string) ?? .null, "key": key.map(PrefValue.string) ?? .null,
            "reason": .string(reason),
        ]
    }
}

extension ClockSkew {
    /// `{"device", "thisDevice", "offsetMilliseconds", "text", "fix"}`.
    var json: PrefValue {
        [
            "device": .string(device), "thisDevice": .bool(isThisDevice), "offsetMilliseconds": .int(Int(offsetMilliseconds)),
            "text": .string(description), "fix": .string(fix),
        ]
    }
}
#endif
