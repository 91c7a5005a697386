#if Secrets
import Foundation
import RizqCore

/// The remembered automatic choice of a service's write target: `<root>/<service>/backend.json`,
/// 0600, `{"backend": "vault", "chosen": "2026-11-26T10:00:00Z", "reason": "…"}` — no secret,
/// no account name. Written once, after the first store that an automatic choice sent somewhere
/// succeeded; every later process of the app then writes to the same backend, even when a D-Bus
/// session has appeared since (or gone), so that one app's items never end up split across two
/// backends. `secret move` rewrites it to the backend the items moved to; deleting it lets the
/// next store choose again.
struct WriteTargetMarker: Sendable, Equatable, Codable {
    var backend: SecretBackendName
    /// When it was chosen, as the file says it (ISO 8601): only ever shown, so never parsed —
    /// a date strategy would start Foundation's calendar and time zone in every process that
    /// reads a secret (a credential helper runs once per request).
    var chosen: String
    var reason: String

    /// A marker chosen now.
    init(backend: SecretBackendName, chosen: Date, reason: String) {
        self.backend = backend
        self.chosen = chosen.formatted(.iso8601)
        self.reason = reason
    }

    /// The marker at `path`, or `nil` when there is none.
    static func read(_ path: String) throws(SecretError) -> WriteTargetMarker? {
        let data: Data?
        do {
            data = try PrivateFiles.read(path, limit: 64 * 1024)
        } catch {
            throw error.secretError
        }
        guard let data else { return nil }
        guard let marker = try? JSONDecoder().decode(WriteTargetMarker.self, from: data), marker.chosen.utf8.count <= 64,
            !marker.chosen.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .invalidConfiguration(detail: "the remembered write target \(path) is not what it should be; remove it (the next store chooses again), or set RIZQ_SECRETS_BACKEND")
        }
        return marker
    }

    /// Writes the marker in `folder` (made 0700 if missing): replacing one with `replace`, else
    /// only if there is none yet (a marker another process wrote first wins). Returns the marker
    /// now on disk.
    @discardableResult
    func write(to path: String, replace: Bool) throws(SecretError) -> WriteTargetMarker {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { throw .storageFailed(detail: "cannot encode the remembered write target") }
        do {
            try PrivateFiles.ensureFolder((path as NSString).deletingLastPathComponent)
            if replace {
                try PrivateFiles.replace(path, with: data)
                return self
            }
            if !PrivateFiles.exists(path) {
                try PrivateFiles.createExclusive(path, data: data)
                return self
            }
        } catch {
            // Another process wrote it between the look and the create: its choice stands.
            guard !replace, PrivateFiles.exists(path) else { throw error.secretError }
        }
        return try Self.read(path) ?? self
    }
}
#endif
