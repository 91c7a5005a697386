import Foundation
import XCTest

/// Runs `executable` as on a machine where Debian's `libsecret-1-0` is not installed: in a mount
/// namespace of its own (`unshare --mount`), the folder that holds `libsecret-1.so.0` is covered
/// by an overlay in which the library's files are deleted (overlayfs whiteouts), so the dynamic
/// loader finds no libsecret, exactly as after `apt-get remove libsecret-1-0`, while every other
/// library stays. Nothing changes outside the namespace, which ends with the process. Needs
/// root (a mount namespace and overlayfs): the test is skipped, saying so, without it.
public func runWithoutLibsecret(
    _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    guard getuid() == 0 else { throw XCTSkip("hiding libsecret in a mount namespace needs root (CI and the dev machines are root)") }
    let scratch = NSTemporaryDirectory() + "rizq-no-libsecret-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    // Exit 97: the namespace could not be made as intended; the command has not run.
    let script = #"""
        set -eu
        library=$(ldconfig -p | awk '$1 == "libsecret-1.so.0" { print $NF; exit }')
        [ -n "$library" ] || { echo "libsecret-1.so.0 is not installed on this machine to begin with" >&2; exit 97; }
        folder=$(dirname "$(readlink -f "$library")")
        mount -t tmpfs rizq-no-libsecret "$RIZQ_SCRATCH" || exit 97
        mkdir "$RIZQ_SCRATCH/upper" "$RIZQ_SCRATCH/work"
        for file in "$folder"/libsecret-1.so*; do mknod "$RIZQ_SCRATCH/upper/${file##*/}" c 0 0; done
        mount -t overlay rizq-no-libsecret -o "lowerdir=$folder,upperdir=$RIZQ_SCRATCH/upper,workdir=$RIZQ_SCRATCH/work" "$folder" || exit 97
        if [ -e "$library" ] || [ -e "$folder/libsecret-1.so.0" ]; then echo "libsecret-1.so.0 is still visible" >&2; exit 97; fi
        exec "$@"
        """#
    var environment = environment ?? ProcessInfo.processInfo.environment
    environment["RIZQ_SCRATCH"] = scratch
    let result = try runCommand(
        "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/bash", "-c", script, "bash", executable] + arguments,
        input: input, environment: environment)
    XCTAssertNotEqual(result.status, 97, "the namespace without libsecret could not be made: \(result.stderr)")
    return result
}
