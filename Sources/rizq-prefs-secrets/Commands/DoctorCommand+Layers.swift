#if CLI
import RizqCommandLine
import Foundation
import RizqPrefs

extension DoctorCommand {
    /// The administrator's layers and installed schemas: every layer folder looked in (and
    /// whether it exists), every file read with the keys it sets, every file left out and why,
    /// and every stored value an installed schema forbids (it reads as the default). Inside a
    /// Flatpak sandbox, which policy the app sees. Read only.
    func layerFindings(_ catalog: SuiteCatalog) -> [SuiteCatalog.Finding] {
        let folders = LayerFolders.fromEnvironment()
        var findings: [SuiteCatalog.Finding] = []
        for refused in folders.refused {
            findings.append(.init(severity: .warning, path: "", message: "left out of the layer folders: \(refused)", fix: "list absolute folders only"))
        }
        if FlatpakSandbox.current != nil {
            findings.append(
                folders.configDirectories.first == LayerFolders.hostConfigInSandbox
                    ? .init(severity: .ok, path: LayerFolders.hostConfigInSandbox, message: "inside a Flatpak sandbox: the host's policy is read from here (the app was given --filesystem=host-etc), before the runtime's own", fix: "")
                    : .init(
                        severity: .warning, path: "", message: "inside a Flatpak sandbox without --filesystem=host-etc: the host's /etc/xdg policy is not visible; only the runtime's \(folders.configDirectories.joined(separator: ":")) is read",
                        fix: "to apply the host's policy, give the app --filesystem=host-etc:ro (flatpak override --filesystem=host-etc:ro APP)"))
        }
        let scan = LayerCatalog.scan(folders)
        for folder in scan.folders {
            findings.append(.init(severity: .ok, path: folder.path, message: "\(folder.layer.rawValue) layer folder: \(folder.exists ? "read" : "none here")", fix: ""))
        }
        var suites = scan.suites
        for suite in catalog.listing().suites { suites.insert(LayerCatalog.Suite(appID: suite.appID, name: suite.suiteName)) }
        for suite in suites.sorted(by: { ($0.appID ?? "", $0.name) < ($1.appID ?? "", $1.name) }) {
            let path = suite.appID.map { "\(catalog.root)/apps/\($0)/\(suite.name).json" } ?? "\(catalog.root)/groups/\(suite.name).json"
            guard let inspection = try? LayerCatalog.inspect(suite: suite.name, appID: suite.appID ?? suite.name, root: catalog.root, folders: folders) else { continue }
            for file in inspection.report.files {
                findings.append(.init(
                    severity: .ok, path: file.path,
                    message: "suite \(suite.name): \(file.layer.rawValue) \(file.layer == .schema ? "describes" : "sets") \(file.keys.isEmpty ? "no key" : file.keys.joined(separator: ", "))", fix: ""))
            }
            for skipped in inspection.report.skipped {
                findings.append(.init(severity: .warning, path: skipped.path, message: "suite \(suite.name): \(skipped.layer.rawValue) layer: left out: \(skipped.reason)", fix: "an administrator fixes or removes the file; the other layers are read"))
            }
            for broken in inspection.valuesBreakingSchema {
                findings.append(.init(
                    severity: .warning, path: path,
                    message: "suite \(suite.name): the stored value of '\(broken.key)' breaks the suite's schema (\(broken.problem)): it reads as the default, and stays in the file",
                    fix: "set a value the key takes (rizq-prefs set …), or delete it (rizq-prefs delete …)"))
            }
        }
        return findings
    }
}
#endif
