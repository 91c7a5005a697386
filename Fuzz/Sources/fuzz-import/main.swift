// `rizq-prefs import` (SuiteStore.importJSON): the input is imported into a new suite; what was
// imported exports, imports into another suite, and reads back the same.
import Foundation
import FuzzSupport
import RizqPrefs

let scratch = Scratch()

runFuzzer { input in
    defer { scratch.clean() }
    let store = scratch.open(scratch.nextSuite())
    do throws(SuiteStoreError) {
        try store.importJSON(Data(input), replacing: input.first.map { $0 & 1 == 1 } ?? false)
    } catch {
        switch error {
        case .importNotJSON, .importNotAnObject, .importOtherSchemaVersion: return
        case .invalidValue(let key, _) where key == SuiteMigrations.versionKey:
            // A "$schemaVersion" member that is no version number: the name is reserved.
            return
        default: require(false, "parsed JSON that a suite refused: \(error)")
        }
    }
    let exported: Data
    do {
        exported = try store.exportJSON()
    } catch {
        require(false, "an imported suite does not export: \(error)")
        return
    }
    let copy = scratch.open(scratch.nextSuite())
    do {
        try copy.importJSON(exported)
    } catch {
        require(false, "an export does not import: \(error)")
    }
    require(identical(.dictionary(copy.entries), .dictionary(store.entries)), "export then import changed the suite")
    require((try? copy.exportJSON()) == exported, "the export is not stable")
}
