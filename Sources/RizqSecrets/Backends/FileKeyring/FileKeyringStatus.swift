#if Secrets
/// A file keyring as it declares itself, for a backend list and `doctor`: whether the process is
/// sandboxed, where the file is and whether it is there, where its key would come from, and
/// whether it can be used (``backend``, as the chain lists it).
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

    /// The backend's declaration: available (it has a key source), why, what is wrong with a
    /// keyring that is there (damaged, not to be trusted) and what to do, read- and writable,
    /// until deleted, what protects it, the file.
    public var backend: SecretBackendStatus
}

#endif
