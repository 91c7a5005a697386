import Foundation
import XCTest

/// Runs `executable` as on a machine where Debian's `libsecret-1-0` is not installed; see
/// ``runWithoutLibrary(_:_:_:input:environment:)``.
public func runWithoutLibsecret(
    _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    try runWithoutLibrary("libsecret-1", executable, arguments, input: input, environment: environment)
}

/// Runs `executable` as on a machine where the library `stem` (`libsecret-1`, `libleveldb`, …)
/// is not installed: in a mount namespace of its own (`unshare --mount`), the folder that holds
/// it is covered by an overlay in which the library's files are deleted (overlayfs whiteouts),
/// so the dynamic loader finds no such library, exactly as after `apt-get remove`, while every
/// other library stays. Nothing changes outside the namespace, which ends with the process.
/// Needs root (a mount namespace and overlayfs): the test is skipped, saying so, without it.
public func runWithoutLibrary(
    _ stem: String, _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    guard getuid() == 0 else { throw XCTSkip("hiding \(stem) in a mount namespace needs root (CI and the dev machines are root)") }
    let scratch = NSTemporaryDirectory() + "rizq-no-library-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    // Exit 97: the namespace could not be made as intended; the command has not run.
    let script = #"""
        set -eu
        library=$(ldconfig -p | awk -v stem="$RIZQ_STEM" 'index($1, stem ".so") == 1 { print $NF; exit }')
        [ -n "$library" ] || { echo "$RIZQ_STEM is not installed on this machine to begin with" >&2; exit 97; }
        folder=$(dirname "$(readlink -f "$library")")
        mount -t tmpfs rizq-no-library "$RIZQ_SCRATCH" || exit 97
        mkdir "$RIZQ_SCRATCH/upper" "$RIZQ_SCRATCH/work"
        for file in "$folder/$RIZQ_STEM".so*; do mknod "$RIZQ_SCRATCH/upper/${file##*/}" c 0 0; done
        mount -t overlay rizq-no-library -o "lowerdir=$folder,upperdir=$RIZQ_SCRATCH/upper,workdir=$RIZQ_SCRATCH/work" "$folder" || exit 97
        if [ -e "$library" ] || ls "$folder/$RIZQ_STEM".so* >/dev/null 2>&1; then echo "$RIZQ_STEM is still visible" >&2; exit 97; fi
        exec "$@"
        """#
    var environment = environment ?? ProcessInfo.processInfo.environment
    environment["RIZQ_SCRATCH"] = scratch
    environment["RIZQ_STEM"] = stem
    let result = try runCommand(
        "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/bash", "-c", script, "bash", executable] + arguments,
        input: input, environment: environment)
    XCTAssertNotEqual(result.status, 97, "the namespace without \(stem) could not be made: \(result.stderr)")
    return result
}
