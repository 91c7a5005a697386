// Each dump reader (the format guessed, then each format named), and for a dump that reads, a dry
// run of the importer over it: inference, credential detection and the report.
import Foundation
import FuzzSupport
import RizqImport

let scratch = Scratch()
let formats: [ImportDump.Format?] = [nil, .object, .pairs, .playwright, .cypress, .devtools, .plist]

runFuzzer { input in
    let bytes = Array(input)
    for format in formats {
        guard let dump = try? ImportDump(bytes: bytes, source: "fuzz", format: format) else { continue }
        require(format == nil || dump.format == format, "asked for \(String(describing: format)), read \(dump.format)")
        dryRunImport(dump, root: scratch.root)
    }
}
