#if Secrets
import Foundation
import RizqCore

/// Asking, before a batch of writes, whether the first one could land: an importer or a
/// migration that must write nothing unless its secrets can be stored checks this first.
extension ChainedSecretStore {
    /// The write target (``writeTarget()``), once a look at it shows that a store would reach
    /// it now (``SecretBackend/checkReadyForWrite()``). Writes nothing (the marker of an
    /// automatic choice included), runs no key source and never prompts.
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
        guard let backend = backend(named: target.backend) else { throw unknownBackend(target.backend) }
        guard backend.isWritable else { throw .readOnly(backend: target.backend.rawValue, detail: "it cannot store secrets") }
        try backend.checkReadyForWrite()
        return target
    }
}
#endif
