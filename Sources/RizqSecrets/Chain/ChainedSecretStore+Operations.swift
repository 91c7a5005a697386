#if Secrets
import Foundation
import Logging
import RizqCore

/// The chain's operations, on the calling (dispatch) thread.
extension ChainedSecretStore {
    /// What one backend answered.
    enum Answer<Value> {
        /// It has it.
        case found(Value)
        /// It does not have it, or is not there at all (no bus, no libsecret, no folder).
        case nothing
        /// It is there and could not answer.
        case failed(SecretError)
    }

    /// Runs `body` against `backend` and sorts the outcome. A backend that is not there has
    /// nothing — unless it is `target()`, the known write target: where this app's secrets are,
    /// "not there" is "could not look" (a remembered keyring with no session bus, under cron).
    /// `target` is asked only then. A backend that cannot hold this service at all (a vault for
    /// a service that cannot name a folder) has nothing.
    func ask<Value>(
        _ backend: any SecretBackend, target: () -> SecretWriteTarget?, _ body: (any SecretBackend) throws(SecretError) -> Value?
    ) -> Answer<Value> {
        guard backend.canHoldService else { return .nothing }
        do {
            guard let value = try body(backend) else { return .nothing }
            return .found(value)
        } catch {
            return error.isAbsence && backend.name != target()?.backend ? .nothing : .failed(error)
        }
    }

    /// The backends reads try: the order, and the known write target after it when the order
    /// leaves it out (a chain reads back what it writes).
    func readingBackends(target: SecretWriteTarget?) throws(SecretError) -> [any SecretBackend] {
        var reading = try orderedBackends()
        if let target, !reading.contains(where: { $0.name == target.backend }), let backend = backend(named: target.backend) {
            reading.append(backend)
        }
        return reading
    }

    // MARK: Read

    /// The first copy of `account` in the order, and the backend it came from. The write target
    /// is looked up only when an answer depends on it — a backend that is not there, a copy after
    /// a backend that could not look, nothing found in the order (the target is then read too,
    /// when the order leaves it out) — so a read that a backend answers touches nothing else.
    func readNow(_ account: String) throws(SecretError) -> (bytes: Data, backend: SecretBackendName)? {
        try readFirst(account) { (store) throws(SecretError) in try store.secretBytes(forAccount: account) }.map { (bytes: $0.value, backend: $0.backend) }
    }

    /// What a read of `account` finds, served or expired (``readNow(_:)``'s order and rules): the
    /// first backend's secret that is served; else the first expired one, with its lifetime.
    func readingNow(_ account: String) throws(SecretError) -> SecretReading? {
        var expired: SecretReading?
        let found = try readFirst(account) { (store) throws(SecretError) -> SecretReading? in
            let reading = try store.readSecret(forAccount: account)
            guard case .expired = reading else { return reading }
            expired = expired ?? reading
            return nil
        }
        return found?.value ?? expired
    }

    /// The first answer of `read` in the order (see ``readNow(_:)``), and the backend it came from.
    private func readFirst<Value>(
        _ account: String, _ read: (any SecretBackend) throws(SecretError) -> Value?
    ) throws(SecretError) -> (value: Value, backend: SecretBackendName)? {
        try SecretInput.validate(service: service, account: account)
        var looked: SecretWriteTarget??
        func target() -> SecretWriteTarget? {
            if let looked { return looked }
            let found = try? resolvedWriteTarget(looking: false)
            looked = .some(found)
            return found
        }
        var failure: SecretError?
        /// `backend`'s copy when the read ends with it; `nil` to go on.
        func answer(_ backend: any SecretBackend) throws(SecretError) -> Value? {
            switch ask(backend, target: target, read) {
            case .found(let bytes):
                Logger.rizqSecrets.debug("chain read a secret", metadata: ["service": "\(service)", "account": "\(account)", "backend": "\(backend.name)"])
                // An earlier backend could not look: its copy, if it has one, would win. Only
                // the write target's own copy (where this app's writes went) may answer anyway.
                guard let failure, target()?.backend != backend.name else { return bytes }
                throw failure
            case .nothing:
                return nil
            case .failed(let error):
                failure = failure ?? error
                return nil
            }
        }
        let ordered = try orderedBackends()
        for backend in ordered {
            if let value = try answer(backend) { return (value, backend.name) }
        }
        if let known = target(), !ordered.contains(where: { $0.name == known.backend }), let outside = self.backend(named: known.backend),
            let value = try answer(outside) {
            return (value, outside.name)
        }
        if let failure { throw failure }
        return nil
    }

