import Foundation
import RizqImport
import RizqCore

/// A dry run of the importer over `dump` (inference, credential detection, the report, in
/// text and JSON), as `rizq-prefs migrate --dry-run` makes it; suites under `root`, secrets in
/// memory. A dump that reads must never crash the importer; a refusal is an answer.
public func dryRunImport(_ dump: ImportDump, root: String) {
    let options = Importer.Options(dryRun: true, appID: "fuzz", root: root)
    let importer = Importer(options: options, secretStore: { InMemorySecretStore(service: $0) })
    if let report = try? importer.run(dump) {
        _ = report.text
        _ = report.json
    }
}
