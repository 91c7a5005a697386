#if Secrets
import Foundation
import RizqCore

/// Choosing, and remembering, the backend that takes the chain's writes.
extension ChainedSecretStore {
    /// The backend that takes this chain's writes, who chose it and why: the first writable
    /// backend of an order the API, `RIZQ_SECRETS_BACKEND` or the config file set (never
    /// skipped, even when it is not there: the write then fails with its reason); else the one an
    /// earlier automatic choice remembered; else an automatic choice now (which may look at the
    /// backends: ``SecretBackend/candidacy(looking:)``). Nothing is written.
    ///
    /// - Throws: ``/RizqCore/SecretError/noKeySource(detail:)`` when nothing can take a write
    ///   here, with the one-line fixes; ``/RizqCore/SecretError/readOnly(backend:detail:)`` when
    ///   the order set has no writable backend; ``/RizqCore/SecretError/invalidConfiguration(detail:)``
    ///   when the target keeps plain text and was not named in this process (a remembered
    ///   choice): plain text is written only when named.
    public func writeTarget() throws(SecretError) -> SecretWriteTarget {
        guard let target = try resolvedWriteTarget(looking: true) else { throw nothingCanStore() }
        if target.origin == .remembered, backend(named: target.backend)?.storesPlainText == true {
            throw .invalidConfiguration(detail: "the remembered write target of '\(service)' is \(target.backend), which keeps secrets in plain text (\(target.reason)); plain text is written only when named in the process that writes: set RIZQ_SECRETS_BACKEND=\(target.backend) (or the config file's backend), or move the secrets to an encrypted backend (rizq-prefs secret move --service \(service) --from \(target.backend) --to vault)")
        }
        return target
    }

    /// The write target as ``writeTarget()`` finds it, without its refusal of an unnamed plain
    /// text; `nil` when an automatic choice is needed and `looking` is false, or nothing can
    /// take a write.
    func resolvedWriteTarget(looking: Bool) throws(SecretError) -> SecretWriteTarget? {
        if let known = try knownWriteTarget() { return known }
        if let chosen = automaticChoice.withLock({ $0 }) { return chosen }
        guard looking else { return nil }
        guard let chosen = try chooseAutomatically() else { return nil }
        automaticChoice.withLock { $0 = $0 ?? chosen }
        return chosen
    }

    /// The write target when it is known without looking at any other process: set, remembered,
    /// or a backend that holds this service's secrets already (its vault). `nil` when an
    /// automatic choice must look.
    func knownWriteTarget() throws(SecretError) -> SecretWriteTarget? {
        let settings = try settingsResult.get()
        if settings.orderOrigin != .automatic {
            guard let first = try orderedBackends().first(where: \.isWritable) else {
                throw .readOnly(
                    backend: settings.order.map(\.rawValue).joined(separator: ","),
                    detail: "the order \(settings.orderSource) has no writable backend; add one of \(writableNames) to it")
            }
            return SecretWriteTarget(backend: first.name, origin: settings.orderOrigin, reason: "the first writable backend of the order set by \(settings.orderSource)")
        }
        if let path = markerPath, let marker = try WriteTargetMarker.read(path) {
            return SecretWriteTarget(backend: marker.backend, origin: .remembered, reason: "chosen on \(marker.chosen) (\(marker.reason)) and remembered in \(path)")
        }
        for backend in try orderedBackends() where backend.isWritable {
            if case .holdsSecrets(let reason)? = backend.candidacy(looking: false) {
                return SecretWriteTarget(backend: backend.name, origin: .automatic, reason: reason)
            }
        }
        return nil
    }

    /// The marker file of this service (``ChainState``), `nil` when the service cannot name a folder.
    var markerPath: String? { state?.marker }

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

    /// The first writable backend of the order that holds the service's secrets, else the first
    /// that is there, else the first that can be made; `nil` when none can.
    private func chooseAutomatically() throws(SecretError) -> SecretWriteTarget? {
        var present: SecretWriteTarget?
        var creatable: SecretWriteTarget?
        // Why the backends before the one chosen were passed over: part of its reason
        // ("no Secret Service (no D-Bus session bus …); the vault is made with …").
        var passedOver: [String] = []
        for backend in try orderedBackends() where backend.isWritable && backend.canHoldService && !backend.storesPlainText {
            switch backend.candidacy(looking: true) {
            case .holdsSecrets(let reason)?:
                return SecretWriteTarget(backend: backend.name, origin: .automatic, reason: reason)
            case .present(let reason)?:
                present = present ?? SecretWriteTarget(backend: backend.name, origin: .automatic, reason: reason)
            case .canCreate(let reason)?:
                creatable = creatable ?? SecretWriteTarget(backend: backend.name, origin: .automatic, reason: (passedOver + [reason]).joined(separator: "; "))
            case .unavailable(let reason)?:
                if present == nil, creatable == nil { passedOver.append(reason) }
            case nil:
                continue
            }
        }
        return present ?? creatable
    }

    /// No backend can take a write: each backend's reason, and the three one-line fixes.
    func nothingCanStore() -> SecretError {
        let reasons = ((try? orderedBackends()) ?? backends).filter(\.isWritable).compactMap { backend -> String? in
            guard let candidacy = backend.candidacy(looking: true) else { return nil }
            return "\(backend.name): \(candidacy.reason)"
        }
        return .noKeySource(detail: """
            no backend can store the secrets of '\(service)' here (\(reasons.joined(separator: "; "))). \
            Do one of: set RIZQ_SECRETS_PASSPHRASE_FILE to a file holding a passphrase (or RIZQ_SECRETS_PASSPHRASE_FD, \
            RIZQ_SECRETS_PASSPHRASE_COMMAND); run `rizq-prefs secret unlock` on a terminal (it asks for a passphrase once and \
            keeps the key until reboot); or run inside a desktop session (or `dbus-run-session` with an unlocked keyring daemon)
            """)
    }
}
#endif
