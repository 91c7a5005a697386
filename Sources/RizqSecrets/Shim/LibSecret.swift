import CSecretShim
import Foundation
import Synchronization

/// The Secret Service operations over the C shim: reads through the ``SecretPathCache``,
/// deletes by item path, failures sorted by ``SecretServiceFailure`` and turned into
/// ``SecretError``, a lost connection made again once. Runs on ``SecretWorker``'s thread only.
enum LibSecret {
    /// Used on the worker thread only; the lock satisfies the compiler, and costs nothing
    /// uncontended.
    private static let paths = Mutex(SecretPathCache())

    /// A shim call that did not succeed: why, and GLib's message.
    struct Failure: Error {
        var reason: SecretServiceFailure
        var detail: String
    }

    // MARK: Operations

    /// Stores the secret of `key`, replacing the secret of an existing item.
    static func store(
        _ bytes: Data, isText: Bool, for key: SecretPathCache.Key, label: String, schema: String, alias: String, allowsPrompt: Bool
    ) -> Result<Void, Failure> {
        paths.withLock { $0.forget(key) }
        return run { error in
            bytes.withUnsafeBytes { raw in
                rizq_secret_store(
                    schema, key.service, key.account, label, raw.baseAddress, raw.count, isText ? 0 : 1, alias, allowsPrompt ? 1 : 0,
                    error)
            }
        }.map { _ in () }
    }

    /// The secret of `key`, or `nil` when there is no item: from the remembered path when nothing
    /// changed since it was found (one round trip), else searched for (two).
    static func lookup(_ key: SecretPathCache.Key, allowsPrompt: Bool) -> Result<Data?, Failure> {
        if let remembered = readRemembered(key) { return .success(remembered) }
        var before: UInt32 = 0
        let counting = rizq_secret_changes(&before) != 0
        var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var locked: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        defer {
            rizq_secret_paths_free(unlocked)
            rizq_secret_paths_free(locked)
        }
        if case .failure(let failure) = run({ rizq_secret_search_paths(key.service, key.account, &unlocked, &locked, $0) }) {
            return .failure(failure)
        }
        let chosen: UnsafeMutablePointer<CChar>
        if let path = unlocked?[0] {
            chosen = path
        } else if let path = locked?[0] {
            guard allowsPrompt else { return .failure(Failure(reason: .locked, detail: "the item is locked")) }
            if case .failure(let failure) = run({ rizq_secret_unlock_paths(locked, $0) }) { return .failure(failure) }
            chosen = path
        } else {
            return .success(nil)
        }
        let read = read(at: chosen)
        if case .success = read, counting {
            paths.withLock { $0.remember(String(cString: chosen), for: key, changesBefore: before) }
        }
        return read.map { Optional($0) }
    }

    /// Deletes every item of `key`; `false` when there was none.
    static func delete(_ key: SecretPathCache.Key, allowsPrompt: Bool) -> Result<Bool, Failure> {
        paths.withLock { $0.forget(key) }
        var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var locked: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        defer {
            rizq_secret_paths_free(unlocked)
            rizq_secret_paths_free(locked)
        }
        if case .failure(let failure) = run({ rizq_secret_search_paths(key.service, key.account, &unlocked, &locked, $0) }) {
            return .failure(failure)
        }
        let open = strings(unlocked)
        let closed = strings(locked)
        if open.isEmpty && closed.isEmpty { return .success(false) }
        if !closed.isEmpty {
            guard allowsPrompt else { return .failure(Failure(reason: .locked, detail: "the item is locked")) }
            if case .failure(let failure) = run({ rizq_secret_unlock_paths(locked, $0) }) { return .failure(failure) }
        }
        for path in open + closed {
            if case .failure(let failure) = run({ rizq_secret_delete_path(path, $0) }) { return .failure(failure) }
        }
        return .success(true)
    }

    /// The accounts with items under `service` (names only, never secrets), sorted.
    static func accounts(of service: String) -> Result<[String], Failure> {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var count = 0
        defer {
            if let names {
                for index in 0..<count { free(names[index]) }
            }
            free(names)
        }
        return run { rizq_secret_list(service, &names, &count, $0) }.map { _ in
            Set((0..<count).compactMap { names?[$0].map { String(cString: $0) } }).sorted()
        }
    }

