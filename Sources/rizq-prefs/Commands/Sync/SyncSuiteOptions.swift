#if CLI
import RizqCommandLine
import ArgumentParser
import RizqPrefs
import RizqSync

/// The suite a `sync` command works on: SUITE and `--app`.
struct SyncSuiteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "The suite: an app's suite (its standard suite is named after the app) or an app-group suite (group.…).",
        valueName: "suite"), transform: NegativeNumbers.unmarked)
    var suite: String

    @Option(name: .customLong("app"), help: ArgumentHelp(
        "The app whose suite it is (default: $RIZQ_PREFS_APP_ID; the suite's own name when neither is given).", valueName: "id"),
        transform: NegativeNumbers.unmarked)
    var app: String?

    /// Opens the suite.
    func openStore() throws(CLIError) -> SuiteStore {
        try SyncSuiteOptions.open(suite: suite, app: AppIdentity.named(app))
    }

    /// Opens `suite` of `app` (for an app's suite without an app: the app named like the suite,
    /// as its standard suite is).
    static func open(suite: String, app: String?) throws(CLIError) -> SuiteStore {
        do {
            return try SuiteStore(suite: suite, appID: app ?? suite)
        } catch {
            throw CLIError(error)
        }
    }
}

extension CLIError {
    init(_ error: SyncError) {
        switch error {
        case .notEnabled, .unknownDevice: self.init(.notFound, error.description)
        case .secretRefused, .quotaExceeded, .invalidConfiguration, .keyNotSynced, .cannotForgetSelf: self.init(.usage, error.description)
        case .storage(let underlying): self.init(underlying)
        case .unreadableReplica, .replicaIdentity: self.init(.storage, error.description)
        }
    }
}
#endif
