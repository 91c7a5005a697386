import Foundation
import XCTest

/// A mount made for one test; ``undo()`` unmounts it (lazily, if something still holds it).
public struct Mount: Sendable {
    /// Where it is mounted.
    public let path: String

    /// A tmpfs of `size` (mount's units: "256k") over `path`, with `options` added to mount's
    /// (`nr_inodes=8`: at most eight files and folders). Skips when not root or when the mount is
    /// refused.
    public static func tmpfs(at path: String, size: String, options: String = "") throws -> Mount {
        try requireRoot()
        let all = "size=\(size),mode=0700" + (options.isEmpty ? "" : "," + options)
        guard runQuietly("/bin/mount", ["-t", "tmpfs", "-o", all, "tmpfs", path]) else {
            throw XCTSkip("mounting a tmpfs is not permitted here")
        }
        return Mount(path: path)
    }

    /// `path` bound over itself, read-only.
    public static func readOnlyBind(_ path: String) throws -> Mount {
        try requireRoot()
        guard runQuietly("/bin/mount", ["--bind", path, path]) else { throw XCTSkip("bind mounts are not permitted here") }
        let mount = Mount(path: path)
        guard runQuietly("/bin/mount", ["-o", "remount,bind,ro", path]) else {
            mount.undo()
            throw XCTSkip("remounting read-only is not permitted here")
        }
        return mount
    }

    public func undo() {
        if !runQuietly("/bin/umount", [path]) { _ = runQuietly("/bin/umount", ["-l", path]) }
    }

    private static func requireRoot() throws {
        guard geteuid() == 0 else { throw XCTSkip("mount-based tests need root (they run as root in CI)") }
    }
}

/// Writes `path` until its file system is full (a tmpfs of a test's own): every block left is then
/// this file's, and removing it frees them.
public func fillDisk(_ path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
    let block = [UInt8](repeating: 0xAB, count: 4096)
    while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    close(descriptor)
}
