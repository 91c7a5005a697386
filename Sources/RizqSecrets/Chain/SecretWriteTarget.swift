#if Secrets
/// The backend that takes a chain's writes, who chose it and why.
public struct SecretWriteTarget: Sendable, Equatable, Codable {
    /// The backend.
    public var backend: SecretBackendName
    /// Who chose it: the API, the environment or the config file (the first writable backend of
    /// the order they set), the marker of an earlier automatic choice, or an automatic choice now.
    public var origin: SecretSettingOrigin
    /// Why, in words (for `secret backends` and `doctor`).
    public var reason: String

    /// A target from its parts.
    public init(backend: SecretBackendName, origin: SecretSettingOrigin, reason: String) {
        self.backend = backend
        self.origin = origin
        self.reason = reason
    }
}
#endif
