import Foundation

/// A throw-away D-Bus session with its own unlocked gnome-keyring (password `keyring-test`),
/// under a temporary HOME, for tests that lock, freeze or restart the daemon. `script` runs in
/// bash once the daemon owns the bus name; `$RIZQ_CHILD` is the secrets test child,
/// `$RIZQ_KEYRING_PID` the daemon's process id and `$RIZQ_START_KEYRING` a command that
/// starts a daemon and waits for it, `$RIZQ_CLI` the built `rizq-prefs`. `inspect` sees the
/// scratch folder before it is removed.
public func runInPrivateKeyring(
    _ script: String, input: String? = nil, inspect: (String) throws -> Void = { _ in }
) throws -> (status: Int32, stdout: String, stderr: String) {
    let scratch = NSTemporaryDirectory() + "rizq-keyring-\(UUID().uuidString.prefix(8))"
    for folder in ["home", "runtime", "prefs"] {
        try FileManager.default.createDirectory(atPath: scratch + "/" + folder, withIntermediateDirectories: true)
    }
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    chmod(scratch + "/runtime", 0o700)

    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = scratch + "/home"
    environment["XDG_RUNTIME_DIR"] = scratch + "/runtime"
    environment["XDG_CONFIG_HOME"] = scratch + "/home/.config"
    environment["XDG_DATA_HOME"] = scratch + "/home/.local/share"
    environment["RIZQ_PREFS_HOME"] = scratch + "/prefs"
    environment["TMPDIR"] = scratch
    environment["RIZQ_CHILD"] = productsFolder + "/rizq-secrets-test-child"
    environment["RIZQ_CLI"] = productsFolder + "/rizq-prefs"
    environment["RIZQ_SCRATCH"] = scratch
    let start = """
        printf 'keyring-test' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
        for _ in $(seq 1 600); do   # until the daemon owns the name: at most 30 s, against a hang
            dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true && break
            sleep 0.05
        done
        """
    environment["RIZQ_START_KEYRING"] = start
    let prologue = start + """

        export RIZQ_KEYRING_PID=$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '/uint32/ {print $2}')

        """
    let result = try runCommand("/usr/bin/dbus-run-session", ["--", "/bin/bash", "-c", prologue + script], input: input, environment: environment)
    try inspect(scratch)
    return result
}

/// The line of a child's output that starts with `step`, or a failure text holding all output.
public func stepLine(_ step: String, in output: (status: Int32, stdout: String, stderr: String)) -> String {
    output.stdout.split(separator: "\n").map(String.init).first { $0.hasPrefix(step + " ") }
        ?? "(no \(step) line)\n\(output.stdout)\n\(output.stderr)"
}
