#if CLI
import RizqCommandLine
import RizqFleet

/// How the reading commands (get, list, export) meet the engine: they read what the cache has
/// not seen; when the engine cannot be reached they answer from the cache, and say so on stderr.
enum FleetReading {
    /// Catches `fleet` up, or warns that what follows comes from the cache.
    /// - Throws: a refusal (password, TLS, permissions), which the cache cannot hide.
    static func catchUp(_ fleet: FleetSuite) async throws(CLIError) {
        do {
            try await fleet.synchronize()
        } catch {
            guard case .engineUnavailable(let endpoint, let reason) = error else { throw CLIError(error) }
            Output.error("warning: the fleet engine at \(endpoint) is unavailable (\(reason)); answering from this host's cache, \(fleet.status)")
        }
    }

    /// Catches `fleet` up, or fails: for commands that change the suite, which must know what
    /// the engine holds.
    static func catchUpOrFail(_ fleet: FleetSuite) async throws(CLIError) {
        do {
            try await fleet.synchronize()
        } catch {
            throw CLIError(error)
        }
    }
}
#endif
