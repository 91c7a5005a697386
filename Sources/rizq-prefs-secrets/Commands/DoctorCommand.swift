#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqImport
import RizqPrefs
import RizqSecrets
import RizqSync

/// `rizq-prefs doctor`
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: HandedOverCommand.doctor.abstract,
        discussion: """
            Checks, without changing anything: where the suite files are; that their folders are \
            yours and mode 0700 and the files yours, mode 0600, readable and valid JSON; damaged \
            files that were moved aside (<suite>.corrupt-<time>.json); folders that cannot be \
            listed (named, and every other one checked all the same); suite names that can pass \
            for others (look-alike or hidden characters: names are shown escaped); imports that \
            were killed before they finished and may have left secrets (the fix: rizq-prefs \
            migrate --app ID --recover); and the chain of secret backends ('rizq-prefs secret \
            backends'): that writes have somewhere to go, that the backend they go to is usable \
            (a Secret Service reachable and unlocked, a vault that a key source here opens), and \
            that every backend in the chain can be read; for each suite synced between devices, a \
            device whose stamps are more than a minute from this device's clock (with the offset) \
            and a key whose last merge such a clock decided; an administrator's layers and the \
            installed schemas: every layer folder looked in, every file read and the keys it sets, \
            every file left out and why (not root's, writable by others, too large, not a JSON \
            object), every stored value a schema forbids, and inside a Flatpak sandbox whether \
            the host's policy is visible. Each finding that needs you comes with a \
            fix. Exits 0 when nothing needs you (warnings, such as a folder other users can list, \
            are printed but do not fail), 3 when a suite file or folder does, else 4 when the \
            secrets do. --json prints \
            {"root": …, "healthy": …, "checks": [{"area", "severity", "path", "message", "fix"}]}.
            """)

    @Option(help: ArgumentHelp("The service whose secrets to check (default: the app id).", valueName: "name"))
    var service: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Check only the suite files, not the secret backends.")
    var skipSecrets = false

    private struct Check {
        var area: String
        var finding: SuiteCatalog.Finding
    }

    func validate() throws {
        if service?.isEmpty == true {
            throw ValidationError("--service is empty; give the service name, or leave --service out to use the app id")
        }
    }

    func run() throws {
        let catalog = SuiteCatalog()
        var checks = catalog.inspect().map { Check(area: "files", finding: $0) }
        checks += lookAlikeFindings(catalog).map { Check(area: "files", finding: $0) }
        checks += killedImportFindings(catalog).map { Check(area: "files", finding: $0) }
        checks += sandboxFindings(catalog).map { Check(area: "files", finding: $0) }
        checks += layerFindings(catalog).map { Check(area: "layers", finding: $0) }
        if !skipSecrets { checks += secretFindings().map { Check(area: "secrets", finding: $0) } }
        checks += syncFindings().map { Check(area: "sync", finding: $0) }

        let storageTrouble = checks.contains { $0.area == "files" && $0.finding.severity == .problem }
        let secretTrouble = checks.contains { $0.area == "secrets" && $0.finding.severity == .problem }
        if json {
            let items: [PrefValue] = checks.map { check in
                ["area": .string(check.area), "severity": .string(check.finding.severity.rawValue),
                 "path": .string(check.finding.path), "message": .string(check.finding.message), "fix": .string(check.finding.fix)]
            }
            let report: PrefValue = ["root": .string(catalog.root), "healthy": .bool(!storageTrouble && !secretTrouble), "checks": .array(items)]
            Output.line(DisplayText.escapedJSON(report.json))
        } else {
            Output.line("Suite files under \(DisplayText.escaped(catalog.root))")
            for check in checks where check.area == "files" { show(check.finding) }
            Output.line("An administrator's layers and installed schemas ($XDG_CONFIG_DIRS, $XDG_DATA_DIRS)")
            for check in checks where check.area == "layers" { show(check.finding) }
            if !skipSecrets {
                Output.line("Secrets of \(secretService) (rizq-prefs secret backends)")
                for check in checks where check.area == "secrets" { show(check.finding) }
            }
            if checks.contains(where: { $0.area == "sync" }) {
                Output.line("Device sync (rizq-prefs sync status)")
                for check in checks where check.area == "sync" { show(check.finding) }
            }
        }
        if storageTrouble { throw ExitCode(ExitStatus.storage.rawValue) }
        if secretTrouble { throw ExitCode(ExitStatus.secretService.rawValue) }
    }

    /// Names and paths come from the file system: hidden characters are shown escaped.
    private func show(_ finding: SuiteCatalog.Finding) {
        let mark = finding.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
        Output.line("  \(mark) " + DisplayText.escaped("\(finding.path.isEmpty ? "" : finding.path + ": ")\(finding.message)"))
        if !finding.fix.isEmpty { Output.line("           fix: " + DisplayText.escaped(finding.fix)) }
    }

    /// For each synced suite: a warning per device whose stamps are far from this device's
    /// clock (with the offset), and per key whose last merge such a clock decided; one line
    /// when all is well. Read only: the sync state as the last round left it.
    private func syncFindings() -> [SuiteCatalog.Finding] {
        var findings: [SuiteCatalog.Finding] = []
        for enabled in DeviceSync.enabledSuites() {
            let sync: DeviceSync
            let skews: [ClockSkew]
            let decided: [String: String]
            do {
                guard let store = try? SuiteStore(suite: enabled.suite, appID: enabled.app ?? enabled.suite),
                    let opened = try store.deviceSync()
                else { continue }
                sync = opened
                skews = try sync.clockSkews
                decided = try sync.decidedByClock
            } catch {
                findings.append(.init(
                    severity: .problem, path: enabled.suite, message: "the sync state cannot be read: \(error)",
                    fix: "move the sync state aside and enable sync again (rizq-prefs sync enable)"))
                continue
            }
            let path = sync.statePath
            for skew in skews {
                findings.append(.init(severity: .warning, path: path, message: "suite \(enabled.suite): \(skew)", fix: skew.fix))
            }
            for (_, explanation) in decided.sorted(by: { $0.key < $1.key }) {
                findings.append(.init(
                    severity: .warning, path: path, message: "suite \(enabled.suite): \(explanation)",
                    fix: "set the key again on the device whose value should win, once the clocks agree"))
            }
            if skews.isEmpty, decided.isEmpty {
                findings.append(.init(severity: .ok, path: path, message: "suite \(enabled.suite): no clock of a synced device is far from this one's", fix: ""))
            }
        }
        return findings
    }

    /// Inside a Flatpak sandbox: which folder the suites are in, and whether app-group suites are
    /// shared with other apps (the permission that shares them, when they are not; the narrower
    /// one, when the app was given the whole folder as advised before).
    private func sandboxFindings(_ catalog: SuiteCatalog) -> [SuiteCatalog.Finding] {
        guard let sandbox = FlatpakSandbox.current else { return [] }
        let app = sandbox.appID ?? "this app"
        let environment = ProcessInfo.processInfo.environment
        if let home = environment["RIZQ_PREFS_HOME"], !home.isEmpty {
            return [.init(severity: .ok, path: catalog.root, message: "inside the Flatpak sandbox of \(app): the suites are where RIZQ_PREFS_HOME says", fix: "")]
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let narrow = "--filesystem=xdg-config/rizq-prefs/groups:create"
        if FlatpakSandbox.wholeHostPreferencesRoot(home: home) == catalog.root {
            return [.init(
                severity: .warning, path: catalog.root,
                message: "inside the Flatpak sandbox of \(app), given the whole host folder (--filesystem=xdg-config/rizq-prefs, the advice before): the suites are the host's, and this app can change every host app's suites",
                fix: "give it the shared app-group folder only: flatpak override --user --nofilesystem=xdg-config/rizq-prefs \(app) && flatpak override --user \(narrow) \(app); then, on the host, move its own suites to ~/.var/app/\(app)/config/rizq-prefs/apps/")]
        }
        let groups = SuiteLocation.groupsDirectory(root: catalog.root)
        if groups != catalog.root + "/groups" {
            return [.init(
                severity: .ok, path: groups,
                message: "inside the Flatpak sandbox of \(app), with \(narrow): the suites are this app's own, and app-group suites are shared with the host and every app given the same permission",
                fix: "")]
        }
        return [.init(
            severity: .ok, path: catalog.root,
            message: "inside the Flatpak sandbox of \(app): the suites are this app's own (~/.var/app/\(app)/config/rizq-prefs on the host), and its app-group suites are its alone",
            fix: "to share app-group suites with the host and other sandboxed apps, give each app the permission: flatpak override --user \(narrow) \(app) (or finish-args in its manifest)")]
    }

    /// A problem for each import that was killed before it finished (its journal is left): it
    /// may have left secrets in the secret store. Read only: `migrate --recover` settles it. A
    /// journal found where earlier releases kept them (a folder sandboxed apps may be given) is a
    /// warning: it is never acted on.
    private func killedImportFindings(_ catalog: SuiteCatalog) -> [SuiteCatalog.Finding] {
        ImportJournal.unfinished(root: catalog.root).map { journal in
            let secrets = journal.secrets.map { "\($0.account) (service \($0.service))" }
            if let folder = journal.untrustedFolder {
                return .init(
                    severity: .warning, path: journal.path,
                    message: "a journal of an \(journal.title) of app \(journal.appID) is \(SandboxReach.describe(folder)), where earlier releases kept journals: a sandboxed app could have written it, so it is never acted on; "
                        + (secrets.isEmpty ? "it names no secret" : "it names \(secrets.joined(separator: ", "))"),
                    fix: "rizq-prefs import-app --app '\(journal.appID)' --recover reports and removes it (nothing is deleted from the secret store); check the secrets it names with rizq-prefs secret get")
            }
            return .init(
                severity: .problem, path: journal.path,
                message: "an \(journal.title) of app \(journal.appID) was killed before it finished and recorded nothing; "
                    + (secrets.isEmpty ? "it had written no secret" : "it may have left \(secrets.count) secret(s) in the secret store: \(secrets.joined(separator: ", "))"),
                fix: "rizq-prefs import-app --app '\(journal.appID)' --recover (removes the secrets it created and the journal)")
        }
    }

    /// A warning for each suite name that can pass for another (``LookAlikeNames``).
    private func lookAlikeFindings(_ catalog: SuiteCatalog) -> [SuiteCatalog.Finding] {
        let suites = catalog.listing().suites
        return LookAlikeNames.warnings(for: suites.map(\.suiteName)).map { warning in
            let path = suites.first { Array($0.suiteName.unicodeScalars) == Array(warning.name.unicodeScalars) }?.path ?? warning.name
            return .init(
                severity: .warning, path: path, message: "the suite name can pass for another: \(warning.reason)",
                fix: "if no app of yours uses this suite, look at it (rizq-prefs list --suite …) and remove the file")
        }
    }

    private var secretService: String { service ?? AppIdentity.named(nil) ?? "rizq-prefs" }

    /// One finding for the write target, one per backend of the chain, one for reading them all.
    private func secretFindings() -> [SuiteCatalog.Finding] {
        let chain = ChainedSecretStore(service: secretService)
        let report: SecretChainReport
        do {
            report = try chain.report()
        } catch {
            return [.init(severity: .problem, path: "", message: "the secrets configuration cannot be used", fix: error.description)]
        }
        var findings: [SuiteCatalog.Finding] = []
        if let target = report.writeTarget {
            if let problem = report.writeProblem {
                findings.append(.init(severity: .problem, path: "", message: "writes go to \(target.backend.rawValue), which is not usable", fix: problem))
            } else {
                findings.append(.init(severity: .ok, path: "", message: "writes go to \(target.backend.rawValue) (\(target.origin.rawValue): \(target.reason))", fix: ""))
            }
        } else {
            findings.append(.init(severity: .problem, path: "", message: "no backend can store secrets here", fix: report.writeProblem ?? ""))
        }
        for status in report.backends where status.isInChain && status.backend != report.writeTarget?.backend {
            let message = "\(status.backend.rawValue): \(status.reason)"
            if let problem = status.problem {
                // Reads go through it: what it cannot answer, a read reports as an error.
                findings.append(.init(severity: .warning, path: "", message: message, fix: problem))
            } else {
                findings.append(.init(severity: .ok, path: "", message: message, fix: ""))
            }
        }
        if let status = report.backends.first(where: { $0.backend == report.writeTarget?.backend }) {
            findings.append(.init(severity: .ok, path: "", message: "\(status.backend.rawValue): \(status.reason)", fix: ""))
        }
        if report.writeProblem == nil {
            do {
                let count = try chain.accounts().count
                findings.append(.init(severity: .ok, path: "", message: "every backend of the chain can be read (\(count) secret\(count == 1 ? "" : "s"))", fix: ""))
            } catch {
                findings.append(.init(severity: .problem, path: "", message: "the chain cannot be read", fix: error.description))
            }
        }
        return findings
    }
}
#endif
