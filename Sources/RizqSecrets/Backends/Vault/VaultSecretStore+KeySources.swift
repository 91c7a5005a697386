#if Secrets
import Foundation
import Logging
import RizqAge

extension VaultSecretStore {
    // MARK: - Creating the vault and its slots

    /// Makes the vault with a new identity (or, for a key-file slot whose file exists, the
    /// identity in it) held in each of `slots`. Returns the vault's recipient (`age1…`).
    ///
    /// - Throws: ``VaultError/alreadyExists(folder:)``; ``VaultError/noKeySource(service:tried:)``
    ///   when `slots` is empty; a slot's failure (nothing is left behind but a key file).
    @discardableResult
    public func create(slots: [VaultKeySource]) throws(VaultError) -> String {
        let layout = try layout()
        try layout.ensureFolders()
        return try VaultLock.holding(layout.lock, timeout: configuration.lockTimeout) { () throws(VaultError) -> String in
            guard !PrivateFiles.exists(layout.recipient) else { throw .alreadyExists(folder: layout.folder) }
            return try createLocked(layout: layout, slots: slots).recipient.string
        }
    }

    /// The slots a vault made by a first store gets: each one usable now without a prompt
    /// (or with one, when the terminal is a configured passphrase source).
    func automaticSlots(layout: VaultLayout) -> [VaultKeySource] {
        var slots: [VaultKeySource] = []
        if configuration.usesSystemdCredentials, systemdSlot(layout).availability().usable { slots.append(.systemdCredential) }
        if configuration.keyFile != nil { slots.append(.keyFile) }
        if passphraseSlot(layout).usableSource().source != nil { slots.append(.passphrase) }
        return slots
    }

    /// Why each slot can, or cannot, be made for a new vault now (for the error that says nothing
    /// can store, and for `secret backends`).
    func creationReasons(layout: VaultLayout) -> [String] {
        let systemd = configuration.usesSystemdCredentials
            ? systemdSlot(layout).availability().reason
            : "turned off (RIZQ_SECRETS_SYSTEMD_CREDS=0, or the config file's systemdCredentials)"
        let keyFile = configuration.keyFile.map { "the key file \($0) would hold the key" } ?? "no key file set (RIZQ_SECRETS_KEY_FILE)"
        let passphrase = passphraseSlot(layout).usableSource()
        let passphraseReason = passphrase.source.map { "the passphrase would come from \($0.summary)" } ?? passphrase.reasons.joined(separator: "; ")
        return ["systemd-creds: \(systemd)", "key file: \(keyFile)", "passphrase: \(passphraseReason)"]
    }

    /// Under the lock: slots first, then `recipient.txt` (the vault exists from then on), then
    /// an empty `vault.age`. A failure removes the slot files this attempt wrote.
    func createLocked(layout: VaultLayout, slots requested: [VaultKeySource]) throws(VaultError) -> AgeX25519Identity {
        var slots: [VaultKeySource] = []
        for slot in requested where !slots.contains(slot) {
            guard slot != .kernelKeyringCache else { throw .invalidSlotChange(reason: "the kernel-keyring cache is not a slot: unlock(timeout:) fills it") }
            slots.append(slot)
        }
        guard !slots.isEmpty else {
            throw .noKeySource(service: service, tried: keySourceStatuses(layout: layout).filter { $0.source != .kernelKeyringCache }.map { "\($0.source.rawValue): \($0.reason)" })
        }
        let keyFile = keyFileSlot(layout)
        var identity = AgeX25519Identity()
        if slots.contains(.keyFile), let existing = try keyFile.identities()?.first { identity = existing }
        var identityFile = AgeIdentityFile.renderBytes([identity])
        defer { identityFile.zeroize() }
        var written: [String] = []
        do {
            for slot in slots {
                switch slot {
                case .systemdCredential:
                    try systemdSlot(layout).wrap(identityFile)
                    written.append(layout.systemdSlot)
                case .passphrase:
                    try passphraseSlot(layout).wrap(identityFile)
                    written.append(layout.passphraseSlot)
                case .keyFile:
                    try keyFile.wrap(identity)
                case .kernelKeyringCache:
                    break
                }
            }
            try PrivateFiles.replace(layout.recipient, with: Data((identity.recipient.string + "\n").utf8))
            try write(VaultContents(), to: layout, identities: [identity], recipient: identity.recipient.string)
        } catch {
            for path in written { _ = try? PrivateFiles.remove(path) }
            _ = try? PrivateFiles.remove(layout.recipient)
            throw error
        }
        remember(identity)
        return identity
    }

