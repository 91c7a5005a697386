import RizqCore

/// What a mounted folder held at one moment: for a Kubernetes volume, exactly one generation —
/// never keys or values from two.
///
/// Keys are file names (`tls.crt`, `.dockerconfigjson`, `database.password`); a file in a folder
/// inside the generation (a ConfigMap's `items[].path: conf/app.yaml`) is the key
/// `conf/app.yaml`. Names that start with `..` (kubelet's `..data`, its generation folders,
/// `..data_tmp`) are never keys.
///
/// ```swift
/// let snapshot = try MountedFolder("/etc/config").read()
/// let timeout = try snapshot.text(forKey: "http.timeout")      // "30" (a trailing newline cut)
/// let certificate = try snapshot.bytes(forKey: "tls.crt")      // the bytes as they are
/// ```
public struct MountedSnapshot: Sendable, Equatable {
    /// How the folder is laid out.
    public enum Layout: Sendable, Equatable, Hashable {
        /// kubelet's atomic writer: a `..data` link naming the generation folder read (its name,
        /// such as `..2026_11_29_05_55_36.2136083382`, is the snapshot's identity).
        case kubernetes(generation: String)
        /// Plain files (Docker's `/run/secrets`, systemd's credentials, a `subPath` folder, a
        /// folder made by hand): read as they are.
        case plain
    }

    /// One key's file: its bytes, or why it was refused.
    public enum Entry: Sendable, Hashable {
        /// The file's bytes, exactly.
        case bytes([UInt8])
        /// The file is there but was not read: the reason says why and what to do.
        case refused(reason: String)
    }

    /// The folder read.
    public let folder: String
    /// How it was laid out when read.
    public let layout: Layout
    /// Whether its values are secrets (``MountedFolder/isSecrets``).
    public let isSecrets: Bool
    /// Every key, with its file's bytes or why it was refused.
    public let entries: [String: Entry]
    /// What the reader should know (a frozen `subPath` mount, …).
    public let warnings: [MountWarning]

    /// A snapshot of these entries.
    public init(folder: String, layout: Layout, isSecrets: Bool, entries: [String: Entry], warnings: [MountWarning] = []) {
        self.folder = folder
        self.layout = layout
        self.isSecrets = isSecrets
        self.entries = entries
        self.warnings = warnings
    }

    /// The generation's name for a Kubernetes volume, `nil` for a plain folder.
    public var generation: String? {
        if case .kubernetes(let generation) = layout { return generation }
        return nil
    }

    /// Every key, sorted.
    public var keys: [String] { entries.keys.sorted() }

    /// The bytes of `key`'s file exactly as they are; `nil` when the folder has no such key.
    /// - Throws: ``MountError/refusedKey(folder:key:reason:)`` when the file is there but
    ///   was refused.
    public func bytes(forKey key: String) throws(MountError) -> [UInt8]? {
        switch entries[key] {
        case nil: return nil
        case .bytes(let bytes): return bytes
        case .refused(let reason): throw .refusedKey(folder: folder, key: key, reason: reason)
        }
    }

    /// `key`'s value as text: the file's bytes as UTF-8 with every trailing `\n` cut
    /// (``MountedText/trimmingTrailingNewlines(_:)``); `nil` when the folder has no such key or
    /// its bytes are not UTF-8 text.
    /// - Throws: ``MountError/refusedKey(folder:key:reason:)``.
    public func text(forKey key: String) throws(MountError) -> String? {
        guard let bytes = try bytes(forKey: key) else { return nil }
        return MountedText.string(bytes)
    }

    /// This snapshot with `warning` added (once).
    public func adding(_ warning: MountWarning) -> MountedSnapshot {
        guard !warnings.contains(warning) else { return self }
        return MountedSnapshot(folder: folder, layout: layout, isSecrets: isSecrets, entries: entries, warnings: warnings + [warning])
    }

    /// The keys whose value differs from `other`'s (added, changed or removed), sorted.
    public func changedKeys(since other: MountedSnapshot?) -> [String] {
        guard let other else { return keys }
        var changed = Set<String>()
        for (key, entry) in entries where other.entries[key] != entry { changed.insert(key) }
        for key in other.entries.keys where entries[key] == nil { changed.insert(key) }
        return changed.sorted()
    }
}

/// How a mounted file's bytes read as text: the one rule for ``MountedSnapshot/text(forKey:)``,
/// the configuration provider's typed reads and ``FileVariable`` (`NAME_FILE`).
public enum MountedText {
    /// `bytes` without its trailing `\n` bytes — all of them, and nothing else: `"s3cr3t\n"` and
    /// `"s3cr3t\n\n"` are `"s3cr3t"`, `" s3cr3t \r\n"` is `" s3cr3t \r"`. This is the shell's
    /// `$(< file)`, which docker-library's `file_env` uses: the value `kubectl create secret
    /// --from-file`, `echo pw | docker secret create` or a YAML block (`key: |`) stored, without
    /// the newline the tool added.
    public static func trimmingTrailingNewlines(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        return bytes[..<end]
    }

    /// ``trimmingTrailingNewlines(_:)`` of `bytes` as UTF-8 text; `nil` when it is not valid UTF-8.
    public static func string(_ bytes: [UInt8]) -> String? {
        String(validating: trimmingTrailingNewlines(bytes), as: UTF8.self)
    }
}
