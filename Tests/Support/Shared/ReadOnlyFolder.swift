import Foundation
import XCTest

/// Makes `folder` refuse new files — also for root, whom permission bits do not stop, through
/// the immutable attribute (`chattr +i`) — and returns the undo. Throws `XCTSkip` when neither
/// works here.
public func makeReadOnly(_ folder: String) throws -> () -> Void {
    chmod(folder, 0o555)
    var undo: () -> Void = { _ = chmod(folder, 0o755) }
    if canCreateFile(in: folder), geteuid() == 0, runQuietly("/usr/bin/chattr", ["+i", folder]) {
        undo = {
            _ = runQuietly("/usr/bin/chattr", ["-i", folder])
            _ = chmod(folder, 0o755)
        }
    }
    guard !canCreateFile(in: folder) else {
        undo()
        throw XCTSkip("cannot make a folder read-only here (running as root without chattr support)")
    }
    return undo
}

private func canCreateFile(in folder: String) -> Bool {
    let probe = folder + "/.probe-\(getpid())"
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    unlink(probe)
    return true
}
