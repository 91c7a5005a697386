import Foundation
import Logging
import RizqCore

/// The chain's operations, on the calling (dispatch) thread.
extension ChainedSecretStore {
    /// The label `RizqSecrets`, as the Secret Service's lines: which backend a store went to, or
    /// a read came from, and how the vault was opened. Never a secret.
    static let logger = Logger(label: "RizqSecrets")

    /// What one backend answered.
    enum Answer<Value> {
        /// It has it.
        case found(Value)
        /// It does not have it, or is not there at all (no bus, no libsecret, no folder).
        case nothing
        /// It is there and could not answer.
        case failed(SecretError)
    }

    /// Whether `error` means "this backend is not there", which the chain skips, rather than "it
    /// is there and failing", which the chain reports: no session bus, no Secret Service provider,
    /// no libsecret.
    static func isAbsence(_ error: SecretError) -> Bool {
        switch error {
        case .noSessionBus, .serviceUnavailable, .libsecretMissing: return true
        default: return false
        }
    }

    /// Runs `body` against `backend`'s store and sorts the outcome. A backend that is not there
    /// has nothing — unless it is `target`, the known write target: where this app's secrets
    /// are, "not there" is "could not look" (a remembered keyring with no session bus, under cron).
    /// A vault or plain-text file cannot exist for a service that cannot name a folder.
    func ask<Value>(
        _ backend: SecretBackendKind, target: SecretWriteTarget?, _ body: (any SecretStore) throws(SecretError) -> Value?
    ) -> Answer<Value> {
        if backend == .vault || backend == .plaintext, !vault.canNameFolder { return .nothing }
        do {
            guard let value = try body(store(for: backend)) else { return .nothing }
            return .found(value)
        } catch {
            return Self.isAbsence(error) && backend != target?.backend ? .nothing : .failed(error)
        }
    }

    // MARK: Read

    func readNow(_ account: String) throws(SecretError) -> (bytes: Data, backend: SecretBackendKind)? {
        try SecretInput.validate(service: service, account: account)
        let order = try order()
        let target = try? knownWriteTarget()
        var failure: (backend: SecretBackendKind, error: SecretError)?
        for backend in order {
            switch ask(backend, target: target, { (store) throws(SecretError) in try store.secretBytes(forAccount: account) }) {
            case .found(let bytes):
                Self.logger.debug("chain read a secret", metadata: ["service": "\(service)", "account": "\(account)", "backend": "\(backend.rawValue)"])
                guard let failure else { return (bytes, backend) }
                // An earlier backend could not look: its copy, if it has one, would win. Only
                // the write target's own copy (where this app's writes went) may answer anyway.
                if target?.backend == backend { return (bytes, backend) }
                throw failure.error
            case .nothing:
                continue
            case .failed(let error):
                failure = failure ?? (backend, error)
            }
        }
        if let failure { throw failure.error }
        return nil
    }

    func accountsNow() throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        var accounts = Set<String>()
        let target = try? knownWriteTarget()
        for backend in try order() {
            switch ask(backend, target: target, { (store) throws(SecretError) in try store.accounts() }) {
            case .found(let names): accounts.formUnion(names)
            case .nothing: continue
            case .failed(let error): throw error
            }
        }
        return accounts.sorted()
    }

    // MARK: Write

    func storeNow(_ bytes: Data, isText: Bool, account: String, label: String?) throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label, secretSize: bytes.count)
        let target = try writeTarget()
        try store(for: target.backend).storeSecret(bytes, isText: isText, forAccount: account, label: label)
        Self.logger.debug("chain stored a secret", metadata: [
            "service": "\(service)", "account": "\(account)", "backend": "\(target.backend.rawValue)", "origin": "\(target.origin.rawValue)",
        ])
        if target.origin == .automatic {
            // Remembered once a store has gone there. Not remembering (a full disk) only means
            // the next process chooses again, the same way.
            _ = try? remember(target, replacing: false)
        }
    }

    func deleteNow(_ account: String) throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        var deleted = false
        var failure: SecretError?
        let target = try? knownWriteTarget()
        for backend in try order() where backend.isWritable {
            switch ask(backend, target: target, { (store) throws(SecretError) -> Bool? in try store.deleteSecret(forAccount: account) ? true : nil }) {
            case .found: deleted = true
            case .nothing: continue
            case .failed(let error): failure = failure ?? error
            }
        }
        if let failure { throw failure }
        if try order().contains(.credentials), let found = credentials.location(ofAccount: account) {
            let done = deleted ? "it was deleted from the writable backends, but " : ""
            throw .readOnly(
                backend: SecretBackendKind.credentials.rawValue,
                detail: "\(done)'\(account)' is still delivered by the host as \(found.path) (\(found.directory.origin)), and reads find it there; remove it where the host sets it (the unit's LoadCredential=, the container's secrets)")
        }
        return deleted
    }
}

extension VaultSecretStore {
    /// Whether the service name can name a vault folder (not empty, no `/`, not `.` or `..`).
    var canNameFolder: Bool { (try? layout()) != nil }
}