    /// Adds a slot to an existing vault, or replaces it (a new passphrase, a systemd-creds
    /// credential sealed again after the host key changed). The vault is unlocked first through
    /// the slots it has.
    public func addSlot(_ slot: VaultKeySource) throws(VaultError) {
        let layout = try layout()
        guard slot != .kernelKeyringCache else { throw .invalidSlotChange(reason: "the kernel-keyring cache is not a slot: use unlock(timeout:)") }
        guard let recipient = try layout.readRecipient() else { throw .notCreated(folder: layout.folder) }
        let identity = try unlockedIdentity(recipient: recipient)
        var identityFile = AgeIdentityFile.renderBytes([identity])
        defer { identityFile.zeroize() }
        try VaultLock.holding(layout.lock, timeout: configuration.lockTimeout) { () throws(VaultError) in
            switch slot {
            case .systemdCredential: try systemdSlot(layout).wrap(identityFile)
            case .passphrase: try passphraseSlot(layout).wrap(identityFile)
            case .keyFile: try keyFileSlot(layout).wrap(identity)
            case .kernelKeyringCache: break
            }
        }
    }

    /// Removes the systemd-creds or passphrase slot, if another slot would still open the vault.
    /// A key file is yours: delete it yourself.
    public func removeSlot(_ slot: VaultKeySource) throws(VaultError) {
        let layout = try layout()
        guard let recipient = try layout.readRecipient() else { throw .notCreated(folder: layout.folder) }
        let path: String
        switch slot {
        case .systemdCredential: path = layout.systemdSlot
        case .passphrase: path = layout.passphraseSlot
        case .keyFile: throw .invalidSlotChange(reason: "the key file is yours, not the vault's: delete it yourself and unset RIZQ_SECRETS_KEY_FILE")
        case .kernelKeyringCache: throw .invalidSlotChange(reason: "the kernel-keyring cache is not a slot: use lock()")
        }
        try VaultLock.holding(layout.lock, timeout: configuration.lockTimeout) { () throws(VaultError) in
            let others = [layout.systemdSlot, layout.passphraseSlot].filter { $0 != path && PrivateFiles.exists($0) }
            let keyFileHolds = (try? keyFileSlot(layout).unwrap(recipient: recipient)) != nil
            guard !others.isEmpty || keyFileHolds else {
                throw .invalidSlotChange(reason: "it is the vault's last slot: add another first, or nothing could open the vault")
            }
            try PrivateFiles.remove(path)
        }
    }

    // MARK: - Key sources

    func systemdSlot(_ layout: VaultLayout) -> SystemdCredentialSlot {
        SystemdCredentialSlot(layout: layout, timeout: configuration.commandTimeout)
    }

    func keyFileSlot(_ layout: VaultLayout) -> KeyFileSlot {
        KeyFileSlot(layout: layout, path: configuration.keyFile)
    }

    func passphraseSlot(_ layout: VaultLayout) -> PassphraseSlot {
        PassphraseSlot(layout: layout, sources: configuration.passphraseSources, workFactor: configuration.scryptWorkFactor, timeout: configuration.commandTimeout)
    }

    /// Every key source as it declares itself now: the kernel-keyring cache, then each slot.
    public func keySourceStatuses() -> [VaultKeySourceStatus] {
        guard let layout = try? layout() else { return [] }
        return keySourceStatuses(layout: layout)
    }

