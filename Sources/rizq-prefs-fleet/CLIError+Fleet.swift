#if CLI
import RizqCommandLine
import RizqFleet

extension CLIError {
    /// The exit status a fleet suite's error means, with its message.
    init(_ error: FleetError) {
        let status: ExitStatus
        switch error {
        case .engineUnavailable, .writeUnconfirmed, .engineRefused: status = .engine
        case .superseded: status = .superseded
        case .secretRefused, .invalidValue, .invalidSuiteName, .invalidEngine: status = .usage
        case .cache, .cacheInUse, .noReplicaIdentity: status = .storage
        }
        self.init(status, error.description)
    }
}
#endif
