import Foundation
import RizqCore

/// What each backend declares, for `secret backends` and `doctor`.
extension ChainedSecretStore {
    /// The chain as it is now: order, write target and every backend's declaration. Looks at the
    /// Secret Service (without prompting, within ``SecretStoreConfiguration/probeTimeout``) and at
    /// the vault's key sources (without running any); writes nothing.
    ///
    /// - Throws: ``/RizqCore/SecretError/invalidConfiguration(detail:)`` when the settings
    ///   cannot be used.
    public func report() throws(SecretError) -> SecretChainReport {
        let settings = try settingsResult.get()
        let probe = probeSecretService()
        var target: SecretWriteTarget?
        var problem: String?
        do {
            target = try writeTarget()
        } catch {
            problem = error.description
        }
        let statuses = SecretBackendKind.allCases.map { status(of: $0, order: settings.order, probe: probe) }
        if let target, problem == nil, let status = statuses.first(where: { $0.backend == target.backend }) {
            if !status.isAvailable {
                problem = "the write target \(target.backend.rawValue) is not there: \(status.reason)"
            } else {
                problem = status.problem
            }
        }
        return SecretChainReport(
            service: service, order: settings.order, orderOrigin: settings.orderOrigin, configFile: settings.configFile,
            configFileExists: settings.configFileExists, writeTarget: target, writeProblem: problem, backends: statuses)
    }

    /// Every backend's declaration, in the order of `SecretBackendKind.allCases`.
    public func backends() throws(SecretError) -> [SecretBackendStatus] {
        try report().backends
    }

    func status(of backend: SecretBackendKind, order: [SecretBackendKind], probe: SecretServiceProbe) -> SecretBackendStatus {
        let inChain = order.contains(backend)
        var status: SecretBackendStatus
        switch backend {
        case .credentials: status = credentials.status(isInChain: inChain)
        case .secretService: status = secretServiceStatus(probe, isInChain: inChain)
        case .vault: status = vaultStatus(isInChain: inChain)
        case .plaintext: status = plaintext.status(isInChain: inChain)
        }
        if !inChain, backend != .plaintext {
            status.reason = "not in the chain (\((try? settingsResult.get().orderSource) ?? "its order")); " + status.reason
        }
        return status
    }

    private func secretServiceStatus(_ probe: SecretServiceProbe, isInChain: Bool) -> SecretBackendStatus {
        let persistence: SecretPersistence = configuration.secretServiceCollection == .session ? .process : .untilDeleted
        let bus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        func status(_ available: Bool, _ reason: String, _ problem: String?) -> SecretBackendStatus {
            SecretBackendStatus(
                backend: .secretService, isInChain: isInChain, isAvailable: available, reason: reason, problem: problem, isReadable: true,
                isWritable: true, persistence: persistence, protections: [.osKeyring], location: bus)
        }
        switch probe {
        case .absent(let reason):
            return status(false, reason, nil)
        case .present(let exists, let locked):
            let alias = configuration.secretServiceCollection.rawValue
            if !exists { return status(true, "a Secret Service answers on the session bus", SecretError.noCollection(alias: alias).description) }
            if locked { return status(true, "a Secret Service answers on the session bus", SecretError.locked(detail: "the \(alias) keyring").description) }
            return status(true, "a Secret Service answers on the session bus; the \(alias) keyring is unlocked", nil)
        case .failing(let error):
            return status(true, "a Secret Service is on the session bus", error.description)
        }
    }

    private func vaultStatus(isInChain: Bool) -> SecretBackendStatus {
        func status(_ available: Bool, _ reason: String, _ problem: String?, _ protections: [SecretProtection]) -> SecretBackendStatus {
            SecretBackendStatus(
                backend: .vault, isInChain: isInChain, isAvailable: available, reason: reason, problem: problem, isReadable: true,
                isWritable: true, persistence: .untilDeleted, protections: protections, location: vault.folder)
        }
        guard let layout = try? vault.layout() else {
            return status(false, "the service name '\(service)' cannot name a vault folder", nil, [])
        }
        let sources = vault.keySourceStatuses(layout: layout)
        let slots = sources.filter { $0.source != .kernelKeyringCache }
        let cache = sources.first { $0.source == .kernelKeyringCache }
        if vault.exists {
            let present = slots.filter(\.isPresent)
            let protections = present.flatMap { Self.protections($0.protection) }
            let usable = present.contains(where: \.isUsable) || cache?.isPresent == true
            var reason = "the vault \(layout.folder) has the slot\(present.count == 1 ? "" : "s") " + present.map { "\($0.source.rawValue) (\($0.isUsable ? "usable" : "not usable here"))" }.joined(separator: ", ")
            if let cache { reason += "; kernel-keyring cache: \(cache.reason)" }
            let problem = usable
                ? nil
                : VaultError.noKeySource(service: service, tried: sources.map { "\($0.source.rawValue): \($0.reason)" }).description
            return status(true, reason, problem, protections)
        }
        let automatic = vault.automaticSlots(layout: layout)
        if automatic.isEmpty {
            return status(false, "no vault yet, and nothing to make one with: " + vault.creationReasons(layout: layout).joined(separator: "; "), nil, [])
        }
        let protections = slots.filter { automatic.contains($0.source) }.flatMap { Self.protections($0.protection) }
        return status(true, "no vault yet; the first store makes \(layout.folder) with the \(automatic.map(\.rawValue).joined(separator: " and ")) slot\(automatic.count == 1 ? "" : "s")", nil, protections)
    }

    /// A vault key source's protection in the chain's terms.
    static func protections(_ protection: VaultKeyProtection) -> [SecretProtection] {
        switch protection {
        case .tpm2AndHostKey: return [.tpm, .hostKey]
        case .hostKey: return [.hostKey]
        case .passphrase: return [.passphrase]
        case .keyFile, .obfuscation: return [.keyFile]
        case .kernelMemory: return []
        }
    }
}
