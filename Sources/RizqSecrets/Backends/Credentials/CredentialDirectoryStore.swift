#if Secrets
import Foundation
import RizqCore
import RizqMounts

/// Secrets that the host delivers as files, read-only: systemd's credentials in
/// `$CREDENTIALS_DIRECTORY` (a unit's `LoadCredential=`, `LoadCredentialEncrypted=`,
/// `SetCredential=`), and Docker's and Kubernetes' secrets in `/run/secrets` when enabled.
///
/// Service `S`'s account `A` is the file named ``CredentialName/of(service:account:)`` — `S.A` —
/// in the first folder that has it. A unit that runs a server whose app id is `com.rizq.server`:
///
/// ```ini
/// [Service]
/// LoadCredentialEncrypted=com.rizq.server.database.password:/etc/credstore.encrypted/db
/// ```
///
/// and the server reads it with the same code as on a desktop:
/// `try ChainedSecretStore(service: "com.rizq.server").secret(forAccount: "database.password")`.
///
/// Storing or deleting is ``/RizqCore/SecretError/readOnly(backend:detail:)``: the host owns
/// these files (change the unit, or the container's secrets, instead).
public struct CredentialDirectoryStore: SecretBackend {
    /// One folder of credentials and where its path came from.
    public struct Directory: Sendable, Equatable, Codable {
        /// The folder.
        public var path: String
        /// Where it came from: `$CREDENTIALS_DIRECTORY`, `/run/secrets`, the API, the config file.
        public var origin: String

        /// A folder and its origin.
        public init(path: String, origin: String) {
            self.path = path
            self.origin = origin
        }
    }

    /// Docker's and Kubernetes' folder of secrets (read only when enabled: it is a convention,
    /// not a standard, and may be a bind mount anyone can read).
    public static let runSecrets = "/run/secrets"

    /// The service of every item.
    public let service: String
    /// The folders looked in, in order.
    public let directories: [Directory]

    /// The store of `service` (`nil`: the app id) over `directories`.
    public init(service: String? = nil, directories: [Directory]) {
        self.service = service ?? AppIdentity.current
        self.directories = directories
    }

    /// The largest credential read: systemd delivers at most 1 MiB per unit; the limit of every
    /// secret store applies.
    static let maximumSize = SecretInput.maximumSecretSize

    /// The rule of a credential file: the host's (root) or this user's, written by nobody else;
    /// readable by others as the host chose (Docker's secrets are 0444); links followed and
    /// their targets judged (Kubernetes' keys are links into `..data`).
    static let credentialTrust = FileTrust.hostProvided("credential")
    /// The rule of a credential folder: the host's or this user's, and nobody else may add a
    /// file to it (a sticky folder such as a Kubernetes volume's mount point: each file is then
    /// judged by its own owner).
    static let folderTrust = FileTrust.hostProvided("credential folder")

    /// `directory` read as a mounted folder of secrets (RizqCore's `MountedFolder`: one
    /// generation of a Kubernetes volume, every file judged by ``credentialTrust``), a
    /// credential at most ``maximumSize``.
    static func mountedFolder(_ directory: Directory) -> MountedFolder {
        var limits = MountedFolder.Limits.standard
        limits.fileSize = maximumSize
        limits.totalSize = maximumSize
        return MountedFolder(directory.path, sensitivity: .secrets, limits: limits)
    }

    /// Judges `directory` before anything in it is read; `false` when it does not exist.
    private func trusted(_ directory: Directory) throws(SecretError) -> Bool {
        do {
            return try PrivateFolder.check(directory.path, trust: Self.folderTrust)
        } catch {
            throw .untrusted(path: directory.path, detail: "refusing the credential folder \(directory.path) (\(directory.origin)): \(error.reason)")
        }
    }

    /// The file holding `account`, and its folder, if one of the folders has it.
    public func file(ofAccount account: String) -> (path: String, directory: Directory)? {
        guard let name = CredentialName.of(service: service, account: account) else { return nil }
        for directory in directories {
            let path = directory.path + "/" + name
            // Kubernetes mounts each secret as a link into `..data/`: follow links here.
            if access(path, F_OK) == 0 { return (path, directory) }
        }
        return nil
    }

