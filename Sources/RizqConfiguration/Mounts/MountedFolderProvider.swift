#if Configuration
import Configuration
import RizqCore
import RizqMounts
import Synchronization

/// A swift-configuration provider over a mounted folder of one file per key: a Kubernetes
/// ConfigMap or Secret volume, Docker's `/run/secrets`, systemd's `$CREDENTIALS_DIRECTORY`, or
/// any such folder. Reads are always of one generation (``/RizqMounts/MountedFolder``), and the
/// `watch` methods are fed by inotify: a `kubectl apply` of the ConfigMap reaches a running
/// server as soon as kubelet swaps `..data`, with no restart and no polling.
///
/// ```swift
/// import Configuration
/// import RizqConfiguration
///
/// let config = ConfigReader(providers: [
///     EnvironmentVariablesProvider(),
///     try MountedFolderProvider(folder: "/etc/config"),
///     try MountedFolderProvider(folder: "/etc/secrets", sensitivity: .secrets),
/// ])
/// let timeout = config.int(forKey: "http.timeout", default: 30)     // the file /etc/config/http.timeout
/// try await config.watchString(forKey: "log.level", default: "info") { updates in
///     for await level in updates { logger.logLevel = .init(rawValue: level) ?? .info }
/// }
/// ```
///
/// **Keys.** A key's components joined with `.` name the file: `http.timeout` is the file
/// `http.timeout`, `tls.crt` the file `tls.crt` (Kubernetes' keys keep their dots; a
/// ConfigMap's `items[].path: conf/app.yaml` is read with the key `conf/app.yaml`). The key's
/// context is not used. swift-configuration's own `DirectoryFilesProvider` maps `.` to `-` and
/// reads only regular files, so it can reach neither a dotted key nor any key of a Kubernetes
/// volume (each is a link into `..data`).
///
/// **Values.** Text is the file's bytes as UTF-8 with every trailing `\n` cut (the newline
/// `kubectl create --from-file`, `echo … | docker secret create` and a YAML `key: |` add, and
/// the rule of `NAME_FILE`: ``/RizqMounts/MountedText``):
///
/// | type | read as |
/// | --- | --- |
/// | `string` | the text |
/// | `int`, `double` | the text without white space around it (`8080`, `0.5`; a double must be finite) |
/// | `bool` | `true`/`false`, `yes`/`no`, `1`/`0`, any case, white space around it ignored |
/// | `bytes` | the file's bytes exactly, nothing cut |
/// | `stringArray`, `intArray`, … | the text split at the separator (`,` by default), white space around each element cut; an empty file is `[]` |
/// | `byteChunkArray` | one chunk: the file's bytes |
///
/// A value that does not read as the type asked for throws ``ConfigTypeMismatch``; a file that
/// is refused (another user's, writable by others, over 1 MiB) throws
/// ``/RizqMounts/MountError/refusedKey(folder:key:reason:)``. Either way a reader answers
/// with the default, or throws for a `required` read.
///
/// **Secrets.** Every value of a folder whose ``/RizqMounts/MountedFolder/isSecrets`` is set is
/// marked secret (`<REDACTED>` in access logs): ``/RizqMounts/MountedFolder/Sensitivity/secrets``,
/// or, by default, a folder where hosts put secrets (`/run/secrets`, `$CREDENTIALS_DIRECTORY`,
/// a tmpfs such as a Kubernetes Secret volume: ``/RizqMounts/MountedFolder/looksLikeSecrets(_:)``).
///
/// **What updates.** A Kubernetes volume mounted whole: every new generation, as kubelet
/// publishes it (typically within a minute of the change). A `subPath` mount, Docker's and
/// Compose's secrets, systemd's credentials: never (the snapshot's
/// ``/RizqMounts/MountedSnapshot/warnings`` say so for a `subPath`). A plain folder made by hand:
/// each change inotify sees.
public final class MountedFolderProvider: Sendable {
    /// The folder read.
    public let folder: MountedFolder
    /// What separates the elements of an array value.
    public let arraySeparator: Character
    /// The last snapshot read (by a lookup that found `..data` moved on, a fetch, or a watch).
    private let held: Mutex<MountedSnapshot>

    /// A provider over `folder`, read once now.
    /// - Throws: ``/RizqMounts/MountError`` when the folder is missing, not trusted or over
    ///   the limits.
    public init(folder: MountedFolder, arraySeparator: Character = ",") throws(MountError) {
        self.folder = folder
        self.arraySeparator = arraySeparator
        held = Mutex(try folder.read())
    }

    /// A provider over the folder at `path` (``/RizqMounts/MountedFolder/Sensitivity/detect``:
    /// secrets where hosts put secrets), read once now.
    /// - Throws: ``/RizqMounts/MountError``.
    public convenience init(
        folder path: String, sensitivity: MountedFolder.Sensitivity = .detect, arraySeparator: Character = ","
    ) throws(MountError) {
        try self.init(folder: MountedFolder(path, sensitivity: sensitivity), arraySeparator: arraySeparator)
    }

    /// The warnings of the last snapshot read (a frozen `subPath` mount, a polled folder).
    public var warnings: [MountWarning] { held.withLock { $0.warnings } }