    /// Whether the collection with `alias` exists and is locked.
    static func collectionStatus(_ alias: String) -> Result<(exists: Bool, locked: Bool), Failure> {
        var exists: Int32 = 0
        var locked: Int32 = 0
        return run { rizq_secret_collection_status(alias, &exists, &locked, $0) }.map { _ in (exists != 0, locked != 0) }
    }

    /// Locks the collection with `alias`, or unlocks it (which may prompt).
    static func setLocked(_ alias: String, _ lock: Bool) -> Result<Void, Failure> {
        run { rizq_secret_collection_set_locked(alias, lock ? 1 : 0, $0) }.map { _ in () }
    }

    // MARK: Running

    /// Runs `operation` for a caller that waits at most `timeout` seconds, each D-Bus round trip
    /// limited to `roundTrip` seconds; after a lost connection (a restarted daemon) or a missing
    /// service, connects again once and retries. `alias` names the keyring the call is about, for
    /// a "no such keyring" error.
    static func perform<Value>(
        timeout: Double, roundTrip: Double, alias: String = "default", _ operation: () -> Result<Value, Failure>
    ) throws(SecretError) -> Value {
        try checkSessionBus()
        rizq_secret_set_timeout(Int32(Swift.max(1, Swift.min(roundTrip * 1000, Double(Int32.max)))))
        var result = operation()
        if case .failure(let failure) = result, failure.reason == .disconnected || failure.reason == .serviceUnavailable {
            disconnect()
            result = operation()
        }
        switch result {
        case .success(let value):
            return value
        case .failure(let failure):
            throw failure.reason.secretError(detail: failure.detail, alias: alias, timeout: timeout)
        }
    }

    /// Drops the connection and every remembered path.
    static func disconnect() {
        paths.withLock { $0.forgetAll() }
        rizq_secret_disconnect()
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

    /// Runs one shim function: `RIZQ_SECRET_OK` and `RIZQ_SECRET_NOT_FOUND` succeed (with their
    /// status); anything else is a failure, sorted.
    private static func run(_ body: (UnsafeMutablePointer<rizq_secret_error>) -> Int32) -> Result<Int32, Failure> {
        var error = rizq_secret_error()
        let status = body(&error)
        if status == Int32(RIZQ_SECRET_OK) || status == Int32(RIZQ_SECRET_NOT_FOUND) { return .success(status) }
        let reported = GLibError(error)
        return .failure(Failure(reason: SecretServiceFailure(status: status, error: reported), detail: reported.message))
    }

    /// The secret at `path`, copied out of libsecret's secure memory, which is then freed.
    private static func read(at path: UnsafePointer<CChar>) -> Result<Data, Failure> {
        var value: OpaquePointer?
        return run { rizq_secret_read_path(path, &value, $0) }.map { _ in
            guard let value else { return Data() }
            defer { rizq_secret_value_release(value) }
            var length = 0
            guard let bytes = rizq_secret_value_bytes(value, &length) else { return Data() }
            return Data(bytes: bytes, count: length)
        }
    }

    /// The secret at the path remembered for `key`, if the count of changes stood still from
    /// before the search that found it until after this read (``SecretPathCache``); else `nil`,
    /// with the entry gone.
    private static func readRemembered(_ key: SecretPathCache.Key) -> Data? {
        var now: UInt32 = 0
        guard rizq_secret_changes(&now) != 0, let path = paths.withLock({ $0.path(for: key, changes: now) }) else { return nil }
        var after: UInt32 = 0
        if case .success(let secret) = read(at: path), rizq_secret_changes(&after) != 0, after == now { return secret }
        paths.withLock { $0.forget(key) }
        return nil
    }

    /// The strings of a NULL-terminated array.
    private static func strings(_ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        var result: [String] = []
        while let array, let item = array[result.count] { result.append(String(cString: item)) }
        return result
    }
}

extension SecretServiceFailure {
    /// The error a caller sees; `detail` is GLib's message, `alias` the keyring the call was
    /// about, `timeout` the caller's time-out.
    func secretError(detail: String, alias: String, timeout: Double) -> SecretError {
        switch self {
        case .noSessionBus: return .noSessionBus(detail: detail)
        case .serviceUnavailable: return .serviceUnavailable(detail: detail)
        case .locked: return .locked(detail: detail)
        case .promptDismissed: return .promptDismissed
        case .noCollection: return .noCollection(alias: alias)
        case .timedOut: return .timedOut(seconds: timeout)
        case .disconnected, .other: return .failed(detail: detail)
        }
    }
}
