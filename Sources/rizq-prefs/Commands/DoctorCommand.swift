import ArgumentParser
import Foundation
import RizqPrefs
import RizqSecrets

/// `rizq-prefs doctor`
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the suite files and the Secret Service, and say what needs fixing.",
        discussion: """
            Checks, without changing anything: where the suite files are; that their folders are \
            yours and mode 0700 and the files yours, mode 0600, readable and valid JSON; damaged \
            files that were moved aside (<suite>.corrupt-<time>.json); and whether a Secret Service \
            is reachable and its default keyring exists and is unlocked. Each finding that needs \
            you comes with a fix. Exits 0 when nothing needs you (warnings, such as a folder other \
            users can list, are printed but do not fail), 3 when a suite file or folder does, \
            else 4 when the Secret Service does. --json prints \
            {"root": …, "healthy": …, "checks": [{"area", "severity", "path", "message", "fix"}]}.
            """)

    @Option(help: ArgumentHelp("The service whose keyring to check (default: the app id).", valueName: "name"))
    var service: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Check only the suite files, not the Secret Service.")
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
        if !skipSecrets { checks.append(Check(area: "secrets", finding: secretServiceFinding())) }

        let storageTrouble = checks.contains { $0.area == "files" && $0.finding.severity == .problem }
        let secretTrouble = checks.contains { $0.area == "secrets" && $0.finding.severity == .problem }
        if json {
            let items: [PrefValue] = checks.map { check in
                ["area": .string(check.area), "severity": .string(check.finding.severity.rawValue),
                 "path": .string(check.finding.path), "message": .string(check.finding.message), "fix": .string(check.finding.fix)]
            }
            let report: PrefValue = ["root": .string(catalog.root), "healthy": .bool(!storageTrouble && !secretTrouble), "checks": .array(items)]
            Output.line(report.json)
        } else {
            Output.line("Suite files under \(catalog.root)")
            for check in checks where check.area == "files" { show(check.finding) }
            if !skipSecrets {
                Output.line("Secret Service")
                for check in checks where check.area == "secrets" { show(check.finding) }
            }
        }
        if storageTrouble { throw ExitCode(ExitStatus.storage.rawValue) }
        if secretTrouble { throw ExitCode(ExitStatus.secretService.rawValue) }
    }

    private func show(_ finding: SuiteCatalog.Finding) {
        let mark = finding.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
        Output.line("  \(mark) \(finding.path.isEmpty ? "" : finding.path + ": ")\(finding.message)")
        if !finding.fix.isEmpty { Output.line("           fix: \(finding.fix)") }
    }

    private func secretServiceFinding() -> SuiteCatalog.Finding {
        let name = service ?? AppIdentity.named(nil) ?? "rizq-prefs"
        let store = SecretServiceStore(service: name, timeout: 5)
        do {
            let status = try store.keyringStatus()
            if !status.exists {
                return .init(severity: .problem, path: "", message: "the Secret Service has no default keyring", fix: SecretError.noCollection(alias: "default").description)
            }
            if status.locked {
                return .init(severity: .problem, path: "", message: "the default keyring is locked", fix: SecretError.locked(detail: "default keyring").description)
            }
            return .init(severity: .ok, path: "", message: "reachable; the default keyring is unlocked", fix: "")
        } catch {
            return .init(severity: .problem, path: "", message: "not usable", fix: error.description)
        }
    }
}
