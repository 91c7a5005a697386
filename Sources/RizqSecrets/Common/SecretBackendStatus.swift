#if Secrets
/// One backend as it declares itself: is it there (and why or why not), what it can do, how long
/// it keeps secrets and what protects them — the one status type of every backend.
/// ``SecretBackend/probe()`` makes it; ``ChainedSecretStore/report()`` gives one per backend;
/// `rizq-prefs secret backends` and `doctor` print them.
public struct SecretBackendStatus: Sendable, Equatable, Codable {
    /// The backend.
    public var backend: SecretBackendName
    /// Whether the chain reads it (it is in the chain's order).
    public var isInChain: Bool
    /// Whether it is there: a credential directory set, a Secret Service on the bus, a vault or
    /// a key source to make one. A backend that is there but locked, frozen or failing is
    /// available, with ``problem`` saying what is wrong: it is never skipped.
    public var isAvailable: Bool
    /// Why it is, or is not, available.
    public var reason: String
    /// What is wrong with a backend that is there (locked, not answering, a damaged vault), and
    /// what to do; `nil` when nothing is.
    public var problem: String?
    /// Whether secrets can be read from it.
    public var isReadable: Bool
    /// Whether secrets can be stored in it and deleted from it.
    public var isWritable: Bool
    /// How long it keeps a secret.
    public var persistence: SecretPersistence
    /// What protects its secrets at rest (a vault lists one per key slot it has).
    public var protections: [SecretProtection]
    /// Where it is: a folder, a file, the bus.
    public var location: String?

    /// A status from its parts.
    public init(
        backend: SecretBackendName, isInChain: Bool = true, isAvailable: Bool, reason: String, problem: String? = nil, isReadable: Bool = true,
        isWritable: Bool, persistence: SecretPersistence, protections: [SecretProtection], location: String? = nil
    ) {
        self.backend = backend
        self.isInChain = isInChain
        self.isAvailable = isAvailable
        self.reason = reason
        self.problem = problem
        self.isReadable = isReadable
        self.isWritable = isWritable
        self.persistence = persistence
        self.protections = protections
        self.location = location
    }
}
#endif
