#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs
import RizqSync

/// `rizq-prefs sync merge-conflicts`
struct SyncMergeConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-conflicts",
        abstract: "Merge stray conflict copies (*.sync-conflict-*) of suites and replicas key by key, and archive them.",
        discussion: """
            A sync engine leaves a conflict copy when two devices changed one file: of a suite file \
            (when a suite's own folder was synced, or a backup restored) or of a replica (a cloned \
            device). Each copy is merged key by key — a replica's by change stamp; a suite copy's \
            keys count as changed when the copy was last modified, and a key the suite lacks is \
            taken — then moved to <root>/sync/conflicts/. Every suite under the root is looked at, \
            synced or not. A second run changes nothing. --dry-run only says what would change. \
            A copy that is a link (never followed), a FIFO, another user's file or not JSON is \
            skipped and left in place, with the reason; the others are merged all the same.
            """)

    @Flag(help: "Say what would change; change and move nothing.")
    var dryRun = false

    func run() throws {
        var merges: [ConflictCopyMerge] = []
        let synced = Set(DeviceSync.enabledSuites().map { "\($0.app ?? "")\u{0}\($0.suite)" })
        let suites: [SuiteCatalog.Entry]
        do {
            suites = try SuiteCatalog().suites()
        } catch {
            throw CLIError(error)
        }
        var seen: Set<String> = []
        for entry in suites where !ConflictCopyName.isConflictCopy(entry.suiteName) {
            seen.insert("\(entry.appID ?? "")\u{0}\(entry.suiteName)")
            let store = try SyncSuiteOptions.open(suite: entry.suiteName, app: entry.appID)
            merges += try merge(store, synced: synced.contains("\(entry.appID ?? "")\u{0}\(entry.suiteName)"))
        }
        // A synced suite with no file yet may still have replica copies in its folder.
        for enabled in DeviceSync.enabledSuites() where !seen.contains("\(enabled.app ?? "")\u{0}\(enabled.suite)") {
            merges += try merge(try SyncSuiteOptions.open(suite: enabled.suite, app: enabled.app), synced: true)
        }
        if merges.isEmpty {
            Output.line("no conflict copies")
            return
        }
        for merge in merges {
            if let reason = merge.skipped {
                Output.line(DisplayText.escaped("\(merge.path): \(merge.kind.rawValue) copy skipped, left in place: \(reason)"))
                continue
            }
            let keys = merge.changedKeys.isEmpty ? "no key changed" : "keys " + merge.changedKeys.joined(separator: ", ")
            let place = dryRun ? "(dry run: nothing changed)" : merge.archivedTo.map { "archived to \($0)" } ?? "left in place (could not be moved)"
            Output.line("\(merge.path): \(merge.kind.rawValue) copy, \(keys); \(place)")
        }
    }

    private func merge(_ store: SuiteStore, synced: Bool) throws(CLIError) -> [ConflictCopyMerge] {
        do throws(SyncError) {
            if synced, let sync = try store.deviceSync() {
                return try sync.mergeConflictCopies(dryRun: dryRun)
            }
            return try SuiteConflictCopies.merge(into: store, dryRun: dryRun)
        } catch {
            throw CLIError(error)
        }
    }
}
#endif
