#if Secrets
import Foundation
import RizqAge

/// The passphrase slot, `slots/passphrase.age`: the identity file encrypted to an age scrypt
/// stanza, byte for byte what `age -p` writes, so that `age -d slots/passphrase.age > key` and
/// `age -d -i key vault.age` recover the secrets without RizqPrefs. The work factor is recorded
/// in the stanza; the default keeps an unlock under a second on a small server.
struct PassphraseSlot {
    let layout: VaultLayout
    let sources: [VaultPassphraseSource]
    let workFactor: Int
    let timeout: Double

    /// The first source that can give a passphrase now.
    func usableSource() -> (source: VaultPassphraseSource?, reasons: [String]) {
        var reasons: [String] = []
        for source in sources {
            let (usable, reason) = PassphraseReader.availability(source)
            if usable { return (source, reasons) }
            reasons.append(reason)
        }
        if sources.isEmpty { reasons.append("no passphrase source is set (RIZQ_SECRETS_PASSPHRASE_FILE, _FD or _COMMAND)") }
        return (nil, reasons)
    }

    func status() -> VaultKeySourceStatus {
        let present = PrivateFiles.exists(layout.passphraseSlot)
        let (source, reasons) = usableSource()
        var reason = source.map { "the passphrase comes from \($0.summary)" } ?? reasons.joined(separator: "; ")
        if !present { reason = "no passphrase slot in this vault; " + reason }
        return VaultKeySourceStatus(
            source: .passphrase, isPresent: present, isUsable: source != nil, reason: reason,
            protection: .passphrase, persistence: .untilDeleted)
    }

    /// Encrypts `identityFile` under a passphrase from the first usable source (asked twice on
    /// a terminal) into `slots/passphrase.age`.
    func wrap(_ identityFile: some DataProtocol) throws(VaultError) {
        var passphrase = try newPassphrase()
        defer { passphrase.zeroize() }
        try wrap(identityFile, passphrase: passphrase)
    }

    /// A new passphrase from the first usable source (asked twice on a terminal), once the work
    /// factor is known to be one a read accepts. The caller zeroes it.
    func newPassphrase() throws(VaultError) -> [UInt8] {
        guard VaultConfiguration.scryptWorkFactors.contains(workFactor) else {
            throw .invalidConfiguration(reason: Self.workFactorProblem(workFactor))
        }
        let (found, reasons) = usableSource()
        guard let source = found else { throw .keySourceFailed(source: .passphrase, detail: reasons.joined(separator: "; ")) }
        return try PassphraseReader.read(source, prompt: "New passphrase for the secrets of \(layout.service): ", confirm: true, timeout: timeout)
    }

    /// Why a slot is not written at work factor 2^`workFactor` (outside
    /// ``VaultConfiguration/scryptWorkFactors``), in words that give the range and the fix.
    static func workFactorProblem(_ workFactor: Int) -> String {
        let range = VaultConfiguration.scryptWorkFactors
        let why = workFactor < range.lowerBound
            ? "below it a guess at the passphrase costs next to nothing"
            : "above 2^\(range.upperBound) scrypt takes more than 1 GiB and seconds, more than a read accepts"
        return "the scrypt work factor 2^\(workFactor) is outside 2^\(range.lowerBound)…2^\(range.upperBound) (\(why)): no slot was written; set scryptWorkFactor within it (the default is \(VaultConfiguration.defaultScryptWorkFactor); age -p writes 18)"
    }

    /// Encrypts `identityFile` under `passphrase` into `slots/passphrase.age`.
    func wrap(_ identityFile: some DataProtocol, passphrase: [UInt8]) throws(VaultError) {
        guard VaultConfiguration.scryptWorkFactors.contains(workFactor) else {
            throw .invalidConfiguration(reason: Self.workFactorProblem(workFactor))
        }
        let file: Data
        do {
            file = try Age.encrypt(identityFile, to: [try AgeScryptRecipient(passphrase: passphrase, workFactor: workFactor)])
        } catch {
            throw .keySourceFailed(source: .passphrase, detail: "\(error)")
        }
        try PrivateFiles.ensureFolder(layout.slots)
        try PrivateFiles.replace(layout.passphraseSlot, with: file)
    }

    /// The identity file text in `slots/passphrase.age`, under a passphrase from the first
    /// usable source. A source that is set up but fails is an error, not a reason to try another.
    /// The caller zeroes it.
    func unwrap() throws(VaultError) -> [UInt8] {
        guard try PrivateFiles.checkFolder(layout.slots), let file = try PrivateFiles.read(layout.passphraseSlot, limit: 1 << 20) else {
            throw .keySourceFailed(source: .passphrase, detail: "this vault has no passphrase slot")
        }
        let (found, reasons) = usableSource()
        guard let source = found else { throw .keySourceFailed(source: .passphrase, detail: reasons.joined(separator: "; ")) }
        var passphrase = try PassphraseReader.read(source, prompt: "Passphrase for the secrets of \(layout.service): ", confirm: false, timeout: timeout)
        defer { passphrase.zeroize() }
        do {
            var plaintext = try Age.decrypt(file, with: [AgeScryptIdentity(passphrase: passphrase)])
            defer { plaintext.resetBytes(in: 0..<plaintext.count) }
            return Array(plaintext)
        } catch .wrongPassphrase {
            throw .wrongPassphrase(slot: layout.passphraseSlot)
        } catch {
            throw .damagedSlot(path: layout.passphraseSlot, reason: "\(error)")
        }
    }
}
#endif
