import Foundation

/// This user's id on this machine: the origin of the ``ChangeStamp``s its changes carry, to
/// device sync and to fleet suites alike.
///
/// A random 128-bit value in hex, made once and kept in `$XDG_STATE_HOME/rizq-prefs/replica-id`
/// (default `~/.local/state`), mode 0600 — never derived from `/etc/machine-id`, so that it
/// says nothing about the machine. `RIZQ_PREFS_REPLICA_ID` overrides it (a test's second
/// "device", or a container whose state folder is thrown away). A disk cloned with its state
/// folder clones the id too; give the clone a new one by removing the file.
public enum ReplicaIdentity {
    /// The environment variable that names the replica id outright.
    public static let environmentVariable = "RIZQ_PREFS_REPLICA_ID"

    /// The id: the environment's, else the one kept on disk (made on first use).
    /// Within the package: device sync and fleet suites say why it failed in their own errors
    /// (`SyncError.replicaIdentity(reason:)`, `FleetError.noReplicaIdentity(reason:)`).
    /// - Throws: ``ReplicaIdentityError`` when the state folder cannot hold the id.
    package static func current(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ReplicaIdentityError) -> String {
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            guard isValid(explicit) else { throw .invalid(explicit) }
            return explicit
        }
        return try stored(at: path(environment: environment))
    }

    /// Where the id is kept.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let state: String
        if let folder = environment["XDG_STATE_HOME"], folder.hasPrefix("/") {
            state = folder
        } else {
            state = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        return state + "/rizq-prefs/replica-id"
    }

    /// An id is 1 to 64 characters of letters, digits, `-`, `_` and `.`: it travels in file names,
    /// JSON and SQL.
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
    }

    private static func stored(at path: String) throws(ReplicaIdentityError) -> String {
        if let existing = read(path) { return existing }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try PrivateFolder.ensure(folder, trust: .settings("state folder"))
        } catch {
            throw .unwritable(path: folder, reason: error.reason)
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        let id = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        // O_EXCL: two processes making the id at once agree on whichever wrote first.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor >= 0 {
            let text = Array((id + "\n").utf8)
            let failure = text.withUnsafeBytes { buffer -> Errno? in
                do throws(Errno) {
                    try DescriptorIO.writeAll(buffer, to: descriptor)
                    return fsync(descriptor) == 0 ? nil : Errno.current
                } catch {
                    return error
                }
            }
            close(descriptor)
            if let failure {
                unlink(path)
                throw .unwritable(path: path, reason: failure.description)
            }
            return id
        }
        if errno == EEXIST, let existing = read(path) { return existing }
        throw .unwritable(path: path, reason: Errno.current.description)
    }

    /// The id kept at `path`: through the file layer (never a FIFO or a link, this user's or
    /// root's, nobody else may write it), at most a line.
    private static func read(_ path: String) -> String? {
        guard let read = try? PrivateFile.read(path, trust: .settings("replica id"), limit: 256),
            let text = String(validating: read.bytes, as: UTF8.self)?.trimmingCharacters(in: .whitespacesAndNewlines), isValid(text)
        else { return nil }
        return text
    }
}

/// Why the replica id could not be had (within the package: the modules that ask for the id
/// carry the message in an error of their own).
package enum ReplicaIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `RIZQ_PREFS_REPLICA_ID` is not a valid id.
    case invalid(String)
    /// The state folder or the id file cannot be written.
    case unwritable(path: String, reason: String)

    /// What happened and what to do.
    package var description: String {
        switch self {
        case .invalid(let id):
            return "RIZQ_PREFS_REPLICA_ID '\(id)' is not a replica id; use 1 to 64 letters, digits, '-', '_' or '.'"
        case .unwritable(let path, let reason):
            return "cannot keep this machine's replica id at \(path) (\(reason)); make the folder writable, or set RIZQ_PREFS_REPLICA_ID"
        }
    }
}
