#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqImport
import RizqPrefs
import RizqProfiles
import RizqSecrets

/// `rizq-prefs import-app FILE` and `rizq-prefs import-app --from SOURCE` (first named
/// `rizq-prefs migrate`, which still works and says so): a thin command over
/// `Importer`, fed by a dump file, a browser profile or a property list (see ``ImportInput``).
///
/// An import (RizqImport) in its name, its report and its record, as "migration" means schema
/// versions only. `rizq-prefs import` is another
/// command: a JSON object in the suite file's format into one suite (`ImportCommand`).
struct ImportDumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-app",
        abstract: HandedOverCommand.importApp.abstract,
        discussion: """
            --from SOURCE reads a browser's own storage, from a private copy (the profile is never \
            changed, and the browser may be running): chrome, chromium, brave, edge, vivaldi, firefox \
            (the default profile, or --profile NAME), electron:<AppName> (~/.config/<AppName>), a \
            profile folder, a 'Local Storage/leveldb' folder, a Firefox storage/default/<origin> \
            folder, or a .localstorage/.sqlite file. --list prints \
            its origins with their key counts and sizes; choose one with --origin. A key or value that \
            is not valid Unicode as stored (a lone UTF-16 surrogate) is skipped and named in the \
            report, unless the plan says "undecodable": "replace" or "data".

            --from FILE.plist reads an Apple defaults property list, XML or binary (defaults export \
            DOMAIN FILE.plist on a Mac, Library/Preferences/<id>.plist from an iOS backup or simulator, \
            or ~/.config/<suite>.plist as Foundation's UserDefaults writes it on Linux); values keep \
            their types, and data holding a JSON-encoded Codable becomes nested JSON.

            FILE (or - for stdin) is a dump of the web app's localStorage: JSON.stringify(localStorage) \
            from the browser's console, Object.entries(localStorage), a Playwright storageState file \
            (choose the origin with --origin), Cypress getAllLocalStorage() output, or the DevTools \
            shape {"entries": [[key, value], …]}.

            With --plan, each key goes where the plan says. Without one (and for keys the plan does \
            not name, unless it says "unmapped": "skip"), every key goes to --suite with an inferred \
            type, login state in progress is skipped, and credentials (JWTs, keys of auth libraries, \
            keys named like tokens, JSON holding tokens) go to the secret store (the chain of `rizq-prefs secret backends`) under --service, \
            never to a suite file.

            Secrets are written first, then each suite in one batch, then a record of the import; \
            if anything fails, the suites are left as they were, the secrets written are removed \
            (or put back, with --overwrite), and nothing is recorded. The same happens when the \
            import is interrupted (Ctrl-C, SIGTERM, SIGHUP): it stops after the step under way, \
            rolls back, says so, and ends by that signal (status 130 for Ctrl-C); a second Ctrl-C \
            stops it at once. Before each secret write the import notes the secret's service and \
            account (never its value) in a journal beside the record \
            (<root>/apps/<app id>/.rizq-import-*.journal): if the import is killed outright \
            (kill -9, a crash, a power cut), the next 'rizq-prefs import-app' for the app — or \
            'rizq-prefs import-app --recover' alone — removes the secrets that import created, names \
            those it may have replaced (their earlier value cannot be brought back), and says so \
            on stderr; 'rizq-prefs doctor' reports such a journal. An import runs once: a second \
            run with the same plan id (without a plan: the same input) says "already imported" and \
            changes nothing. Values already in a suite or the secret store are kept unless \
            --overwrite. The report lists every key and never shows a secret. The record \
            (<root>/apps/<app id>/rizq-imports.json) is not a suite: 'suites' does not list it \
            and --suite rizq-imports is refused. Imports recorded in rizq-migrations.json (the \
            record's earlier name) still count as done.

            Exit status: 0 imported, dry run, listed, already imported, or recovered; 2 the dump, the \
            profile or the plan cannot be used; 3 a suite cannot be read or written; 4 the Secret \
            Service is unavailable, locked or failed; 5 the report could not be written to stdout \
            (the import itself is done); killed by the signal (128 + N) when interrupted.

            Examples:
              rizq-prefs import-app --from chromium --list
              rizq-prefs import-app --from electron:Obsidian --app md.obsidian --dry-run
              rizq-prefs import-app --from com.rizq.app.plist --app com.rizq.app --dry-run
              rizq-prefs import-app localstorage.json --app com.rizq.app --plan rizq-web.plan.json --dry-run
              rizq-prefs import-app state.json --app com.rizq.app --origin https://app.rizq.io --json
              rizq-prefs import-app --app com.rizq.app --recover

            'rizq-prefs migrate' is the name the first releases gave this command (in this \
            project "migration" means a suite's schema versions: 'rizq-prefs schema'); it still \
            works and says so. The report's first line is "Import 'ID': …" and its JSON member \
            "import" (both said "migration" before: CHANGELOG.md).
            """,
        aliases: HandedOverCommand.importApp.aliases)

    @Argument(help: ArgumentHelp("The localStorage dump, or - for stdin (or use --from).", valueName: "file"), completion: .file())
    var file: String?

    @Option(help: ArgumentHelp(
        "A browser (chrome, chromium, brave, edge, vivaldi, firefox), electron:<AppName>, a profile folder, a 'Local Storage/leveldb' folder, or a .localstorage/.sqlite/.plist file.",
        valueName: "source"))
    var from: String?

    @Option(help: ArgumentHelp("With --from: the browser profile, by folder (Profile 1) or by the name the browser shows (default: Default).", valueName: "name"))
    var profile: String?

    @Flag(help: "With --from: list the origins with their key counts and sizes (no values), and import nothing.")
    var list = false

    @Option(help: ArgumentHelp("The import plan, a JSON file (see README, \"The plan\").", valueName: "plan"), completion: .file(extensions: ["json"]))
    var plan: String?

    @Option(help: ArgumentHelp("The origin to import from a file that holds several.", valueName: "origin"))
    var origin: String?

    @Option(help: ArgumentHelp(
        "The dump's format: \(ImportDump.Format.dumpFileFormats.map(\.rawValue).joined(separator: ", ")) (default: recognised from its shape).",
        valueName: "format"))
    var format: String?

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("The service of the secrets: the Secret Service's 'service' attribute, the vault's folder (default: the plan's, else the app id).", valueName: "name"))
    var service: String?

    @Flag(help: "Print every write the import would make (secrets redacted) and change nothing.")
    var dryRun = false

    @Flag(help: "Import again an input (or a plan id) that was imported before.")
    var force = false

    @Flag(help: "Replace values that the suites and the secret store already hold.")
    var overwrite = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(help: "Only remove what an earlier import of the app left when it was killed (from its journal), and import nothing.")
    var recover = false

    func validate() throws {
        if recover, file != nil || from != nil || plan != nil || dryRun {
            throw ValidationError("--recover takes no input: it only settles what a killed import left; run the import itself without --recover")
        }
        if let format, !ImportDump.Format.dumpFileFormats.contains(where: { $0.rawValue == format }) {
            throw ValidationError("unknown format '\(format)'; use one of \(ImportDump.Format.dumpFileFormats.map(\.rawValue).joined(separator: ", "))")
        }
        if from == nil {
            if profile != nil { throw ValidationError("--profile chooses a browser profile: use it with --from") }
            if list { throw ValidationError("--list shows the origins of a browser's storage: use it with --from") }
        } else if format != nil {
            throw ValidationError("--format is for dump files; --from reads the browser's storage as it is")
        }
    }

    func run() throws {
        if CommandNames.typedAlias("migrate", root: SecretsToolCommand.self) {
            Output.note("rizq-prefs: 'rizq-prefs migrate' is now 'rizq-prefs import-app' (\"migrate\" means schema versions only); the old name keeps working")
        }
        if recover {
            try requireApp()
            guard let appID = store.appID else { throw Self.noApp }
            let recoveries = try Self.recoverKilledImports(appID: appID)
            if recoveries.isEmpty { Output.note("no import of app \(appID) was left unfinished: nothing to do") }
            return
        }
        guard let dump = try readInput() else { return }
        guard let appID = store.appID else { throw Self.noApp }
        try runImport(dump, appID: appID)
    }

    /// The dump FILE or `--from` names; `nil` when `--list` printed its origins instead.
    private func readInput() throws -> ImportDump? {
        let input = try ImportInput(file: file, from: from)
        let dump: ImportDump
        switch input {
        case .dump(let file):
            try requireApp()
            dump = try readDump(file)
        case .profile(let source):
            let storage = try Self.readProfile(source, profile: profile)
            if list {
                let listing = ProfileListing(storage: storage)
                if json { Output.line(listing.json) } else { Output.raw(listing.text) }
                return nil
            }
            try requireApp()
            do {
                dump = try storage.dump(origin: origin)
            } catch {
                throw CLIError(.usage, error.description)
            }
        case .plist(let path):
            do {
                dump = try ImportDump(contentsOfFile: path, format: .plist, origin: origin)
            } catch {
                throw CLIError(.usage, error.description)
            }
            if list {
                let listing = PropertyListListing(dump: dump, path: path)
                if json { Output.line(listing.json) } else { Output.raw(listing.text) }
                return nil
            }
            try requireApp()
        }
        return dump
    }

    /// Imports `dump` for `appID`: the plan, what killed imports left settled first, Ctrl-C
    /// undoing what this one wrote, the report.
    private func runImport(_ dump: ImportDump, appID: String) throws {
        var importPlan: ImportPlan?
        if let plan {
            do {
                importPlan = try ImportPlan(contentsOfFile: plan)
            } catch {
                throw CLIError(.usage, error.description)
            }
        }
        let options = Importer.Options(
            dryRun: dryRun, force: force, overwrite: overwrite, defaultSuite: store.suite, secretService: service, appID: appID)
        if dryRun {
            for journal in ImportJournal.unfinished(appID: appID, root: SuiteLocation.defaultRoot()) {
                Output.error("note: an earlier \(journal.title) was killed before it finished; a real import first removes the \(journal.secrets.count) secret(s) its journal names")
            }
        } else {
            _ = try Self.recoverKilledImports(appID: appID)
        }
        var importer = Importer(plan: importPlan, options: options)
        let interruption = ImportInterruption()
        importer.interruption = interruption
        if !dryRun {
            interruption.watchSignals { signal in
                Output.error("interrupted by \(ImportError.signalName(signal)): stopping after the step under way and undoing what this import wrote; a second Ctrl-C stops at once (the next 'rizq-prefs import-app' then removes what is left)")
            }
        }
        let report: ImportReport
        do {
            report = try importer.run(dump)
        } catch {
            if case .interrupted(let signal, _) = error {
                Output.error(Self.failure(error).message)
                fflush(nil)
                ImportInterruption.end(by: signal)
            }
            throw Self.failure(error)
        }
        // Recorded: the import is complete, whatever signal comes now.
        interruption.stopWatching()
        Output.doneBeforeOutput = "the import itself is complete"
        if json {
            Output.line(report.json)
        } else {
            Output.raw(report.text)
        }
    }

    /// Settles what killed imports of `appID` left (``ImportJournal``), saying what was done on
    /// stderr; stops the command (exit 4) when a secret could not be removed.
    static func recoverKilledImports(appID: String) throws(CLIError) -> [ImportRecovery] {
        let recoveries = ImportJournal.recover(appID: appID, root: SuiteLocation.defaultRoot())
        for recovery in recoveries { Output.error(recovery.summary) }
        if let unsettled = recoveries.first(where: { !$0.isSettled }) {
            throw CLIError(.secretService, "the secrets an earlier import left could not all be removed (\(unsettled.failed.map { $0.reason }.first ?? "")); nothing was imported: once the secret store answers, run 'rizq-prefs import-app --app \(appID) --recover'")
        }
        return recoveries
    }

    private static let noApp = CLIError(.usage, "no app given: pass --app ID or set RIZQ_PREFS_APP_ID (the import is recorded per app)")

    private func requireApp() throws(CLIError) {
        if store.appID == nil { throw Self.noApp }
    }

    /// Reads a browser's storage from a private copy; the profile is not changed.
    static func readProfile(_ source: ProfileSource, profile: String?) throws(CLIError) -> ProfileStorage {
        do {
            let location = try ProfileLocator().locate(source, profile: profile)
            return try ProfileStorage.read(location)
        } catch {
            throw CLIError(.usage, error.description)
        }
    }

    private func readDump(_ file: String) throws(CLIError) -> ImportDump {
        let chosenFormat = format.flatMap(ImportDump.Format.init(rawValue:))
        var stdin: Data?
        if file == "-" {
            do {
                stdin = try FileHandle.standardInput.read(upToCount: ImportDump.maximumSize + 1) ?? Data()
            } catch {
                throw CLIError(.usage, "cannot read stdin: \(error.localizedDescription)")
            }
        }
        do throws(ImportError) {
            if let stdin {
                return try ImportDump(bytes: [UInt8](stdin), source: "stdin", format: chosenFormat, origin: origin)
            }
            return try ImportDump(contentsOfFile: file, format: chosenFormat, origin: origin)
        } catch {
            throw CLIError(.usage, error.description)
        }
    }

    /// The exit status and one-line message of an import that stopped.
    static func failure(_ error: ImportError) -> CLIError {
        let message = error.description.replacingOccurrences(of: "\n", with: "; ")
        switch error {
        case .dump, .plan, .invalidOption, .conversion, .conflictingTargets:
            return CLIError(.usage, message)
        case .suite(let cause, _):
            return CLIError(CLIError(cause).status, message)
        case .secretService(let cause, _):
            return CLIError(CLIError(cause).status, message)
        case .interrupted:
            return CLIError(.usage, message)
        }
    }
}
#endif