    /// The credential's bytes, or `nil` when no folder has it.
    public func secretBytes(forAccount account: String) throws(SecretError) -> Data? {
        try SecretInput.validate(service: service, account: account)
        guard let name = CredentialName.of(service: service, account: account) else { return nil }
        for directory in directories {
            guard try trusted(directory) else { continue }
            // One generation of a Kubernetes Secret volume (never the top-level link, which
            // dangles while kubelet swaps `..data`); a plain folder's file as it is.
            do {
                if let bytes = try Self.mountedFolder(directory).bytes(forKey: name) { return Data(bytes) }
            } catch {
                switch error {
                case .refusedKey(_, _, let reason):
                    throw .untrusted(path: directory.path + "/" + name, detail: "refusing the credential \(name) in \(directory.path) (\(directory.origin)): \(reason)")
                case .untrusted(let path, let reason):
                    throw .untrusted(path: path, detail: "refusing the credential \(name) in \(directory.path) (\(directory.origin)): \(reason)")
                case .missing:
                    continue
                default:
                    throw .storageFailed(detail: "cannot read the credential \(name) in \(directory.path) (\(directory.origin)): \(error)")
                }
            }
        }
        return nil
    }

    /// Always ``/RizqCore/SecretError/readOnly(backend:detail:)``: the host delivers these files.
    public func storeSecret(_ bytes: Data, isText: Bool, forAccount account: String, label: String?) throws(SecretError) {
        try SecretInput.validate(service: service, account: account, label: label, secretSize: bytes.count)
        throw readOnly(account: account, found: file(ofAccount: account))
    }

    /// `false` when no folder has it; ``/RizqCore/SecretError/readOnly(backend:detail:)`` when one does.
    public func deleteSecret(forAccount account: String) throws(SecretError) -> Bool {
        try SecretInput.validate(service: service, account: account)
        guard let found = file(ofAccount: account) else { return false }
        throw readOnly(account: account, found: found)
    }

    /// The accounts that have a file in any folder, sorted.
    public func accounts() throws(SecretError) -> [String] {
        try SecretInput.validate(service: service, account: nil)
        var accounts = Set<String>()
        for directory in directories {
            guard try trusted(directory) else { continue }
            let names: [String]
            do {
                // The keys of one generation: never `..data` and kubelet's other `..` names.
                names = try Self.mountedFolder(directory).keys()
            } catch {
                if case .missing = error { continue }
                throw .storageFailed(detail: "cannot list the credentials in \(directory.path) (\(directory.origin)): \(error)")
            }
            // A credential's name is flat (a `/` is written %2F): a file in a folder is none.
            for name in names where !name.contains("/") {
                if let account = CredentialName.account(in: name, service: service) { accounts.insert(account) }
            }
        }
        return accounts.sorted()
    }

    /// `credentials`.
    public var name: SecretBackendName { .credentials }

    /// Credential folders are read-only: the host delivers them.
    public var isWritable: Bool { false }

    /// "as /run/credentials/app.service/svc.token ($CREDENTIALS_DIRECTORY)", when a folder has it.
    public func location(ofAccount account: String) -> String? {
        file(ofAccount: account).map { "as \($0.path) (\($0.directory.origin))" }
    }

    /// The backend as it declares itself.
    public func probe() -> SecretBackendStatus {
        let present = directories.filter { FileManager.default.fileExists(atPath: $0.path) }
        let reason: String
        if directories.isEmpty {
            reason = "no credential folder: CREDENTIALS_DIRECTORY is not set (systemd sets it for a unit with LoadCredential= or LoadCredentialEncrypted=), and /run/secrets is not enabled (RIZQ_SECRETS_RUN_SECRETS=1)"
        } else if present.isEmpty {
            reason = "no credential folder exists: " + directories.map { "\($0.path) (\($0.origin))" }.joined(separator: ", ")
        } else {
            reason = "reads " + present.map { "\($0.path) (\($0.origin))" }.joined(separator: ", ") + "; the file for account A is <service>.A"
        }
        return SecretBackendStatus(
            backend: name, isAvailable: !present.isEmpty, reason: reason, isReadable: true, isWritable: false,
            persistence: .providedByHost, protections: [.hostProvided], location: present.first?.path)
    }

    private func readOnly(account: String, found: (path: String, directory: Directory)?) -> SecretError {
        guard let found else {
            return .readOnly(backend: SecretBackendName.credentials.rawValue, detail: "a credential folder cannot store '\(account)'; store it in a writable backend (secret-service, vault), or have the host deliver it (systemd: LoadCredential=\(CredentialName.of(service: service, account: account) ?? "NAME"):PATH)")
        }
        return .readOnly(backend: SecretBackendName.credentials.rawValue, detail: "'\(account)' is delivered by the host as \(found.path) (\(found.directory.origin)); change it where the host sets it (the unit's LoadCredential=, the container's secrets)")
    }
}
#endif
