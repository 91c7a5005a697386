#if CLI
import ArgumentParser
import Foundation
import RizqPrefs

/// `--suite` and `--app`, shared by every command that works on a suite.
package struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "A named suite of the app, or an app-group suite such as group.com.example.shared (default: the app's standard suite).",
        valueName: "name"), transform: NegativeNumbers.unmarked)
    package var suite: String?

    @Option(name: .customLong("app"), help: ArgumentHelp(
        "The app whose suites are meant (default: $RIZQ_PREFS_APP_ID).", valueName: "id"), transform: NegativeNumbers.unmarked)
    package var app: String?

    /// No options yet (argument-parser fills them in).
    package init() {}

    /// The options a plain line (rizq-prefs' `PlainWords`) may give: `--suite` and `--app`.
    package static let plainOptions: Set<String> = ["suite", "app"]

    /// The suite the options name, as values.
    package var choice: SuiteChoice { SuiteChoice(suite: suite, app: app) }

    /// The app id: `--app`, else `RIZQ_PREFS_APP_ID`; `nil` when neither is given.
    package var appID: String? { choice.appID }

    /// The suite's name as given, for messages.
    package var suiteDescription: String { choice.suiteDescription }

    /// Opens the suite (``SuiteChoice/openStore()``).
    package func openStore() throws(CLIError) -> SuiteStore {
        try choice.openStore()
    }
}

extension SuiteStore {
    /// ``flush()``, as a command's failure.
    package func flushOrFail() throws(CLIError) {
        do {
            try flush()
        } catch {
            throw CLIError(error)
        }
    }
}
#endif
