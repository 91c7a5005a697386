#if CLI
import RizqCommandLine
import ArgumentParser
import Foundation
import RizqSecrets

/// `rizq-prefs secret backends [--json]`
struct SecretBackendsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backends",
        abstract: "Show the chain of secret backends, and why each one is or is not used.",
        discussion: """
            Prints the order reads take (credentials, secret-service, vault — inside a Flatpak \
            sandbox credentials, file-keyring, secret-service, vault; plaintext only when named), where writes go and who chose it (the app, RIZQ_SECRETS_BACKEND, the config \
            file, a remembered automatic choice, or an automatic choice now), and for each backend: \
            whether it is there and why, what is wrong with it if anything, whether it is read-only, \
            how long it keeps secrets and what protects them. Looks at the Secret Service without \
            prompting; changes nothing. --json prints one object: {service, order, orderOrigin, \
            configFile, configFileExists, writeTarget {backend, origin, reason}, writeProblem, \
            backends [{backend, isInChain, isAvailable, reason, problem, isReadable, isWritable, \
            persistence, protections, location}]}.
            """)

    @OptionGroup var options: SecretOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let chain = try options.openStore()
        let report = try CLIError.secrets { () throws(SecretError) in try chain.report() }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Output.line(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        for line in Self.lines(report) { Output.line(line) }
    }

    /// The report for a person: a header, then one block per backend.
    static func lines(_ report: SecretChainReport) -> [String] {
        let origin: String
        switch report.orderOrigin {
        case .automatic: origin = "the default order"
        case .api: origin = "set by the app"
        case .environment: origin = "set by RIZQ_SECRETS_BACKEND"
        case .configFile: origin = "set by \(report.configFile)"
        case .remembered: origin = "remembered"
        }
        var lines = ["Secrets of \(report.service): reads try \(report.order.map(\.rawValue).joined(separator: ", ")) (\(origin))"]
        if let target = report.writeTarget {
            lines.append("Writes go to \(target.backend.rawValue) (\(target.origin.rawValue): \(target.reason))")
        } else {
            lines.append("Writes go nowhere: no backend can take them here")
        }
        if let problem = report.writeProblem { lines.append("  problem: \(problem)") }
        for status in report.backends {
            let mark = status.backend == report.writeTarget?.backend ? "*" : " "
            let state = !status.isInChain ? "not in the chain" : status.isAvailable ? (status.problem == nil ? "available" : "available, with a problem") : "not available"
            let access = status.isWritable ? "read-write" : "read-only"
            let protection = status.protections.isEmpty ? "-" : status.protections.map(\.rawValue).joined(separator: "+")
            lines.append("\(mark) \(status.backend.rawValue): \(state); \(access); keeps secrets \(status.persistence.rawValue); protected by \(protection)")
            lines.append("    \(status.reason)")
            if let problem = status.problem { lines.append("    problem: \(problem)") }
        }
        return lines
    }
}
#endif
