import Foundation
import RizqCore

/// Asking, before a batch of writes, whether the first one could land: an importer or a
/// migration that must write nothing unless its secrets can be stored checks this first.
extension ChainedSecretStore {
    /// The write target (``writeTarget()``), once a look at it shows that a store would reach
    /// it now. Writes nothing (the marker of an automatic choice included), runs no key source
    /// and never prompts.
    ///
    /// - Throws: the target's own error: ``/RizqCore/SecretError/noKeySource(detail:)`` when no
    ///   backend can store here (with the one-line fixes); the Secret Service's absence
    ///   (`SecretError.noSessionBus`, …), failure or lock, when it is the target;
    ///   the vault's when it exists and no key source here can open it.
    public func checkWriteTarget() throws(SecretError) -> SecretWriteTarget {
        try call("checking where secrets would be stored") { () throws(SecretError) -> SecretWriteTarget in try self.checkWriteTargetNow() }
    }

    func checkWriteTargetNow() throws(SecretError) -> SecretWriteTarget {
        let target = try writeTarget()
        switch target.backend {
        case .secretService:
            let probe = SecretServiceStore(
                service: service, collection: configuration.secretServiceCollection, timeout: configuration.probeTimeout, allowsPrompt: false)
            let status = try probe.keyringStatus()
            // A locked keyring takes a write only through its unlock prompt.
            if status.exists, status.locked, !configuration.allowsPrompt {
                throw .locked(detail: "the \(configuration.secretServiceCollection.rawValue) keyring")
            }
        case .vault:
            let layout: VaultLayout
            do { layout = try vault.layout() } catch { throw error.secretError }
            if vault.exists {
                let sources = vault.keySourceStatuses(layout: layout)
                guard sources.contains(where: { $0.isPresent && $0.isUsable }) else {
                    throw VaultError.noKeySource(service: service, tried: sources.map { "\($0.source.rawValue): \($0.reason)" }).secretError
                }
            } else if vault.automaticSlots(layout: layout).isEmpty {
                throw VaultError.noKeySource(service: service, tried: vault.creationReasons(layout: layout)).secretError
            }
        case .plaintext:
            break
        case .credentials:
            throw .readOnly(backend: target.backend.rawValue, detail: "credential folders are read-only")
        }
        return target
    }
}
