#if Secrets
import Foundation
import RizqCore

/// What each backend declares, for `secret backends` and `doctor`.
extension ChainedSecretStore {
    /// The chain as it is now: order, write target and every backend's declaration
    /// (``SecretBackend/probe()``). Looks at the Secret Service (without prompting, within
    /// ``SecretStoreConfiguration/probeTimeout``) and at the vault's key sources (without running
    /// any); writes nothing.
    ///
    /// - Throws: the settings' error when they cannot be used (an unknown backend, an untrusted
    ///   config file).
    public func report() throws(SecretError) -> SecretChainReport {
        let settings = try settingsResult.get()
        var target: SecretWriteTarget?
        var problem: String?
        do {
            target = try writeTarget()
        } catch {
            problem = error.description
            // A target that is refused (plain text not named here) is still the one the chain names.
            target = try? resolvedWriteTarget(looking: false)
        }
        let statuses = backends.map { status(of: $0, order: settings.order, target: target) }
        if let target, problem == nil, let status = statuses.first(where: { $0.backend == target.backend }) {
            if !status.isAvailable {
                problem = "the write target \(target.backend) is not there: \(status.reason)"
            } else {
                problem = status.problem
            }
        }
        return SecretChainReport(
            service: service, order: settings.order, orderOrigin: settings.orderOrigin, configFile: settings.configFile,
            configFileExists: settings.configFileExists, writeTarget: target, writeProblem: problem, backends: statuses)
    }

    /// Every backend's declaration, in the registry's order.
    public func backendStatuses() throws(SecretError) -> [SecretBackendStatus] {
        try report().backends
    }

    /// `backend`'s probe, marked in the chain or not (the write target is read, so it counts).
    func status(of backend: any SecretBackend, order: [SecretBackendName], target: SecretWriteTarget?) -> SecretBackendStatus {
        var status = backend.probe()
        status.isInChain = order.contains(backend.name) || target?.backend == backend.name
        if !status.isInChain {
            status.reason = "not in the chain (\((try? settingsResult.get().orderSource) ?? "its order")); " + status.reason
        }
        return status
    }
}
#endif
