import RizqFleet

/// A failure that ends a fleet command: one line on stderr, and its ``ExitStatus``.
struct FleetCLIError: Error {
    var status: ExitStatus
    var message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The exit status a library error means, with its message.
    init(_ error: FleetError) {
        switch error {
        case .engineUnavailable, .writeUnconfirmed, .engineRefused: status = .engine
        case .superseded: status = .superseded
        case .secretRefused, .invalidValue, .invalidSuiteName, .invalidEngine: status = .usage
        case .cache, .cacheInUse, .noReplicaIdentity: status = .storage
        }
        message = error.description
    }
}
