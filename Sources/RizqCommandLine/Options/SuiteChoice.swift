#if CLI
import Foundation
import RizqPrefs

/// The suite a command works on — `--suite` and `--app` as values — and how it is opened.
///
/// ``StoreOptions`` declares the options for argument-parser; a plain line
/// (rizq-prefs' `PlainCommandLine`) gives the same values without it.
package struct SuiteChoice: Equatable {
    /// `--suite NAME`, if given.
    package var suite: String?
    /// `--app ID`, if given.
    package var app: String?

    /// The suite `--suite` and `--app` name (`nil` when not given).
    package init(suite: String?, app: String?) {
        self.suite = suite
        self.app = app
    }

    /// The app id: `--app`, else `RIZQ_PREFS_APP_ID`; `nil` when neither is given.
    package var appID: String? { AppIdentity.named(app) }

    /// The suite's name as given, for messages.
    package var suiteDescription: String { suite ?? appID ?? "(standard suite)" }

    /// Opens the suite; stops with exit 3 when the open found a damaged file and moved it aside.
    package func openStore() throws(CLIError) -> SuiteStore {
        let name: String
        if let suite {
            name = suite
        } else if let appID {
            name = appID
        } else {
            throw CLIError(.usage, "no suite given: pass --suite NAME or --app ID, or set RIZQ_PREFS_APP_ID")
        }
        if SuiteCatalog.isImportRecord(name) {
            throw CLIError(.usage, "'\(name)' is where 'rizq-prefs import-app' records the imports it ran, not a suite: it cannot be read or changed as one; to run an import again, use 'rizq-prefs import-app … --force'")
        }
        let isGroup = name.hasPrefix("group.")
        guard isGroup || appID != nil else {
            throw CLIError(.usage, "suite '\(name)' belongs to an app: pass --app ID or set RIZQ_PREFS_APP_ID (app-group suites are named group.…)")
        }
        let store: SuiteStore
        do {
            store = try SuiteStore(suite: name, appID: appID ?? "rizq-prefs")
        } catch {
            // The standard suite is named after the app: what is wrong is the app id the user gave.
            if suite == nil, case .invalidSuiteName(let badName, let reason) = error, badName == appID {
                throw CLIError(.usage, "invalid app id '\(badName)' (from --app or RIZQ_PREFS_APP_ID): \(reason); give an app id such as 'com.example.app'")
            }
            throw CLIError(error)
        }
        if let moved = store.damagedFileMovedAside {
            throw CLIError(.storage, "suite file \(store.location.path) was damaged (\(moved.reason)); it was moved aside to \(moved.path) and the suite now starts empty; look at that file, bring back what you need with 'rizq-prefs import', then run the command again")
        }
        return store
    }
}
#endif
