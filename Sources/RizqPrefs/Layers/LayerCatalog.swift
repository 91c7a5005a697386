import Foundation
import RizqCore

/// The suites an administrator's layers and the installed schemas name, found by listing their
/// folders (read only, through ``TrustedPath``): what `rizq-prefs doctor` checks beside the
/// user's own suites, since a layer may exist for a suite the user never wrote.
package enum LayerCatalog {
    /// A suite some layer or schema names.
    package struct Suite: Sendable, Hashable {
        /// The app (`nil` for an app group).
        package var appID: String?
        /// The suite's name.
        package var name: String

        package init(appID: String?, name: String) {
            self.appID = appID
            self.name = name
        }
    }

    /// A layer folder looked at: its layer, its path, and whether it exists.
    package typealias Folder = (layer: ValueSource.Layer, path: String, exists: Bool)

    /// Every layer folder of `folders` (`<dir>/rizq-prefs/managed`, `…/defaults`,
    /// `<dir>/rizq-prefs/schemas`), and the suites their files name.
    package static func scan(_ folders: LayerFolders) -> (folders: [Folder], suites: Set<Suite>) {
        var seen: [Folder] = []
        var suites: Set<Suite> = []
        let roots = folders.configDirectories.flatMap { directory in
            [(ValueSource.Layer.managed, directory + "/rizq-prefs/managed", ".json"), (.defaults, directory + "/rizq-prefs/defaults", ".json")]
        } + folders.dataDirectories.map { (ValueSource.Layer.schema, $0 + "/rizq-prefs/schemas", ".schema.json") }
        for (layer, root, suffix) in roots {
            let trust = layer == .schema && root.hasPrefix((folders.dataHome ?? "\u{0}") + "/")
                ? FileTrust.configuration("schema folder") : folders.administratorTrust("\(layer.rawValue) folder", for: root)
            let apps = (try? TrustedPath.names(inFolder: root + "/apps", trust: trust)) ?? nil
            let groups = (try? TrustedPath.names(inFolder: root + "/groups", trust: trust)) ?? nil
            seen.append((layer, root, apps != nil || groups != nil || Self.exists(root)))
            for app in apps ?? [] {
                for name in (try? TrustedPath.names(inFolder: root + "/apps/" + app, trust: trust)) ?? [] {
                    if let suite = suiteName(name, suffix: suffix) { suites.insert(Suite(appID: app, name: suite)) }
                }
            }
            for name in groups ?? [] {
                if let suite = suiteName(name, suffix: suffix) { suites.insert(Suite(appID: nil, name: suite)) }
            }
        }
        return (seen, suites)
    }

    /// The suite a file or `.d` folder of a layer is for.
    private static func suiteName(_ name: String, suffix: String) -> String? {
        for ending in [suffix, ".d"] where name.hasSuffix(ending) && name.count > ending.count {
            let suite = String(name.dropLast(ending.count))
            return SuiteLocation.problem(withName: suite) == nil ? suite : nil
        }
        return nil
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}

extension LayerCatalog {
    /// What `doctor` says of one suite's layers, found without opening the suite (nothing is
    /// written, moved or watched): the layers as a reader sees them, and the values of the suite
    /// file the installed schema forbids (key and why, in the file's key order).
    package struct Inspection: Sendable {
        /// What was read and left out.
        package var report: LayerReport
        /// The stored values the schema forbids (each reads as the default, and stays on disk).
        package var valuesBreakingSchema: [(key: String, problem: String)]
    }

    /// Inspects the layers of `suite` (of the app `appID`) under `root`, read from `folders`.
    /// - Throws: ``SuiteStoreError`` for a suite or app name that cannot name a file.
    package static func inspect(suite: String, appID: String, root: String, folders: LayerFolders) throws(SuiteStoreError) -> Inspection {
        let location = try SuiteLocation(suiteName: suite, appID: appID, root: root)
        let layers = LayerReader(folders: folders, location: location, appID: appID).read()
        var breaking: [(key: String, problem: String)] = []
        // The file as it is, read only: a damaged one is doctor's other finding, never moved here.
        if let schema = layers.schema, case .entries(let table, _, _, _, _)? = try? SuiteFile(location: location).read(withTimes: false) {
            for (key, value) in table {
                if let problem = schema.problem(with: value, forKey: key) { breaking.append((key, problem)) }
            }
        }
        breaking.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return Inspection(report: layers.report, valuesBreakingSchema: breaking)
    }
}
