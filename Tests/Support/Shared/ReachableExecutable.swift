import Foundation

/// `executable`, at a path another user (`runuser -u nobody`) can run: itself when every folder
/// above it can be searched by others, otherwise a copy in a folder of `/tmp` that can be (made
/// once per executable and process). A checkout may sit under a folder only its owner can
/// enter — `mktemp -d` makes them mode 0700 — and then the build folder is out of reach of
/// every user but root, whatever its own modes.
public func reachableByEveryUser(_ executable: String) throws -> String {
    let resolved = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
    var folder = resolved.deletingLastPathComponent()
    var searchable = true
    while folder.path != "/" {
        var info = stat()
        if stat(folder.path, &info) != 0 || info.st_mode & S_IXOTH == 0 { searchable = false }
        folder.deleteLastPathComponent()
    }
    if searchable { return resolved.path }
    return try ReachableCopies.copy(of: resolved.path)
}

private enum ReachableCopies {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var copies: [String: String] = [:]
    nonisolated(unsafe) private static var folders: [String] = []

    /// At the test process's exit: the copies go.
    static func removeAll() {
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
    }

    static func copy(of path: String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let copy = copies[path] { return copy }
        let folder = "/tmp/rizq-reachable-\(getpid())-\(UUID().uuidString.prefix(8))"
        if folders.isEmpty { atexit { ReachableCopies.removeAll() } }
        folders.append(folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let copy = folder + "/" + URL(fileURLWithPath: path).lastPathComponent
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
        copies[path] = copy
        return copy
    }
}