    func keySourceStatuses(layout: VaultLayout) -> [VaultKeySourceStatus] {
        [cacheStatus(layout: layout), systemdSlot(layout).status(), keyFileSlot(layout).status(), passphraseSlot(layout).status()]
    }

    private func cacheStatus(layout: VaultLayout) -> VaultKeySourceStatus {
        func status(_ present: Bool, _ usable: Bool, _ reason: String) -> VaultKeySourceStatus {
            VaultKeySourceStatus(source: .kernelKeyringCache, isPresent: present, isUsable: usable, reason: reason, protection: .kernelMemory, persistence: .untilReboot)
        }
        guard configuration.usesKeyringCache else { return status(false, false, "the kernel-keyring cache is turned off") }
        guard let recipient = try? layout.readRecipient() else { return status(false, true, "no vault yet") }
        let cache = VaultIdentityCache(service: service, recipient: recipient)
        if let found = cache.find() { return status(true, true, "the key is cached in the \(found.keyring) keyring (serial \(found.serial))") }
        do {
            _ = try KernelKeyring.search(keyring: KernelKeyring.userKeyring, description: cache.keyDescription)
            return status(false, true, "not unlocked: run `rizq-prefs secret unlock` to cache the key")
        } catch {
            return status(false, false, error.description)
        }
    }

    /// The identity: from memory, the kernel-keyring cache, then the slots.
    func unlockedIdentity(recipient: String) throws(VaultError) -> AgeX25519Identity {
        if let identity = remembered(recipient: recipient) { return identity }
        let layout = try layout()
        var tried: [String] = []
        if configuration.usesKeyringCache {
            let (cached, failure) = VaultIdentityCache(service: service, recipient: recipient).load(recipient: recipient)
            if let cached {
                remember(cached)
                Logger.rizqSecrets.debug("vault opened", metadata: ["service": "\(service)", "keySource": "\(VaultKeySource.kernelKeyringCache.rawValue)"])
                return cached
            }
            tried.append("kernel keyring: " + (failure?.description ?? "no cached key (`rizq-prefs secret unlock` caches it)"))
        }
        let (identity, source) = try identityFromSlots(layout: layout, recipient: recipient, tried: &tried)
        remember(identity)
        Logger.rizqSecrets.debug("vault opened", metadata: ["service": "\(service)", "keySource": "\(source.rawValue)"])
        return identity
    }

    /// The identity from the first slot that gives it: systemd-creds, the key file, the
    /// passphrase. A wrong passphrase wins over other failures (it is the one to fix); no slot
    /// usable is ``VaultError/noKeySource(service:tried:)`` with every reason.
    func identityFromSlots(layout: VaultLayout, recipient: String, tried: inout [String]) throws(VaultError) -> (AgeX25519Identity, VaultKeySource) {
        var failures: [VaultError] = []
        func attempt(_ source: VaultKeySource, _ body: () throws(VaultError) -> AgeX25519Identity) -> AgeX25519Identity? {
            do {
                return try body()
            } catch {
                failures.append(error)
                tried.append("\(source.rawValue): \(error)")
                return nil
            }
        }
        if configuration.usesSystemdCredentials {
            let slot = systemdSlot(layout)
            let (usable, reason) = slot.availability()
            if !PrivateFiles.exists(layout.systemdSlot) {
                tried.append("systemd-creds: no slot in this vault")
            } else if !usable {
                tried.append("systemd-creds: \(reason)")
            } else if let identity = attempt(.systemdCredential, { () throws(VaultError) in
                var identityFile = try slot.unwrap()
                defer { identityFile.zeroize() }
                return try Self.identity(in: identityFile, recipient: recipient, source: .systemdCredential)
            }) {
                return (identity, .systemdCredential)
            }
        }
        if configuration.keyFile != nil {
            let slot = keyFileSlot(layout)
            if let identity = attempt(.keyFile, { () throws(VaultError) in try slot.unwrap(recipient: recipient) }) {
                return (identity, .keyFile)
            }
        } else {
            tried.append("key file: none set (RIZQ_SECRETS_KEY_FILE)")
        }
        let passphrase = passphraseSlot(layout)
        if !PrivateFiles.exists(layout.passphraseSlot) {
            tried.append("passphrase: no slot in this vault")
        } else if passphrase.usableSource().source == nil {
            tried.append("passphrase: " + passphrase.usableSource().reasons.joined(separator: "; "))
        } else if let identity = attempt(.passphrase, { () throws(VaultError) in
            var identityFile = try passphrase.unwrap()
            defer { identityFile.zeroize() }
            return try Self.identity(in: identityFile, recipient: recipient, source: .passphrase)
        }) {
            return (identity, .passphrase)
        }
        if let wrong = failures.first(where: { if case .wrongPassphrase = $0 { return true } else { return false } }) { throw wrong }
        if let first = failures.first { throw first }
        throw .noKeySource(service: service, tried: tried)
    }

