#if Secrets
import RizqCore

extension FileKeyringStore {
    /// The store as it declares itself (see ``FileKeyringStatus``): cheap, asks no portal,
    /// derives no key, writes nothing.
    public func status() -> FileKeyringStatus {
        let path = location.path
        let source = keySource
        var problem: String?
        var count: Int?
        var exists = FileStamp.of(path) != nil
        do {
            if let read = try PrivateFile.read(path, trust: Self.trust, limit: Self.maximumFileSize) {
                count = try FileKeyringFile.decode(read.bytes).items.count
            } else {
                exists = false
            }
        } catch let error as FileError {
            problem = "the file keyring \(path) cannot be used: \(error.reason)"
        } catch let error as FileKeyringFormatError {
            problem = "the file keyring \(path) is damaged (\(error)); it is never rewritten: move it aside to start a new one"
        } catch {
            problem = "the file keyring \(path) cannot be read: \(error)"
        }
        let place = sandbox.map { "inside the Flatpak sandbox of \($0.appID ?? "an app whose id could not be read")" } ?? "outside a sandbox"
        let file = exists ? "\(path) (\(location.origin)) holds \(count.map(String.init) ?? "?") item\(count == 1 ? "" : "s")" : "\(path) (\(location.origin)) does not exist yet; the first store makes it"
        let reason: String
        let protections: [SecretProtection]
        switch source {
        case .portal:
            reason = "\(place); the key comes from the Secret portal (\(SecretPortal.hasCachedSecret ? "fetched" : "fetched at the first use")); \(file)"
            protections = [.osKeyring]
        case .testPassword:
            reason = "\(place); the key comes from \(FileKeyringKeySource.variable); \(file)"
            protections = [.passphrase]
        case .given:
            reason = "\(place); the key comes from the password the program gave; \(file)"
            protections = [.passphrase]
        case nil:
            reason = "\(place), so there is no key: only a sandbox's Secret portal or \(FileKeyringKeySource.variable) gives one; \(file)"
            protections = []
        }
        return FileKeyringStatus(
            sandbox: sandbox, keyring: location, fileExists: exists, itemCount: count, keySource: source,
            hasPortalSecret: SecretPortal.hasCachedSecret,
            backend: SecretBackendStatus(
                backend: name, isAvailable: source != nil, reason: reason, problem: problem, isReadable: true, isWritable: source != nil,
                persistence: .untilDeleted, protections: protections, location: path))
    }
}
#endif