    func accountsNow() throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        var accounts = Set<String>()
        let target = try? resolvedWriteTarget(looking: false)
        for backend in try readingBackends(target: target) {
            switch ask(backend, target: { target }, { (store) throws(SecretError) in try store.accounts() }) {
            case .found(let names): accounts.formUnion(names)
            case .nothing: continue
            case .failed(let error): throw error
            }
        }
        return accounts.sorted()
    }

    // MARK: Write

    func storeNow(_ bytes: Data, isText: Bool, account: String, label: String?, lifetime: SecretLifetime? = nil) throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label, secretSize: bytes.count, lifetime: lifetime)
        let target = try writeTarget()
        guard let backend = backend(named: target.backend) else { throw unknownBackend(target.backend) }
        try refuseIfShadowed(account, writingTo: backend)
        try backend.storeSecret(bytes, isText: isText, forAccount: account, label: label, lifetime: lifetime)
        Logger.rizqSecrets.debug("chain stored a secret", metadata: [
            "service": "\(service)", "account": "\(account)", "backend": "\(target.backend)", "origin": "\(target.origin.rawValue)",
        ])
        if backend.storesPlainText {
            Logger.rizqSecrets.warning(
                "stored '\(account)' of '\(service)' in PLAIN TEXT (\(backend.location(ofAccount: account) ?? target.backend.rawValue)): anyone who can read that file, or a copy of it, reads it; the \(target.backend) backend was named by \(target.reason)",
                metadata: ["service": "\(service)", "account": "\(account)", "backend": "\(target.backend)"])
        }
        if target.origin == .automatic {
            // Remembered once a store has gone there. Not remembering (a full disk) only means
            // the next process chooses again, the same way.
            _ = try? remember(target, replacing: false)
        }
    }

    /// Refuses a write of `account` to `target` when a backend read before it holds the account:
    /// reads would go on returning that copy, and the write would be lost from sight (a
    /// credential folder's `svc.account`, delivered by the host). A backend that cannot be asked
    /// now does not stop the write.
    func refuseIfShadowed(_ account: String, writingTo target: any SecretBackend) throws(SecretError) {
        for earlier in try orderedBackends() {
            if earlier.name == target.name { return }
            guard case .found = ask(earlier, target: { nil }, { (store) throws(SecretError) in try store.secretBytes(forAccount: account) }) else { continue }
            let place = earlier.location(ofAccount: account).map { " " + $0 } ?? ""
            let fix = earlier.isWritable
                ? "delete it there first (rizq-prefs secret delete --backend \(earlier.name) \(account)), or take \(earlier.name) out of the order"
                : "change it where the host sets it (the unit's LoadCredential=, the container's secrets), or take \(earlier.name) out of the order"
            throw .shadowed(
                backend: earlier.name.rawValue,
                detail: "'\(account)' is already delivered by the \(earlier.name) backend\(place), which reads find before \(target.name): a copy written to \(target.name) would never be read; nothing was written. \(fix.prefix(1).uppercased() + fix.dropFirst())")
        }
    }

    func deleteNow(_ account: String) throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        var deleted = false
        var failure: SecretError?
        let target = try? resolvedWriteTarget(looking: false)
        let reading = try readingBackends(target: target)
        for backend in reading where backend.isWritable {
            switch ask(backend, target: { target }, { (store) throws(SecretError) -> Bool? in try store.deleteSecret(forAccount: account) ? true : nil }) {
            case .found: deleted = true
            case .nothing: continue
            case .failed(let error): failure = failure ?? error
            }
        }
        if let failure { throw failure }
        for backend in reading where !backend.isWritable {
            guard case .found = ask(backend, target: { target }, { (store) throws(SecretError) in try store.secretBytes(forAccount: account) }) else { continue }
            let done = deleted ? "it was deleted from the writable backends, but " : ""
            let place = backend.location(ofAccount: account).map { " " + $0 } ?? ""
            throw .readOnly(
                backend: backend.name.rawValue,
                detail: "\(done)'\(account)' is still delivered by the host\(place), and reads find it there; remove it where the host sets it (the unit's LoadCredential=, the container's secrets)")
        }
        return deleted
    }

    /// The error for an order or target naming a backend the chain does not have.
    func unknownBackend(_ name: SecretBackendName) -> SecretError {
        .invalidConfiguration(detail: "the backend '\(name)' is not one this chain has; give one of \(backends.map(\.name.rawValue).joined(separator: ", "))")
    }
}
#endif
