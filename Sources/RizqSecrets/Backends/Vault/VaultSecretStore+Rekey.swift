#if Secrets
import Foundation
import RizqAge

extension VaultSecretStore {
    // MARK: - Re-keying

    /// Gives the vault a new identity: every slot it has (systemd-creds, the passphrase, a key
    /// file that holds its key) is wrapped again around a new key, `vault.age` is encrypted and
    /// sealed to it, and `recipient.txt` names it. Returns the new recipient (`age1…`).
    ///
    /// ``addSlot(_:)`` wraps the same key again: a copy of an old `slots/passphrase.age` with its
    /// old passphrase (or an old key file, a leaked identity) would open every later vault. After
    /// a re-key they open nothing written since, and this machine refuses a vault put back under
    /// the old key (``VaultError/rolledBack(path:reason:)``). A passphrase slot takes the
    /// passphrase its source gives now (asked twice on a terminal): a re-key is also how the
    /// passphrase changes. Cached copies of the old key in the kernel keyring are removed;
    /// `unlock(timeout:)` caches the new one.
    ///
    /// Under the vault's lock, in an order that leaves a vault the slots open after a crash at any
    /// step: the slots hold both keys, `vault.age` opens (and is sealed) with both,
    /// `recipient.txt` names the new key, `vault.age` is written for the new key alone, the slots
    /// hold it alone. A failure part-way leaves both keys in the slots: run it again.
    ///
    /// - Throws: ``VaultError/notCreated(folder:)``; ``VaultError/invalidSlotChange(reason:)`` when
    ///   a slot the vault has cannot be wrapped again here (systemd-creds needs root; the
    ///   passphrase, a source) — nothing is changed then; the errors of reading the vault.
    @discardableResult
    public func rekey() throws(VaultError) -> String {
        let layout = try layout()
        guard let oldRecipient = try layout.readRecipient() else { throw .notCreated(folder: layout.folder) }
        let old = try unlockedIdentity(recipient: oldRecipient)
        let slots = try rekeyableSlots(layout, recipient: oldRecipient)
        return try VaultLock.holding(layout.lock, timeout: configuration.lockTimeout) { () throws(VaultError) -> String in
            guard try layout.readRecipient() == oldRecipient else {
                throw .invalidSlotChange(reason: "another process re-keyed or made the vault again meanwhile; run the re-key again if you still want one")
            }
            let contents = try self.contents(layout, recipient: oldRecipient, identity: old)
            let new = AgeX25519Identity()
            var passphrase: [UInt8] = slots.contains(.passphrase) ? try passphraseSlot(layout).newPassphrase() : []
            defer { passphrase.zeroize() }

            try wrap(slots, around: [new, old], passphrase: passphrase, layout: layout)
            let both = try write(contents, to: layout, identities: [new, old], recipient: oldRecipient)
            try PrivateFiles.replace(layout.recipient, with: Data((new.recipient.string + "\n").utf8))
            forgetCache()
            remember(new)
            let (stamp, written) = try write(both.contents, to: layout, identities: [new], recipient: new.recipient.string, retiring: oldRecipient)
            try wrap(slots, around: [new], passphrase: passphrase, layout: layout)
            _ = VaultIdentityCache(service: service, recipient: oldRecipient).remove()
            cacheContents(stamp: stamp, recipient: new.recipient.string, contents: written)
            return new.recipient.string
        }
    }

    /// The slots the vault has, once each is known to be one this process can wrap again.
    private func rekeyableSlots(_ layout: VaultLayout, recipient: String) throws(VaultError) -> [VaultKeySource] {
        var slots: [VaultKeySource] = []
        if PrivateFiles.exists(layout.systemdSlot) {
            let (usable, reason) = systemdSlot(layout).availability()
            guard usable else { throw .invalidSlotChange(reason: "the vault has a systemd-creds slot, which cannot be sealed again here (\(reason)): re-key as root, or remove that slot first; nothing was changed") }
            slots.append(.systemdCredential)
        }
        if PrivateFiles.exists(layout.passphraseSlot) {
            let (source, reasons) = passphraseSlot(layout).usableSource()
            guard source != nil else { throw .invalidSlotChange(reason: "the vault has a passphrase slot, and no passphrase source is set to wrap the new key (\(reasons.joined(separator: "; "))): set RIZQ_SECRETS_PASSPHRASE_FILE (or _FD, _COMMAND), or run it on a terminal; nothing was changed") }
            slots.append(.passphrase)
        }
        if configuration.keyFile != nil, (try? keyFileSlot(layout).unwrap(recipient: recipient)) != nil {
            slots.append(.keyFile)
        }
        guard !slots.isEmpty else { throw .invalidSlotChange(reason: "the vault has no slot this process can wrap a new key in; nothing was changed") }
        return slots
    }

    /// Wraps `identities` (an identity file holding each) in every one of `slots`.
    private func wrap(_ slots: [VaultKeySource], around identities: [AgeX25519Identity], passphrase: [UInt8], layout: VaultLayout) throws(VaultError) {
        var identityFile = AgeIdentityFile.renderBytes(identities)
        defer { identityFile.zeroize() }
        for slot in slots {
            switch slot {
            case .systemdCredential: try systemdSlot(layout).wrap(identityFile)
            case .passphrase: try passphraseSlot(layout).wrap(identityFile, passphrase: passphrase)
            case .keyFile: try keyFileSlot(layout).replace(with: identities)
            case .kernelKeyringCache: break
            }
        }
    }
}
#endif