    /// The snapshot a lookup answers from: the one held, unless the folder's `..data` now names
    /// another generation (one `readlink`), or a plain folder became a Kubernetes volume; then
    /// that generation, read now. A lookup is never older than the folder.
    func current() -> MountedSnapshot {
        let snapshot = held.withLock { $0 }
        let now = try? folder.dataLink()
        guard now != snapshot.generation else { return snapshot }
        return (try? refreshed()) ?? snapshot
    }

    /// The folder read now (and held).
    func refreshed() throws(MountError) -> MountedSnapshot {
        let snapshot = try folder.read()
        hold(snapshot)
        return snapshot
    }

    /// Keeps `snapshot` for lookups.
    func hold(_ snapshot: MountedSnapshot) {
        held.withLock { $0 = snapshot }
    }

    var lookup: MountedLookup { MountedLookup(providerName: providerName, arraySeparator: arraySeparator) }
}

extension MountedFolderProvider: ConfigProvider {
    /// `MountedFolderProvider[<folder>]`, as access logs name the provider.
    public var providerName: String { "MountedFolderProvider[\(folder.path)]" }

    /// The key's value in the folder's current generation.
    /// - Throws: ``ConfigTypeMismatch``, ``/RizqMounts/MountError/refusedKey(folder:key:reason:)``.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try lookup.result(forKey: key, type: type, in: current())
    }

    /// The key's value with the folder read now (a plain folder's file changed in place included).
    /// - Throws: ``/RizqMounts/MountError`` when the folder cannot be read; the lookup's errors.
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try lookup.result(forKey: key, type: type, in: try refreshed())
    }

    /// The key's value now, then again each time inotify sees the folder change and the value
    /// (or its error) is not what it was: kubelet rewrites every key on every update, and only
    /// the keys that changed are told.
    /// - Throws: ``/RizqMounts/MountError`` when the folder cannot be read or watched.
    public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        let snapshots = try folder.updates()
        let (results, continuation) = AsyncStream<Result<LookupResult, any Error>>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let forwarding = Task { [self] in
            var last: Result<LookupResult, any Error>?
            for await snapshot in snapshots {
                hold(snapshot)
                let result = Result { try lookup.result(forKey: key, type: type, in: snapshot) }
                if let last, Self.same(last, result) { continue }
                last = result
                continuation.yield(result)
            }
            continuation.finish()
        }
        defer {
            forwarding.cancel()
            continuation.finish()
        }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(results))
    }

    /// The folder's current generation, as one immutable snapshot.
    public func snapshot() -> any ConfigSnapshot {
        MountedConfigSnapshot(snapshot: current(), lookup: lookup)
    }

    /// The current generation, then each new one as inotify sees it (rapid swaps may arrive as
    /// their last).
    /// - Throws: ``/RizqMounts/MountError`` when the folder cannot be read or watched.
    public func watchSnapshot<Return: ~Copyable>(
        updatesHandler: (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        let snapshots = try folder.updates()
        let (configSnapshots, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let lookup = self.lookup
        let forwarding = Task { [self] in
            for await snapshot in snapshots {
                hold(snapshot)
                continuation.yield(MountedConfigSnapshot(snapshot: snapshot, lookup: lookup))
            }
            continuation.finish()
        }
        defer {
            forwarding.cancel()
            continuation.finish()
        }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(configSnapshots))
    }

    /// Whether two lookups told the same: equal results, or errors with the same words.
    private static func same(_ left: Result<LookupResult, any Error>, _ right: Result<LookupResult, any Error>) -> Bool {
        switch (left, right) {
        case (.success(let a), .success(let b)): return a == b
        case (.failure(let a), .failure(let b)): return "\(a)" == "\(b)"
        default: return false
        }
    }
}

/// One generation of a mounted folder, as swift-configuration's snapshot.
struct MountedConfigSnapshot: ConfigSnapshot {
    let snapshot: MountedSnapshot
    let lookup: MountedLookup

    var providerName: String { lookup.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try lookup.result(forKey: key, type: type, in: snapshot)
    }
}

/// One lookup in a mounted folder's snapshot, the same for the provider and its snapshots.
struct MountedLookup: Sendable {
    let providerName: String
    let arraySeparator: Character

    /// The file a key names: its components joined with `.`.
    static func fileName(for key: AbsoluteConfigKey) -> String {
        key.components.joined(separator: ".")
    }

    func result(forKey key: AbsoluteConfigKey, type: ConfigType, in snapshot: MountedSnapshot) throws -> LookupResult {
        let name = Self.fileName(for: key)
        guard let bytes = try snapshot.bytes(forKey: name) else { return LookupResult(encodedKey: name, value: nil) }
        guard let content = MountedContent(bytes: bytes, arraySeparator: arraySeparator).configContent(as: type) else {
            let isText = MountedText.string(bytes) != nil
            throw ConfigTypeMismatch(
                providerName: providerName, encodedKey: name, found: isText ? "text" : "bytes", requested: type,
                hint: isText
                    ? "write the file as \(type.rawValue) text (see MountedFolderProvider), or read it as string"
                    : "its bytes are not UTF-8 text: read it as bytes")
        }
        return LookupResult(encodedKey: name, value: ConfigValue(content, isSecret: snapshot.isSecrets))
    }
}
#endif
