#if Secrets
import Foundation
import RizqCore

/// Where a chain keeps its own state for one service: files in the service's ``ServiceFolder``
/// under the chain's secrets root, found by the chain itself, with or without a vault among its
/// backends — the remembered write target (`backend.json`, ``WriteTargetMarker``) and an
/// unfinished move's journal (`migration.journal`, ``SecretMoveJournal``). These are the paths
/// every earlier release wrote them at (beside the vault's files, when there is one), so what an
/// existing install has on disk is read as it is.
struct ChainState: Sendable, Equatable {
    /// The service's folder under the secrets root.
    let folder: ServiceFolder

    /// The remembered write target (no secret in it).
    var marker: String { folder.file("backend.json") }
    /// An unfinished `secret move`'s journal (its file keeps the first release's name): account
    /// names and states, never secrets.
    var moveJournal: String { folder.file("migration.journal") }

    /// The state of `service` under `root`; `nil` when the service name cannot name a folder.
    init?(service: String, root: String) {
        guard let folder = ServiceFolder(service: service, root: root) else { return nil }
        self.folder = folder
    }
}
#endif
