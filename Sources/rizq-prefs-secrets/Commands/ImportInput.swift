#if CLI
import RizqCommandLine
import Foundation
import RizqProfiles

/// What `rizq-prefs import-app` reads, from its FILE argument or `--from SOURCE`. Each kind of
/// input has one reader; a new one plugs in here and in `ImportDumpCommand.run`:
///
/// - ``dump(file:)``: a JSON dump (`ImportDump`, RizqImport), or `-` for stdin.
/// - ``profile(_:)``: a browser's or Electron app's own storage (`ProfileLocator` and
///   `ProfileStorage`, RizqProfiles): Chromium-family and Electron LevelDB, legacy
///   `*.localstorage`, and Firefox LSNG and `webappsstore.sqlite`.
/// - ``plist(path:)``: an Apple `defaults` property list (RizqImport's plist importer).
enum ImportInput: Equatable {
    case dump(file: String)
    case profile(ProfileSource)
    case plist(path: String)

    /// The input named by the FILE argument or `--from` (exactly one of them).
    init(file: String?, from: String?) throws(CLIError) {
        switch (file, from) {
        case (let file?, nil):
            self = .dump(file: file)
        case (nil, let from?):
            if from.lowercased().hasSuffix(".plist") {
                self = .plist(path: from)
                return
            }
            do {
                self = .profile(try ProfileSource(from))
            } catch {
                throw CLIError(.usage, error.description)
            }
        case (nil, nil):
            throw CLIError(.usage, "nothing to import: give a dump FILE (or - for stdin), or --from SOURCE (a browser, electron:<App>, a profile folder or a storage file)")
        case (.some, .some):
            throw CLIError(.usage, "give either a dump FILE or --from SOURCE, not both")
        }
    }
}
#endif
