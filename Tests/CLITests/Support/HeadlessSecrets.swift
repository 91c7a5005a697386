import Foundation
import XCTest

extension CLIHarness {
    /// The folder of this test's vaults (`RIZQ_SECRETS_DIR`).
    var secretsRoot: String { root + "/secrets" }

    /// A machine with no desktop: no session bus, no keyring; this test's own vault folder and
    /// config file and state folder; no passphrase source unless `extra` sets one. systemd-creds is used only with
    /// `systemd: true` (root, the host key).
    func headless(systemd: Bool = false, _ extra: [String: String?] = [:]) -> [String: String?] {
        var environment: [String: String?] = [
            "DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": root + "/no-runtime", "RIZQ_SECRETS_DIR": secretsRoot,
            "RIZQ_SECRETS_CONFIG": root + "/secrets.json", "RIZQ_SECRETS_SYSTEMD_CREDS": systemd ? "1" : "0",
            "RIZQ_SECRETS_PASSPHRASE_FILE": nil, "RIZQ_SECRETS_PASSPHRASE_FD": nil, "RIZQ_SECRETS_PASSPHRASE_COMMAND": nil,
            "RIZQ_SECRETS_KEY_FILE": nil, "RIZQ_SECRETS_BACKEND": nil, "CREDENTIALS_DIRECTORY": nil,
            // The vaults' generation records (outside the vaults' folder), this test's own too.
            "XDG_STATE_HOME": root + "/state",
        ]
        for (name, value) in extra { environment[name] = value }
        return environment
    }

    /// Writes `text` to a new file under the root, mode 0600; its path.
    func writeFile(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        let path = root + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]))
        return path
    }
}

/// Skips unless this process is root (systemd-creds' host key on systemd 252, runuser, mount
/// namespaces); CI and the test machines run as root.
func requireRoot() throws {
    try XCTSkipUnless(geteuid() == 0, "needs root; the test machines run as root")
}
