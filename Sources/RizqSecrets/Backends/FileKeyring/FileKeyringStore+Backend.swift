#if Secrets
import Foundation
import RizqCore

/// The file keyring as a backend of a ``ChainedSecretStore``, named `file-keyring`.
///
/// A chain nobody configured lists it only inside a Flatpak sandbox
/// (``SecretBackendName/defaultOrder``), before the Secret Service — where libsecret itself
/// chooses its file backend — and takes it as the write target there. Outside a sandbox it is
/// used when it is named (`RIZQ_SECRETS_BACKEND=file-keyring`, with `SECRET_FILE_TEST_PASSWORD`
/// as its key, as for libsecret).
extension FileKeyringStore: SecretBackend {
    /// `file-keyring`.
    public var name: SecretBackendName { .fileKeyring }

    /// The file keyring stores and deletes.
    public var isWritable: Bool { true }

    /// The file, where its key comes from, and what protects it (``status()``).
    public func probe() -> SecretBackendStatus {
        status().backend
    }

    /// Inside a sandbox whose portal can key it, the file keyring is there (`.present`); with
    /// no key source it is not (`.unavailable`).
    public func candidacy(looking: Bool) -> SecretBackendCandidacy? {
        switch keySource {
        case .portal:
            return .present(reason: "inside the Flatpak sandbox of \(sandbox?.appID ?? "this app"), keyed by the Secret portal (\(location.path))")
        case .testPassword, .given:
            return .present(reason: "keyed by \(keySource == .given ? "the program's password" : FileKeyringKeySource.variable) (\(location.path))")
        case nil:
            return .unavailable(reason: "no key for the file keyring outside a Flatpak sandbox (only the Secret portal or \(FileKeyringKeySource.variable) gives one)")
        }
    }

    /// Throws what a store would meet: no key source here, or a keyring file that is damaged or
    /// not to be trusted. Asks no portal and derives no key.
    public func checkReadyForWrite() throws(SecretError) {
        // With no key source there is no sandbox, so this throws without asking any portal.
        if keySource == nil { _ = try password() }
        if let problem = status().backend.problem { throw .storageFailed(detail: problem) }
    }

    /// "in the file keyring PATH", when the account has an item there.
    public func location(ofAccount account: String) -> String? {
        guard (try? itemInfo(forAccount: account)) != nil else { return nil }
        return "in the file keyring \(location.path)"
    }

    /// The item's label; every secret in a file keyring reads back as text.
    public func details(ofAccount account: String) -> (isText: Bool, label: String?)? {
        guard let info = try? itemInfo(forAccount: account) else { return nil }
        return (true, info.label)
    }
}
#endif
