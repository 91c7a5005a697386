import ArgumentParser
import Foundation
import RizqPrefs
import RizqSecrets

/// `rizq-prefs doctor`
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the suite files and the secret backends, and say what needs fixing.",
        discussion: """
            Checks, without changing anything: where the suite files are; that their folders are \
            yours and mode 0700 and the files yours, mode 0600, readable and valid JSON; damaged \
            files that were moved aside (<suite>.corrupt-<time>.json); and the chain of secret \
            backends ('rizq-prefs secret backends'): that writes have somewhere to go, that the \
            backend they go to is usable (a Secret Service reachable and unlocked, a vault that a \
            key source here opens), and that every backend in the chain can be read. Each finding \
            that needs you comes with a fix. Exits 0 when nothing needs you (warnings, such as a \
            folder other users can list, are printed but do not fail), 3 when a suite file or \
            folder does, else 4 when the secrets do. --json prints \
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
        if !skipSecrets { checks += secretFindings().map { Check(area: "secrets", finding: $0) } }

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
                Output.line("Secrets of \(secretService) (rizq-prefs secret backends)")
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
