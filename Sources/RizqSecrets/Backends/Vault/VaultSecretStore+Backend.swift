#if Secrets
import Foundation
import RizqCore

/// The vault as a backend of a ``ChainedSecretStore``.
extension VaultSecretStore: SecretBackend {
    /// `vault`.
    public var name: SecretBackendName { .vault }

    /// The vault stores and deletes.
    public var isWritable: Bool { true }

    /// Whether the service name can name a vault folder (not empty, no `/`, not `.` or `..`).
    public var canHoldService: Bool { (try? layout()) != nil }

    /// The vault's folder and key slots, whether a key source here can open (or make) it, and
    /// what protects it: one protection per slot.
    public func probe() -> SecretBackendStatus {
        func status(_ available: Bool, _ reason: String, _ problem: String?, _ protections: [SecretProtection]) -> SecretBackendStatus {
            SecretBackendStatus(
                backend: name, isAvailable: available, reason: reason, problem: problem, isWritable: true, persistence: .untilDeleted,
                protections: protections, location: folder)
        }
        guard let layout = try? layout() else {
            return status(false, "the service name '\(service)' cannot name a vault folder", nil, [])
        }
        let sources = keySourceStatuses(layout: layout)
        let slots = sources.filter { $0.source != .kernelKeyringCache }
        let cache = sources.first { $0.source == .kernelKeyringCache }
        if exists {
            let present = slots.filter(\.isPresent)
            let protections = present.flatMap { Self.protections($0.protection) }
            let usable = present.contains(where: \.isUsable) || cache?.isPresent == true
            var reason = "the vault \(layout.folder) has the slot\(present.count == 1 ? "" : "s") "
                + present.map { "\($0.source.rawValue) (\($0.isUsable ? "usable" : "not usable here"))" }.joined(separator: ", ")
            if let cache { reason += "; kernel-keyring cache: \(cache.reason)" }
            let problem = usable ? nil : VaultError.noKeySource(service: service, tried: sources.map { "\($0.source.rawValue): \($0.reason)" }).description
            return status(true, reason, problem, protections)
        }
        let automatic = automaticSlots(layout: layout)
        if automatic.isEmpty {
            return status(false, "no vault yet, and nothing to make one with: " + creationReasons(layout: layout).joined(separator: "; "), nil, [])
        }
        let protections = slots.filter { automatic.contains($0.source) }.flatMap { Self.protections($0.protection) }
        return status(
            true, "no vault yet; the first store makes \(layout.folder) with the \(automatic.map(\.rawValue).joined(separator: " and ")) slot\(automatic.count == 1 ? "" : "s")",
            nil, protections)
    }

    /// Holds the service's secrets when its vault exists (known without looking at anything
    /// else); can be made when a key source here can make it.
    public func candidacy(looking: Bool) -> SecretBackendCandidacy? {
        guard let layout = try? layout() else { return .unavailable(reason: "the service name cannot name a vault folder") }
        if exists { return .holdsSecrets(reason: "this service's vault exists already (\(folder))") }
        guard looking else { return nil }
        let slots = automaticSlots(layout: layout)
        guard !slots.isEmpty else {
            return .unavailable(reason: "nothing to make the vault with (\(creationReasons(layout: layout).joined(separator: "; ")))")
        }
        return .canCreate(reason: "the vault is made with its \(slots.map(\.rawValue).joined(separator: " and ")) slot\(slots.count == 1 ? "" : "s")")
    }

    /// The item's label and whether it is text.
    public func details(ofAccount account: String) -> (isText: Bool, label: String?)? {
        guard let item = try? item(forAccount: account) else { return nil }
        return (item.isText, item.label)
    }

    /// A key source's protection in the chain's terms.
    static func protections(_ protection: VaultKeyProtection) -> [SecretProtection] {
        switch protection {
        case .tpm2AndHostKey: return [.tpm, .hostKey]
        case .hostKey: return [.hostKey]
        case .passphrase: return [.passphrase]
        case .keyFile: return [.keyFile]
        case .obfuscation: return [.obfuscation]
        case .kernelMemory: return [.kernelMemory]
        }
    }
}

extension VaultSecretStore {
    /// Throws what a store would meet: no key source here that can open the vault (or make it).
    public func checkReadyForWrite() throws(SecretError) {
        let layout: VaultLayout
        do { layout = try self.layout() } catch { throw error.secretError }
        if exists {
            let sources = keySourceStatuses(layout: layout)
            guard sources.contains(where: { $0.isPresent && $0.isUsable }) else {
                throw VaultError.noKeySource(service: service, tried: sources.map { "\($0.source.rawValue): \($0.reason)" }).secretError
            }
        } else if automaticSlots(layout: layout).isEmpty {
            throw VaultError.noKeySource(service: service, tried: creationReasons(layout: layout)).secretError
        }
    }
}
#endif
