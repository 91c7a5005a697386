import Foundation
import RizqCore

/// Choosing, and remembering, the backend that takes the chain's writes.
extension ChainedSecretStore {
    /// What a short look at the Secret Service found.
    enum SecretServiceProbe {
        /// Not there: no session bus, no provider, no libsecret (the reason says which).
        case absent(String)
        /// There, answering; its keyring exists or not, locked or not.
        case present(keyringExists: Bool, locked: Bool)
        /// There, but it did not answer in time or failed.
        case failing(SecretError)
    }

    /// Looks at the Secret Service without prompting, waiting at most
    /// ``SecretStoreConfiguration/probeTimeout`` seconds.
    func probeSecretService() -> SecretServiceProbe {
        let probe = SecretServiceStore(
            service: service, collection: configuration.secretServiceCollection, timeout: configuration.probeTimeout, allowsPrompt: false)
        do {
            let status = try probe.keyringStatus()
            return .present(keyringExists: status.exists, locked: status.locked)
        } catch {
            return Self.isAbsence(error) ? .absent(error.description) : .failing(error)
        }
    }

    /// The backend that takes this chain's writes, who chose it and why: the first writable
    /// backend of an order the API, `RIZQ_SECRETS_BACKEND` or the config file set (never
    /// skipped, even when it is not there: the write then fails with its reason); else the one an
    /// earlier automatic choice remembered; else an automatic choice now (which may look at the
    /// Secret Service). Nothing is written.
    ///
    /// - Throws: ``/RizqCore/SecretError/noKeySource(detail:)`` when nothing can take a write
    ///   here, with the one-line fixes; ``/RizqCore/SecretError/readOnly(backend:detail:)`` when
    ///   the order set has no writable backend.
    public func writeTarget() throws(SecretError) -> SecretWriteTarget {
        if let known = try knownWriteTarget() { return known }
        if let chosen = automaticChoice.withLock({ $0 }) { return chosen }
        let chosen = try chooseAutomatically()
        automaticChoice.withLock { $0 = $0 ?? chosen }
        return chosen
    }

    /// The write target when it is known without looking at any backend: set, remembered, or
    /// this service's vault that exists already. `nil` when an automatic choice must look.
    func knownWriteTarget() throws(SecretError) -> SecretWriteTarget? {
        let settings = try settingsResult.get()
        if settings.orderOrigin != .automatic {
            guard let first = settings.order.first(where: \.isWritable) else {
                throw .readOnly(
                    backend: settings.order.map(\.rawValue).joined(separator: ","),
                    detail: "the order \(settings.orderSource) has no writable backend; add secret-service, vault or plaintext to it")
            }
            return SecretWriteTarget(backend: first, origin: settings.orderOrigin, reason: "the first writable backend of the order set by \(settings.orderSource)")
        }
        if let path = markerPath, let marker = try WriteTargetMarker.read(path) {
            let date = marker.chosen.formatted(.iso8601)
            return SecretWriteTarget(backend: marker.backend, origin: .remembered, reason: "chosen on \(date) (\(marker.reason)) and remembered in \(path)")
        }
        if vault.exists {
            return SecretWriteTarget(backend: .vault, origin: .automatic, reason: "this service's vault exists already (\(vault.folder))")
        }
        return nil
    }

    /// The marker file of this service, `nil` when the service cannot name a folder.
    var markerPath: String? { try? vault.layout().marker }

    /// Writes the marker of `target` (only if none is there, unless `replacing`).
    func remember(_ target: SecretWriteTarget, replacing: Bool) throws(SecretError) {
        guard let path = markerPath else { return }
        try WriteTargetMarker(backend: target.backend, chosen: Date(), reason: target.reason).write(to: path, replace: replacing)
    }

    /// Forgets the remembered write target (the next store chooses again); `false` when none was.
    @discardableResult
    public func forgetWriteTarget() throws(SecretError) -> Bool {
        automaticChoice.withLock { $0 = nil }
        guard let path = markerPath else { return false }
        do { return try PrivateFiles.remove(path) } catch { throw error.secretError }
    }

    /// The Secret Service if it is on the bus (present, locked or failing alike: its error then
    /// stops the write), else the vault if a key source can make it, else an error that says
    /// why neither, and the fixes.
    private func chooseAutomatically() throws(SecretError) -> SecretWriteTarget {
        let absence: String
        switch probeSecretService() {
        case .present(let exists, let locked):
            let state = !exists ? "it has no default keyring yet" : locked ? "its keyring is locked" : "its keyring is unlocked"
            return SecretWriteTarget(backend: .secretService, origin: .automatic, reason: "a Secret Service is on the session bus (\(state))")
        case .failing(let error):
            return SecretWriteTarget(backend: .secretService, origin: .automatic, reason: "a Secret Service is on the session bus, but failing: \(error)")
        case .absent(let reason):
            absence = reason
        }
        if let layout = try? vault.layout() {
            let slots = vault.automaticSlots(layout: layout)
            if !slots.isEmpty {
                return SecretWriteTarget(
                    backend: .vault, origin: .automatic,
                    reason: "no Secret Service (\(absence)); the vault is made with its \(slots.map(\.rawValue).joined(separator: " and ")) slot\(slots.count == 1 ? "" : "s")")
            }
        }
        throw nothingCanStore(secretServiceAbsence: absence)
    }

    /// No backend can take a write: the reasons, and the three one-line fixes.
    func nothingCanStore(secretServiceAbsence: String) -> SecretError {
        let reasons = (try? vault.layout()).map { vault.creationReasons(layout: $0) } ?? []
        let vaultReason = vault.canNameFolder ? "nothing to make the vault with (\(reasons.joined(separator: "; ")))" : "the service name cannot name a vault folder"
        return .noKeySource(detail: """
            no backend can store the secrets of '\(service)' here: no Secret Service (\(secretServiceAbsence)), and \(vaultReason). \
            Do one of: set RIZQ_SECRETS_PASSPHRASE_FILE to a file holding a passphrase (or RIZQ_SECRETS_PASSPHRASE_FD, \
            RIZQ_SECRETS_PASSPHRASE_COMMAND); run `rizq-prefs secret unlock` on a terminal (it asks for a passphrase once and \
            keeps the key until reboot); or run inside a desktop session (or `dbus-run-session` with an unlocked keyring daemon)
            """)
    }
}
