#if CLI
import RizqCommandLine
import RizqPrefs
import RizqJSON
import RizqProfiles

/// `migrate --from SOURCE --list`: the origins a browser storage holds, with their key counts
/// and sizes, never a value.
struct ProfileListing {
    let storage: ProfileStorage

    /// For people: where it was read, then one row per origin.
    var text: String {
        var output = "\(storage.location.label): \(storage.location.path) (\(storage.kind.dumpFormat.rawValue))\n"
        guard !storage.origins.isEmpty else { return output + "It holds no localStorage.\n" }
        // The column of keys that are not valid Unicode only when there are some.
        let undecodable = storage.origins.contains { $0.undecodableCount > 0 }
        let rows = storage.origins.map { origin -> [String] in
            let row = [origin.origin, String(origin.keyCount), String(origin.storedSize)]
            return undecodable ? row + [origin.undecodableCount > 0 ? String(origin.undecodableCount) : ""] : row
        }
        let header = ["ORIGIN", "KEYS", "BYTES"] + (undecodable ? ["NOT UNICODE"] : [])
        output += Table(header: header, rows: rows).text
        let keys = storage.origins.reduce(0) { $0 + $1.keyCount }
        output += "\(storage.origins.count) origin(s), \(keys) key(s). Import one with --origin ORIGIN.\n"
        return output
    }

    /// For scripts: `{"source", "label", "format", "origins": [{"origin", "keys", "bytes", "undecodable"}]}`.
    var json: String {
        let origins: [PrefValue] = storage.origins.map { origin in
            .dictionary([
                "origin": .string(origin.origin),
                "keys": .int(origin.keyCount),
                "bytes": .int(origin.storedSize),
                "undecodable": .int(origin.undecodableCount),
            ])
        }
        let object: PrefValue = .dictionary([
            "source": .string(storage.location.path),
            "label": .string(storage.location.label),
            "format": .string(storage.kind.dumpFormat.rawValue),
            "origins": .array(origins),
        ])
        return (try? JSONWriter.string(object, pretty: true)) ?? "{}"
    }
}
#endif
