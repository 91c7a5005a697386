#if Secrets
import Foundation
import RizqCore

/// One place a ``ChainedSecretStore`` reads secrets from or keeps them in: the protocol every
/// backend of the chain implements, so that the chain is a list of them (as swift-log's
/// `MultiplexLogHandler` is a list of handlers) and a new backend is one type and one line in
/// ``SecretBackendRegistry``.
///
/// Reading, writing, listing and deleting are `SecretStore`'s. A backend adds what the chain
/// needs to choose among backends and to report on them: its ``name``, whether it takes writes,
/// a ``probe()`` (is it there now, and what protects its secrets), and whether it may become the
/// write target on its own (``candidacy(looking:)``).
///
/// A backend that is not there (no session bus, no folder, a service name that cannot name a
/// folder) answers reads with `nil` or throws one of the absence errors (`SecretError.noSessionBus`,
/// `.serviceUnavailable`, `.libsecretMissing`), which the chain skips; any other error means "it
/// is there and could not answer", which the chain reports and never hides behind another backend.
public protocol SecretBackend: SecretStore {
    /// Its name: what `RIZQ_SECRETS_BACKEND`, the config file and `--backend` call it.
    var name: SecretBackendName { get }
    /// Whether it can store and delete (credential folders cannot).
    var isWritable: Bool { get }
    /// Whether it can hold this service's secrets at all: a vault or a plain-text file cannot
    /// for a service whose name cannot name a folder (`a/b`). The chain treats one that cannot
    /// as not there.
    var canHoldService: Bool { get }
    /// Whether it keeps secrets unencrypted: a chain then warns on every write, and takes it as
    /// its write target only when it was named in the process.
    var storesPlainText: Bool { get }
    /// A short look at the backend now — available, absent or failing, why, what protects its
    /// secrets, where it is. Never prompts, never writes, bounded in time. The chain sets
    /// ``SecretBackendStatus/isInChain`` on what it returns.
    func probe() -> SecretBackendStatus
    /// Whether it may become the write target of a chain nobody configured, and how strongly
    /// (``SecretBackendCandidacy``); `nil`: never on its own (credential folders, plain text).
    /// `looking` false: answer only what is known without asking another process (the chain
    /// asks that first, before it looks at anything).
    func candidacy(looking: Bool) -> SecretBackendCandidacy?
    /// Throws what a store would meet now (locked, no key source, not there), without writing,
    /// running a key source or prompting: for an importer or a move that must write nothing
    /// unless its secrets can be stored.
    func checkReadyForWrite() throws(SecretError)
    /// Where `account` is held, in words for a message ("as /run/credentials/app/svc.token
    /// ($CREDENTIALS_DIRECTORY)"); `nil` when it is not, or the backend cannot say.
    func location(ofAccount account: String) -> String?
    /// The item's label and whether it is text, when the backend keeps them (for a move to
    /// another backend); `nil` otherwise.
    func details(ofAccount account: String) -> (isText: Bool, label: String?)?
}

extension SecretBackend {
    /// A backend that can hold any service's secrets.
    public var canHoldService: Bool { true }
    /// A backend that encrypts (or whose host protects) what it keeps.
    public var storesPlainText: Bool { false }
    /// A backend that never becomes the write target on its own.
    public func candidacy(looking: Bool) -> SecretBackendCandidacy? { nil }
    /// A backend whose writes meet nothing a look could foresee.
    public func checkReadyForWrite() throws(SecretError) {}
    /// A backend that cannot say where an item is.
    public func location(ofAccount account: String) -> String? { nil }
    /// A backend that keeps no label or text flag.
    public func details(ofAccount account: String) -> (isText: Bool, label: String?)? { nil }
}

/// How strongly a backend may become the write target of a chain nobody configured. The chain
/// takes the first backend (in its order) that holds the service's secrets already, else the
/// first that is there, else the first that can be made here.
public enum SecretBackendCandidacy: Sendable, Equatable {
    /// It holds this service's secrets already (the service's vault exists): known without
    /// looking at another process, and the strongest claim.
    case holdsSecrets(reason: String)
    /// It is there (a Secret Service on the bus — even locked or failing: its error then stops
    /// the write, there is no fall-through; a sandbox's file keyring).
    case present(reason: String)
    /// It is not there yet, but can be made here (a vault with a key source).
    case canCreate(reason: String)
    /// It is not there and cannot be made; the reason is part of the error when nothing can store.
    case unavailable(reason: String)

    /// The reason, whatever the claim.
    public var reason: String {
        switch self {
        case .holdsSecrets(let reason), .present(let reason), .canCreate(let reason), .unavailable(let reason): return reason
        }
    }
}
#endif
