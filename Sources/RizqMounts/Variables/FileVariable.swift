import Foundation
import RizqCore

/// The `NAME_FILE` convention of container images: a variable `NAME_FILE` names the file that
/// holds `NAME`'s value, so that a secret reaches the process as a file (`/run/secrets/db`, a
/// Kubernetes Secret's key) rather than in the environment, where `ps e` and crash reports
/// would show it.
///
/// The rules are those of docker-library's `file_env` (the entrypoints of the postgres, mysql,
/// mariadb and mongo images), so that an image's variables mean the same to the app:
///
/// | `NAME` | `NAME_FILE` | value |
/// | --- | --- | --- |
/// | set | — | `NAME`'s value, as it is |
/// | — | set | the file's bytes, every trailing `\n` cut (``MountedText/trimmingTrailingNewlines(_:)``: `$(< file)`) |
/// | set | set | an error, ``MountError/variableBothSet(name:)``: which one was meant is not guessed |
/// | — | — | `nil` |
///
/// An empty variable counts as not set (`NAME=""` with `NAME_FILE=/run/secrets/x` reads the
/// file); an empty file is the value `""`. A `NAME_FILE` whose file is missing or refused is an
/// error, never "not set". Two things differ from the shell, on purpose: a file whose bytes are
/// not UTF-8 text, or hold a NUL, is refused for ``text(of:in:)`` (bash drops NULs with a
/// warning, which changes a password silently; ``bytes(of:in:)`` gives the bytes as they are);
/// and the file is judged by the file layer (`FileTrust.hostProvided`: this user's or
/// root's, writable by nobody else; links followed; at most 1 MiB).
public enum FileVariable {
    /// The largest file a `NAME_FILE` may name.
    public static let maximumSize = 1 << 20

    /// Where a value came from.
    public enum Source: Sendable, Equatable {
        /// The variable `NAME` itself.
        case variable
        /// The file `NAME_FILE` named.
        case file(path: String)
    }

    /// `name`'s value: from `name`, or from the file `name_FILE` names, as the table above says.
    /// - Throws: ``MountError/variableBothSet(name:)`` or ``MountError/variableFileUnreadable(name:path:reason:)``.
    public static func bytes(
        of name: String, in environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(MountError) -> (bytes: [UInt8], source: Source)? {
        let direct = environment[name].flatMap { $0.isEmpty ? nil : $0 }
        let path = environment[name + "_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        switch (direct, path) {
        case (.some, .some):
            throw .variableBothSet(name: name)
        case (.some(let value), nil):
            return (Array(value.utf8), .variable)
        case (nil, .some(let path)):
            let read: (bytes: [UInt8], stamp: FileStamp)?
            do {
                read = try PrivateFile.read(path, trust: .hostProvided("file named by \(name)_FILE"), limit: maximumSize)
            } catch {
                throw .variableFileUnreadable(name: name, path: path, reason: error.reason)
            }
            guard let read else { throw .variableFileUnreadable(name: name, path: path, reason: "it does not exist") }
            return (Array(MountedText.trimmingTrailingNewlines(read.bytes)), .file(path: path))
        case (nil, nil):
            return nil
        }
    }

    /// `name`'s value as text (``bytes(of:in:)``, which must be UTF-8 with no NUL).
    /// - Throws: ``MountError/variableBothSet(name:)``, ``MountError/variableFileUnreadable(name:path:reason:)``,
    ///   ``MountError/variableNotText(name:path:)``.
    public static func text(
        of name: String, in environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(MountError) -> (text: String, source: Source)? {
        guard let (bytes, source) = try bytes(of: name, in: environment) else { return nil }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            if case .file(let path) = source { throw .variableNotText(name: name, path: path) }
            throw .variableNotText(name: name, path: "")
        }
        return (text, source)
    }

    /// `environment` with each of `names` resolved: `NAME` holds its value (from the file when
    /// `NAME_FILE` named one) and `NAME_FILE` is gone, as `file_env` leaves the environment
    /// (`nil` names: every `X_FILE` variable with a non-empty `X`). Also returns the names whose
    /// value came from a file.
    /// - Throws: ``MountError`` (its `variable…` cases) for the first name that fails.
    public static func resolving(
        _ names: [String]? = nil, in environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(MountError) -> (environment: [String: String], fromFiles: Set<String>) {
        let wanted = names ?? environment.keys.filter { $0.hasSuffix("_FILE") && $0.count > 5 }.map { String($0.dropLast(5)) }.sorted()
        var resolved = environment
        var fromFiles = Set<String>()
        for name in wanted {
            guard let (text, source) = try text(of: name, in: environment) else {
                resolved[name + "_FILE"] = nil
                continue
            }
            resolved[name] = text
            resolved[name + "_FILE"] = nil
            if case .file = source { fromFiles.insert(name) }
        }
        return (resolved, fromFiles)
    }
}
