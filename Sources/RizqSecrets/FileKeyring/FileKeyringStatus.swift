#if Secrets
/// A file keyring as it declares itself, for a backend list and `doctor`: whether the process is
/// sandboxed, where the file is and whether it is there, where its key would come from, and
/// whether it can be used. Its fields after ``sandbox`` are those of ``SecretBackendStatus``.
///
/// Made by ``FileKeyringStore/status()`` without asking the portal and without deriving a key:
/// it reads the file's header (names and counts are in clear) and looks at the environment.
public struct FileKeyringStatus: Sendable, Equatable, Codable {
    /// The Flatpak sandbox the store is in, `nil` outside one.
    public var sandbox: FlatpakSandbox?
    /// The keyring file, and where its path came from.
    public var keyring: FileKeyringLocation
    /// Whether the file exists.
    public var fileExists: Bool
    /// How many items the file holds (all services'), when it could be read.
    public var itemCount: Int?
    /// Where the key comes from, `nil` when nowhere.
    public var keySource: FileKeyringKeySource?
    /// Whether this process holds the portal's secret already (no request will be made).
    public var hasPortalSecret: Bool

    /// Whether the store can be used here: it has a key source.
    public var isAvailable: Bool
    /// Why it is, or is not, available.
    public var reason: String
    /// What is wrong with a keyring that is there (damaged, not to be trusted), and what to
    /// do; `nil` when nothing is.
    public var problem: String?
    /// Whether secrets can be read from it (always: a missing file reads as no items).
    public var isReadable: Bool
    /// Whether secrets can be stored in it (it has a key source).
    public var isWritable: Bool
    /// How long it keeps a secret: until deleted.
    public var persistence: SecretPersistence
    /// What protects it at rest: the host's keyring (the portal's secret lives there), or a
    /// password.
    public var protections: [SecretProtection]
    /// The file.
    public var location: String?
}

extension FileKeyringStatus {
    /// The chain's declaration of this backend, under the name `backend` the chain gives it.
    public func backendStatus(_ backend: SecretBackendName = .fileKeyring, isInChain: Bool = true) -> SecretBackendStatus {
        SecretBackendStatus(
            backend: backend, isInChain: isInChain, isAvailable: isAvailable, reason: reason, problem: problem, isReadable: isReadable,
            isWritable: isWritable, persistence: persistence, protections: protections, location: location)
    }
}
#endif
