#if Secrets
/// The chain of one service as it is now: its order and who set it, the write target (or why
/// there is none), and every backend's declaration. `rizq-prefs secret backends [--json]` prints
/// it; ``ChainedSecretStore/report()`` makes it.
public struct SecretChainReport: Sendable, Equatable, Codable {
    /// The service.
    public var service: String
    /// The backends reads try, in order.
    public var order: [SecretBackendName]
    /// Who set the order (`automatic`: nobody; the default order).
    public var orderOrigin: SecretSettingOrigin
    /// The config file looked at, and whether it exists.
    public var configFile: String
    /// Whether the config file exists.
    public var configFileExists: Bool
    /// The write target, when one can be named.
    public var writeTarget: SecretWriteTarget?
    /// Why no write target can be named (the error a store would throw), or what is wrong with
    /// the one named (locked, not answering); `nil` when nothing is.
    public var writeProblem: String?
    /// Every backend, those outside the chain included (marked so).
    public var backends: [SecretBackendStatus]
}
#endif
