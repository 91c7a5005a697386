#if CLI
import RizqCommandLine
import Foundation
import RizqImport
import RizqJSON
import RizqPrefs

/// `migrate --from FILE.plist --list`: the domain a property list holds, with its key count and
/// size, never a value; the same shape as a browser's listing (``ProfileListing``).
struct PropertyListListing {
    let dump: ImportDump
    let path: String

    /// The domain: the file's name without `.plist` (`com.rizq.app`), as `defaults` names it.
    private var domain: String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.lowercased().hasSuffix(".plist") ? String(name.dropLast(6)) : name
    }

    private var size: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Keys that cannot be imported as they are (not valid Unicode, or a value a suite cannot hold).
    private var unreadable: Int {
        dump.entries.filter { $0.undecodable != nil || $0.problem != nil }.count
    }

    /// For people: the file, then one row.
    var text: String {
        var output = "property list: \(path) (plist)\n"
        let flagged = unreadable > 0
        let header = ["DOMAIN", "KEYS", "BYTES"] + (flagged ? ["CANNOT IMPORT"] : [])
        let row = [domain, String(dump.entries.count), String(size)] + (flagged ? [String(unreadable)] : [])
        output += Table(header: header, rows: [row]).text
        output += "\(dump.entries.count) key(s). Import them without --list (--dry-run first shows every write).\n"
        return output
    }

    /// For scripts: `{"source", "label", "format", "origins": [{"origin", "keys", "bytes", "undecodable"}]}`.
    var json: String {
        let object: PrefValue = .dictionary([
            "source": .string(path),
            "label": .string("property list"),
            "format": .string(ImportDump.Format.plist.rawValue),
            "origins": .array([.dictionary([
                "origin": .string(domain),
                "keys": .int(dump.entries.count),
                "bytes": .int(size),
                "undecodable": .int(unreadable),
            ])]),
        ])
        return (try? JSONWriter.string(object, pretty: true)) ?? "{}"
    }
}
#endif
