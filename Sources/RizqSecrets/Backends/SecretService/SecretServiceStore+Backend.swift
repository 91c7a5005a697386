#if Secrets
import Foundation
import RizqCore

/// The Secret Service as a backend of a ``ChainedSecretStore``.
extension SecretServiceStore: SecretBackend {
    /// `secret-service`.
    public var name: SecretBackendName { .secretService }

    /// The Secret Service stores and deletes.
    public var isWritable: Bool { true }

    /// What a short look at the bus found.
    enum Look {
        /// Not there: no session bus, no provider, no libsecret (the reason says which).
        case absent(String)
        /// There, answering; its keyring exists or not, locked or not.
        case present(keyringExists: Bool, locked: Bool)
        /// There, but it did not answer in time or failed.
        case failing(SecretError)
    }

    /// Looks at the Secret Service without prompting, waiting at most ``probeTimeout`` seconds.
    func look() -> Look {
        let probe = SecretServiceStore(service: service, collection: collection, timeout: probeTimeout, allowsPrompt: false, probeTimeout: probeTimeout)
        do {
            let status = try probe.keyringStatus()
            return .present(keyringExists: status.exists, locked: status.locked)
        } catch {
            return error.isAbsence ? .absent(error.description) : .failing(error)
        }
    }

    /// Whether a Secret Service answers on the session bus, and whether its keyring is unlocked.
    public func probe() -> SecretBackendStatus {
        let persistence: SecretPersistence = collection == .session ? .process : .untilDeleted
        let bus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        func status(_ available: Bool, _ reason: String, _ problem: String?) -> SecretBackendStatus {
            SecretBackendStatus(
                backend: name, isAvailable: available, reason: reason, problem: problem, isWritable: true, persistence: persistence,
                protections: [.osKeyring], location: bus)
        }
        switch look() {
        case .absent(let reason):
            return status(false, reason, nil)
        case .present(let exists, let locked):
            let alias = collection.rawValue
            if !exists { return status(true, "a Secret Service answers on the session bus", SecretError.noCollection(alias: alias).description) }
            if locked { return status(true, "a Secret Service answers on the session bus", SecretError.locked(detail: "the \(alias) keyring").description) }
            return status(true, "a Secret Service answers on the session bus; the \(alias) keyring is unlocked", nil)
        case .failing(let error):
            return status(true, "a Secret Service is on the session bus", error.description)
        }
    }

    /// Present when a Secret Service is on the bus — locked or failing alike: its error then
    /// stops the write, never a fall-through to a weaker backend. Known only by looking.
    public func candidacy(looking: Bool) -> SecretBackendCandidacy? {
        guard looking else { return nil }
        switch look() {
        case .present(let exists, let locked):
            let state = !exists ? "it has no default keyring yet" : locked ? "its keyring is locked" : "its keyring is unlocked"
            return .present(reason: "a Secret Service is on the session bus (\(state))")
        case .failing(let error):
            return .present(reason: "a Secret Service is on the session bus, but failing: \(error)")
        case .absent(let reason):
            return .unavailable(reason: "no Secret Service (\(reason))")
        }
    }
}

extension SecretServiceStore {
    /// Throws what a store would meet: the Secret Service's absence or failure, or a locked
    /// keyring when prompting is not allowed (a locked keyring takes a write only through its
    /// unlock prompt).
    public func checkReadyForWrite() throws(SecretError) {
        let probe = SecretServiceStore(service: service, collection: collection, timeout: probeTimeout, allowsPrompt: false, probeTimeout: probeTimeout)
        let status = try probe.keyringStatus()
        if status.exists, status.locked, !allowsPrompt {
            throw .locked(detail: "the \(collection.rawValue) keyring")
        }
    }
}
#endif
