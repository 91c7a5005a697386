#if Secrets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Synchronization

/// The systemd-creds slot, `slots/systemd.cred`: the identity file encrypted by
/// `systemd-creds encrypt --name=rizq-prefs.<service>.identity`, with the host key, or with the
/// TPM2 and the host key (`--with-key=auto`) where `systemd-creds has-tpm2` finds a TPM. The
/// identity goes in on stdin and comes back on stdout; the credential's bytes are written by us
/// (0600, atomically). Recovery with stock tools:
/// `systemd-creds decrypt --name=rizq-prefs.<service>.identity slots/systemd.cred - | age -d -i - vault.age`.
struct SystemdCredentialSlot {
    static let candidates = ["/usr/bin/systemd-creds", "/bin/systemd-creds"]
    let layout: VaultLayout
    let timeout: Double

    var executable: String? { Self.candidates.first { access($0, X_OK) == 0 } }
    var credentialName: String { "rizq-prefs.\(layout.service).identity" }

    /// `systemd-creds has-tpm2` exits 0 only with a usable TPM2 (firmware, driver, system and
    /// subsystem support); asked once per process.
    private static let tpm2 = Mutex<Bool?>(nil)

    func hasTPM2() -> Bool {
        if let known = Self.tpm2.withLock({ $0 }) { return known }
        guard let executable,
            let result = try? KeySourceCommand.run(executable, ["has-tpm2"], input: nil, timeout: timeout, source: .systemdCredential, name: "systemd-creds has-tpm2")
        else { return false }
        Self.tpm2.withLock { $0 = result.status == 0 }
        return result.status == 0
    }

    /// Usable when `systemd-creds` is installed and this process is root: systemd 252's host key
    /// (`/var/lib/systemd/credential.secret`) is root's only (`--user` arrives in 256).
    func availability() -> (usable: Bool, reason: String) {
        guard executable != nil else { return (false, "systemd-creds is not installed (Debian: the systemd package)") }
        guard geteuid() == 0 else { return (false, "systemd-creds needs root here: the host key is root's only on systemd 252 (user credentials arrive in 256)") }
        return (true, "systemd-creds is installed and this process is root")
    }

    func status() -> VaultKeySourceStatus {
        let present = PrivateFiles.exists(layout.systemdSlot)
        let (usable, reason) = availability()
        let protection: VaultKeyProtection = usable && hasTPM2() ? .tpm2AndHostKey : .hostKey
        return VaultKeySourceStatus(
            source: .systemdCredential, isPresent: present, isUsable: usable,
            reason: present ? reason : "no systemd-creds slot in this vault; " + reason,
            protection: protection, persistence: .untilDeleted)
    }

    /// Seals `identityFile` into `slots/systemd.cred`.
    func wrap(_ identityFile: [UInt8]) throws(VaultError) {
        let (usable, reason) = availability()
        guard usable, let executable else { throw .keySourceFailed(source: .systemdCredential, detail: reason) }
        let key = hasTPM2() ? "auto" : "host"
        let result = try KeySourceCommand.run(
            executable, ["encrypt", "--name=\(credentialName)", "--with-key=\(key)", "-", "-"],
            input: Data(identityFile), timeout: timeout, source: .systemdCredential, name: "systemd-creds encrypt")
        guard result.status == 0, !result.stdout.isEmpty else {
            throw .keySourceFailed(source: .systemdCredential, detail: "systemd-creds encrypt exited with status \(result.status): \(result.diagnostic)")
        }
        try PrivateFiles.ensureFolder(layout.slots)
        try PrivateFiles.replace(layout.systemdSlot, with: result.stdout)
    }

    /// The identity file text held in `slots/systemd.cred` (the caller zeroes it). The
    /// credential is read here, judged as the vault's other files are (its folder and itself:
    /// this user's or root's, nobody else's to read or write), and given to `systemd-creds` on
    /// its stdin: it never opens a path itself.
    func unwrap() throws(VaultError) -> [UInt8] {
        let (usable, reason) = availability()
        guard usable, let executable else { throw .keySourceFailed(source: .systemdCredential, detail: reason) }
        guard try PrivateFiles.checkFolder(layout.slots), let credential = try PrivateFiles.read(layout.systemdSlot, limit: 48 << 10) else {
            throw .keySourceFailed(source: .systemdCredential, detail: "this vault has no systemd-creds slot")
        }
        var result = try KeySourceCommand.run(
            executable, ["decrypt", "--name=\(credentialName)", "-", "-"],
            input: credential, timeout: timeout, source: .systemdCredential, name: "systemd-creds decrypt")
        defer { result.stdout.resetBytes(in: 0..<result.stdout.count) }
        guard result.status == 0 else {
            throw .keySourceFailed(source: .systemdCredential, detail: "systemd-creds decrypt of \(layout.systemdSlot) exited with status \(result.status): \(result.diagnostic); the host key (/var/lib/systemd/credential.secret) or TPM may have changed: unlock with another slot and add this one again")
        }
        return Array(result.stdout)
    }
}
#endif
