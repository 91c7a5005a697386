// The property-list readers (XML and binary, as `rizq-prefs migrate --from FILE.plist` reads a
// `defaults` export): the input read as a property list, and a list that reads goes through a
// dry run of the importer. The seeds are both encodings, so mutations stay in each parser.
import Foundation
import FuzzSupport
import RizqImport

let scratch = Scratch()

runFuzzer { input in
    guard let dump = try? ImportDump(bytes: Array(input), source: "fuzz.plist", format: .plist) else { return }
    require(dump.format == .plist, "asked for a property list, read \(dump.format)")
    dryRunImport(dump, root: scratch.root)
}