    /// The identity in an identity file's text that is this vault's.
    static func identity(in identityFile: [UInt8], recipient: String, source: VaultKeySource) throws(VaultError) -> AgeX25519Identity {
        let identities: [AgeX25519Identity]
        do {
            identities = try AgeIdentityFile.parse(identityFile)
        } catch {
            throw .keySourceFailed(source: source, detail: "it did not give an identity file: \(error)")
        }
        guard let identity = identities.first(where: { $0.recipient.string == recipient }) else { throw .wrongKey(source: source) }
        return identity
    }

    // MARK: - Unlock and lock

    /// Unlocks the vault through its slots (never from the cache), checks that the key opens
    /// `vault.age` as it is, and caches the key in the kernel keyring for `timeout` (default
    /// 8 hours), so that later processes of this user — cron jobs, services, other shells —
    /// need no key source until it expires, ``lock()`` is called, or the machine reboots.
    ///
    /// Where the kernel keyring is refused (Docker's default seccomp profile), the report says
    /// so and the vault still works, unlocking through its slots in each process.
    public func unlock(timeout: Duration = .seconds(8 * 3600)) throws(VaultError) -> VaultUnlockReport {
        let layout = try layout()
        guard let recipient = try layout.readRecipient() else { throw .notCreated(folder: layout.folder) }
        var tried: [String] = []
        let (identity, source) = try identityFromSlots(layout: layout, recipient: recipient, tried: &tried)
        // The key must open the vault as it is, sealed and no older than recorded.
        _ = try contents(layout, recipient: recipient, identity: identity)
        remember(identity)
        let seconds = UInt32(clamping: max(timeout.components.seconds, 1))
        guard configuration.usesKeyringCache else {
            return VaultUnlockReport(source: source, isCached: false, keyring: nil, keySerial: nil, timeoutSeconds: seconds, cacheFailure: nil)
        }
        do {
            let (serial, keyring) = try VaultIdentityCache(service: service, recipient: recipient).store(identity, seconds: seconds)
            return VaultUnlockReport(source: source, isCached: true, keyring: keyring, keySerial: serial, timeoutSeconds: seconds, cacheFailure: nil)
        } catch {
            return VaultUnlockReport(source: source, isCached: false, keyring: nil, keySerial: nil, timeoutSeconds: seconds, cacheFailure: error)
        }
    }

    /// Forgets the key: invalidates every cached copy in the kernel keyring (for every process
    /// of this user at once) and in this object. Returns how many cached keys were removed.
    @discardableResult
    public func lock() throws(VaultError) -> Int {
        remember(nil)
        forgetCache()
        let layout = try layout()
        guard let recipient = try layout.readRecipient() else { return 0 }
        return VaultIdentityCache(service: service, recipient: recipient).remove()
    }
}
#endif
