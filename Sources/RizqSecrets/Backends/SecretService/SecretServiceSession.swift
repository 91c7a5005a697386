#if Secrets
import Foundation
import Synchronization

/// The process's one connection to the Secret Service, and what every operation goes through:
/// the session-bus check, connecting (which loads libsecret the first time), connecting again and
/// retrying after a lost connection or a session that cannot be used, and the caller's error.
/// Runs on ``SecretWorker``'s thread only.
enum SecretServiceSession {
    /// Where items were found, for ``SecretServicePolicy/lookup(_:paths:)``. Used on the worker
    /// thread only; the lock satisfies the compiler, and costs nothing uncontended.
    private static let paths = Mutex(SecretPathCache())

    /// Runs `operation` for a caller that waits at most `timeout` seconds, each D-Bus round trip
    /// limited to `roundTrip` seconds; after a lost connection (a restarted daemon) or a missing
    /// service, connects again once and retries, and after a session that cannot be used up to
    /// twice (``reconnections(after:)``). `alias` names the keyring the call is about, for a "no
    /// such keyring" error.
    static func perform<Value>(
        timeout: Double, roundTrip: Double, alias: String = "default",
        _ operation: (ShimCalls, inout SecretPathCache) throws(ShimFailure) -> Value
    ) throws(SecretError) -> Value {
        try checkSessionBus()
        var result = attempt(roundTrip: roundTrip, operation)
        var reconnected = 0
        while case .failure(let failure) = result, reconnected < reconnections(after: failure.reason) {
            reconnected += 1
            disconnect()
            result = attempt(roundTrip: roundTrip, operation)
        }
        switch result {
        case .success(let value):
            return value
        case .failure(let failure):
            throw failure.reason.secretError(detail: failure.detail, alias: alias, timeout: timeout)
        }
    }

    /// How many times in one operation a failure of this kind makes the session connect again:
    /// once for a lost connection or a missing service (a daemon restarted, or started by the
    /// first call), twice for an unusable session, which a new one cures (each is a new key
    /// exchange; kwalletd5 5.103 fails about one in a hundred: ``SecretServiceFailure/sessionRefused``);
    /// never for anything else.
    static func reconnections(after reason: SecretServiceFailure) -> Int {
        switch reason {
        case .disconnected, .serviceUnavailable: 1
        case .sessionRefused: 2
        default: 0
        }
    }

    /// Drops the connection and every remembered path.
    static func disconnect() {
        paths.withLock { $0.forgetAll() }
        ShimCalls.disconnect()
    }

    /// Connects, then runs `operation` with the remembered paths (taken out of the lock and put
    /// back, not copied).
    private static func attempt<Value>(
        roundTrip: Double, _ operation: (ShimCalls, inout SecretPathCache) throws(ShimFailure) -> Value
    ) -> Result<Value, ShimFailure> {
        var cache = paths.withLock { cache in
            defer { cache = SecretPathCache() }
            return cache
        }
        defer { paths.withLock { [cache] in $0 = cache } }
        do throws(ShimFailure) {
            return .success(try operation(try ShimCalls.connect(roundTrip: roundTrip), &cache))
        } catch {
            return .failure(error)
        }
    }

    /// Fails fast when there is no session bus at all, instead of letting GLib try to autolaunch one.
    static func checkSessionBus() throws(SecretError) {
        // getenv, not ProcessInfo's environment, which builds a dictionary of every variable
        // on each call (30 µs here, on every secret call).
        if let address = variable("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return }
        if let runtime = variable("XDG_RUNTIME_DIR"), FileManager.default.fileExists(atPath: runtime + "/bus") { return }
        throw .noSessionBus(detail: "DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus")
    }

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
#endif
