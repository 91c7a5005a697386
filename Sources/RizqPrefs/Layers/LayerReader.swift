import Foundation
import RizqCore
import RizqJSON

/// Reads a suite's layers from disk: an administrator's managed values and defaults from every
/// folder of `$XDG_CONFIG_DIRS`, and the suite's installed schema — every file through the file
/// layer's ``TrustedPath``, bounded, judged, and skipped (logged once, named in the
/// ``LayerReport``) when it fails, never a reason to leave out the other files.
///
/// Within a layer, a folder listed earlier in `$XDG_CONFIG_DIRS` wins over a later one (the XDG
/// rule); within a folder, `<suite>.d/*.json` drop-ins are read in name order after
/// `<suite>.json`, a later file winning over an earlier one (as systemd and Chrome do).
struct LayerReader {
    /// The largest layer file read, in bytes.
    static let maximumFileSize = 1 << 20
    /// The most drop-ins read from one `.d` folder.
    static let maximumDropIns = 256

    /// The folders to read from.
    let folders: LayerFolders
    /// `apps/<app>/<suite>` or `groups/<suite>`.
    let relativePath: String
    /// The suite's name, for messages.
    let suiteName: String

    init(folders: LayerFolders, location: SuiteLocation, appID: String) {
        self.folders = folders
        relativePath = PrefSchema.relativePath(suite: location.suiteName, appID: appID)
        suiteName = location.suiteName
    }

    /// Every layer of the suite, merged into the view reads go through.
    func read() -> SuiteLayers {
        var report = LayerReport()
        report.refusedVariables = folders.refused
        let managed = readLayer(.managed, &report)
        let defaults = readLayer(.defaults, &report)
        let schema = readSchema(&report)
        return SuiteLayers(suiteName: suiteName, managed: managed, defaults: defaults, schema: schema, report: report)
    }

    // MARK: Paths

    /// `<dir>/rizq-prefs/<layer>/<relative path>` (without `.json`) for each folder, first wins.
    func layerBases(_ layer: ValueSource.Layer) -> [String] {
        folders.configDirectories.map { $0 + "/rizq-prefs/" + layer.rawValue + "/" + relativePath }
    }

    /// `<dir>/rizq-prefs/schemas/<relative path>.schema.json` for each data folder, first wins.
    var schemaPaths: [String] {
        folders.dataDirectories.map { $0 + "/rizq-prefs/schemas/" + relativePath + ".schema.json" }
    }

    // MARK: An administrator's layer

    /// The values of `layer` (managed or defaults), with the file each comes from.
    private func readLayer(_ layer: ValueSource.Layer, _ report: inout LayerReport) -> (values: [String: PrefValue], sources: [String: String]) {
        var values: [String: PrefValue] = [:]
        var sources: [String: String] = [:]
        // Last folder first, so that the first one listed is applied last and wins.
        for (directory, base) in zip(folders.configDirectories, layerBases(layer)).reversed() {
            // The usual case, no layer of this kind at all on the machine: one stat, no walk (the
            // report names the layer's missing root).
            let root = directory + "/rizq-prefs/" + layer.rawValue
            guard Self.exists(root) else {
                report.folders.append(LayerReport.Folder(layer: layer, path: root, exists: false))
                continue
            }
            let folder = PrivateFolder.parent(of: base)
            let trust = folders.administratorTrust("\(layer.rawValue) preferences file", for: base)
            report.folders.append(LayerReport.Folder(layer: layer, path: folder, exists: Self.exists(folder)))
            var files = [base + ".json"]
            files += dropIns(in: base + ".d", layer: layer, trust: trust, &report)
            for path in files {
                guard let entries = readObject(path, layer: layer, trust: trust, &report) else { continue }
                for (key, value) in entries {
                    values[key] = value
                    sources[key] = path
                }
            }
        }
        return (values, sources)
    }

    /// The `*.json` files of a `.d` folder, in name order.
    private func dropIns(in folder: String, layer: ValueSource.Layer, trust: FileTrust, _ report: inout LayerReport) -> [String] {
        let names: [String]
        do {
            guard let listed = try TrustedPath.names(inFolder: folder, trust: trust) else { return [] }
            names = listed
        } catch {
            skip(layer, folder, error.reason, &report)
            return []
        }
        let dropIns = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        if dropIns.count > Self.maximumDropIns {
            skip(layer, folder, "it holds \(dropIns.count) drop-ins, over the \(Self.maximumDropIns) read: those after '\(dropIns[Self.maximumDropIns - 1])' are left out; merge some of them", &report)
        }
        return dropIns.prefix(Self.maximumDropIns).map { folder + "/" + $0 }
    }

    /// The members of the JSON object in the file at `path`; `nil` when there is no file, or it is
    /// skipped (recorded in `report`).
    private func readObject(_ path: String, layer: ValueSource.Layer, trust: FileTrust, _ report: inout LayerReport) -> [String: PrefValue]? {
        let bytes: [UInt8]
        do {
            guard let file = try TrustedPath.open(path, trust: trust) else { return nil }
            bytes = try file.readAll(limit: Self.maximumFileSize)
        } catch {
            skip(layer, path, error.reason, &report)
            return nil
        }
        let parsed: PrefValue
        do {
            parsed = try JSONReader.parseSuiteDocument(bytes).value
        } catch {
            skip(layer, path, "it is not valid JSON (line \(error.line), column \(error.column): \(error.reason)); repair it there", &report)
            return nil
        }
        guard case .dictionary(var entries) = parsed else {
            skip(layer, path, "it holds \(parsed.kindName == "array" ? "an" : "a") \(parsed.kindName), not a JSON object of keys and values", &report)
            return nil
        }
        for key in entries.keys.sorted() where SchemaVersionMember.isReserved(key) {
            entries.removeValue(forKey: key)
            skip(layer, path, "its member '\(key)' is not a key (the name is reserved for a suite's migration version): that member is left out", &report)
        }
        report.files.append(LayerReport.File(layer: layer, path: path, keys: entries.keys.sorted()))
        return entries
    }

    // MARK: The schema

    /// The first installed schema that can be read, with its path.
    private func readSchema(_ report: inout LayerReport) -> (schema: PrefSchema, path: String)? {
        for (folder, path) in zip(folders.dataDirectories, schemaPaths) {
            // No schema installed under this folder at all (the usual case): one stat.
            let root = folder + "/rizq-prefs/schemas"
            guard Self.exists(root) else {
                report.folders.append(LayerReport.Folder(layer: .schema, path: root, exists: false))
                continue
            }
            report.folders.append(LayerReport.Folder(layer: .schema, path: PrivateFolder.parent(of: path), exists: Self.exists(PrivateFolder.parent(of: path))))
            let bytes: [UInt8]
            do {
                // The user's own data folder holds the user's files; the others an administrator's.
                let file = folder == folders.dataHome
                    ? try PrivateFile.open(path, trust: .configuration("schema"))
                    : try TrustedPath.open(path, trust: folders.administratorTrust("schema", for: path))
                guard let file else { continue }
                bytes = try file.readAll(limit: PrefSchema.maximumFileSize)
            } catch {
                skip(.schema, path, error.reason, &report)
                continue
            }
            do {
                let schema = try PrefSchema(json: bytes)
                report.files.append(LayerReport.File(layer: .schema, path: path, keys: schema.properties.keys.sorted()))
                return (schema, path)
            } catch {
                skip(.schema, path, error.description, &report)
            }
        }
        return nil
    }

    // MARK: Skipping

    /// Records a file left out, and logs it once per process.
    private func skip(_ layer: ValueSource.Layer, _ path: String, _ reason: String, _ report: inout LayerReport) {
        report.skipped.append(LayerReport.Skipped(layer: layer, path: path, reason: reason))
        OnceWarnings.warn(
            "layer\u{0}\(path)\u{0}\(reason)", "\(layer.rawValue) layer: skipping \(path): \(reason); the other layers are read", suite: suiteName)
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
