import Foundation
import XCTest

/// Issue 50, items 1 and 16: a sandbox is another principal. A Flatpak app runs as this same
/// user, so what it can write passes the owner rule; here it is a real process under bubblewrap
/// (scripts/as-flatpak with RIZQ_FLATPAK_HOME: the home hidden as Flatpak hides it, the app's own
/// `~/.var/app/APP` and the permissions given bound in), writing what a hostile app would. The
/// host is the built `rizq-prefs` with the defaults of a desktop user (no RIZQ_PREFS_HOME, no
/// RIZQ_SECRETS_CONFIG): each attack must fail on the host.
///
/// The attacker is given `--filesystem=xdg-config/rizq-prefs:create` — the whole folder, as the
/// docs advised before, and as installed apps still have it — the widest permission these docs
/// ever named. With the permission advised now (`xdg-config/rizq-prefs/groups`), it cannot even
/// reach where the plants go (``testTheAdvisedPermissionReachesTheGroupsFolderAlone``).
final class SandboxPrincipalTests: XCTestCase {
    static let wide = "xdg-config/rizq-prefs:create"
    static let narrow = "xdg-config/rizq-prefs/groups:create"

    /// A host: its home under the harness's root, a vault keyed by a passphrase file outside
    /// the home, and the environment of its runs.
    private struct Host {
        let cli: CLIHarness
        let home: String
        let passphrase: String
        var environment: [String: String?]

        var config: String { home + "/.config/rizq-prefs" }
        var groups: String { config + "/groups" }
        var marker: String { cli.root + "/the-command-ran" }

        /// Runs `rizq-prefs` on the host; `unlocked`: with the host's own passphrase source.
        func run(_ arguments: [String], stdin: String? = nil, unlocked: Bool = true) throws -> CLIResult {
            var environment = self.environment
            if unlocked { environment["RIZQ_SECRETS_PASSPHRASE_FILE"] = passphrase }
            return try cli.run(arguments, stdin: stdin.map { Data($0.utf8) }, environment: environment)
        }
    }

    private func host() throws -> Host {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bwrap is missing: run scripts/install-deps")
        let cli = try CLIHarness()
        let home = cli.root + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let passphrase = try cli.writeFile("passphrase", "the host's own passphrase\n")
        let environment: [String: String?] = [
            "RIZQ_PREFS_HOME": nil, "HOME": home, "XDG_CONFIG_HOME": nil, "XDG_STATE_HOME": nil, "XDG_DATA_HOME": nil,
            "DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": cli.root + "/no-runtime", "RIZQ_SECRETS_DIR": nil, "RIZQ_SECRETS_CONFIG": nil,
            "RIZQ_SECRETS_SYSTEMD_CREDS": "0", "RIZQ_SECRETS_KEYRING_CACHE": "0", "RIZQ_SECRETS_PASSPHRASE_FILE": nil,
            "RIZQ_SECRETS_PASSPHRASE_FD": nil, "RIZQ_SECRETS_PASSPHRASE_COMMAND": nil, "RIZQ_SECRETS_KEY_FILE": nil,
            "RIZQ_SECRETS_BACKEND": nil, "CREDENTIALS_DIRECTORY": nil, "RIZQ_PREFS_APP_ID": "com.rizq.Host",
        ]
        return Host(cli: cli, home: home, passphrase: passphrase, environment: environment)
    }

    /// Runs `script` with /bin/sh as the Flatpak app `com.rizq.Attacker` given `permission`:
    /// the home hidden but for the app's own folder and what the permission gives.
    /// `extra`: more of the environment (`RIZQ_FLATPAK_RO_BINDS` to run the built programs inside).
    @discardableResult
    private func sandbox(_ host: Host, permission: String = wide, environment extra: [String: String] = [:], _ script: String) throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = host.home
        environment["RIZQ_FLATPAK_HOME"] = host.home
        environment["RIZQ_FLATPAK_FILESYSTEMS"] = permission
        environment["XDG_RUNTIME_DIR"] = nil
        for (name, value) in extra { environment[name] = value }
        let asFlatpak = repositoryRoot().appendingPathComponent("scripts/as-flatpak").path
        let result = try runProcess(asFlatpak, ["com.rizq.Attacker", "/bin/sh", "-c", script], environment: environment)
        return (result.status, String(decoding: result.stdout + result.stderr, as: UTF8.self))
    }

    /// Writes `text` to `path` from inside the sandbox (its folder made first), mode 0600.
    private func plant(_ host: Host, _ path: String, _ text: String, permission: String = wide) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let result = try sandbox(host, permission: permission, "umask 077 && mkdir -p '\(folder)' && cat > '\(path)' <<'PLANTED'\n\(text)\nPLANTED")
        XCTAssertEqual(result.status, 0, "the sandbox could not write \(path): \(result.output)")
    }

    private func service() -> String { "org.rizq.sandboxed.\(UUID().uuidString.prefix(8))" }

    // MARK: Item 1: the three attacks

    func testAPlantedPassphraseCommandNeverRunsOnTheHost() throws {
        let host = try host()
        let service = service()
        XCTAssertEqual(try host.run(["secret", "set", "--service", service, "token"], stdin: "host-secret").status, 0)
        try plant(host, host.config + "/secrets.json", #"{"backend": "vault", "passphraseCommand": "touch '\#(host.marker)'; echo planted"}"#)
        let dump = #"{"access_token": "\#(FakeToken.jwt(subject: "sandboxed"))", "theme": "dark"}"#
        for arguments in [["secret", "get", "--service", service, "token"], ["doctor"], ["import-app", "--app", "com.rizq.Host", "--service", service, "-"]] {
            let result = try host.run(arguments, stdin: dump, unlocked: false)
            XCTAssertFalse(FileManager.default.fileExists(atPath: host.marker), "\(arguments[0]) ran the sandbox's command: \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("refusing the secrets config file") || result.stderr.contains("refusing the secrets config file"), "\(arguments[0]): \(result.stdout) \(result.stderr)")
            XCTAssertTrue((result.stdout + result.stderr).contains("passphraseCommand"), result.stderr)
        }
        // The host's own passphrase source still opens the vault, and the planted file is not moved in.
        XCTAssertFalse(FileManager.default.fileExists(atPath: host.home + "/.config/rizq-prefs-secrets/secrets.json"))
    }

    func testAPlantedKeyFileAndSecretsFolderDoNotMoveTheHostsVaultWhereTheSandboxReads() throws {
        let host = try host()
        let service = service()
        try plant(host, host.groups + "/key.txt", "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ")
        try plant(host, host.config + "/secrets.json", #"{"secretsDirectory": "\#(host.groups)/stolen", "keyFile": "\#(host.groups)/key.txt"}"#)
        let set = try host.run(["secret", "set", "--service", service, "token"], stdin: "host-secret")
        XCTAssertNotEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stderr.contains("refusing the secrets config file \(host.config)/secrets.json"), set.stderr)
        XCTAssertTrue(set.stderr.contains("keyFile") && set.stderr.contains("secretsDirectory"), set.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: host.groups + "/stolen"), "no vault in the shared folder")
        XCTAssertEqual(filesLeaking("host-secret", under: host.config), [])
        // A config the host itself keeps that names a folder inside the shared one is refused too.
        try FileManager.default.removeItem(atPath: host.config + "/secrets.json")
        try FileManager.default.createDirectory(atPath: host.home + "/.config/rizq-prefs-secrets", withIntermediateDirectories: true)
        try Data(#"{"secretsDirectory": "\#(host.groups)/stolen"}"#.utf8).write(to: URL(fileURLWithPath: host.home + "/.config/rizq-prefs-secrets/secrets.json"))
        let again = try host.run(["secret", "set", "--service", service, "token"], stdin: "host-secret")
        XCTAssertNotEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("which sandboxed (Flatpak) apps of this user may be given"), again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: host.groups + "/stolen/" + service + "/vault.age"))
    }

    func testAPlantedImportJournalDeletesNoHostSecret() throws {
        let host = try host()
        let service = service()
        XCTAssertEqual(try host.run(["secret", "set", "--service", service, "victim"], stdin: "keep me").status, 0)
        let journal = #"""
            {"journal":1,"import":"planted","run":"0000","pid":1}
            {"secret":{"service":"\#(service)","account":"victim","existed":false}}
            """#
        for (index, arguments) in [["import-app", "--app", "com.rizq.A", "--service", service, "-"], ["import-app", "--app", "com.rizq.A", "--recover"]].enumerated() {
            let path = host.config + "/apps/com.rizq.A/.rizq-import-planted\(index).journal"
            try plant(host, path, journal)
            let doctor = try host.run(["doctor", "--skip-secrets"])
            XCTAssertTrue(doctor.stdout.contains("never acted on"), doctor.stdout)
            let result = try host.run(arguments, stdin: "{\"theme\": \"dark\"}")
            XCTAssertTrue(result.stderr.contains("it was not acted on and nothing was deleted"), result.stderr)
            XCTAssertTrue(result.stderr.contains("\(service)"), result.stderr)
            let read = try host.run(["secret", "get", "--service", service, "victim"])
            XCTAssertEqual(read.status, 0, "\(arguments): the host's secret was deleted: \(read.stderr)")
            XCTAssertEqual(read.stdout, "keep me")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "reported once, then removed")
        }
    }

    // MARK: Item 16: the variants

    func testAPlantedPlaintextBackendWritesNothingInTheSharedFolder() throws {
        let host = try host()
        let service = service()
        try plant(host, host.config + "/secrets.json", #"{"backend": "plaintext", "secretsDirectory": "\#(host.groups)"}"#)
        let set = try host.run(["secret", "set", "--service", service, "token"], stdin: "host-plain-secret")
        XCTAssertNotEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stderr.contains("refusing the secrets config file"), set.stderr)
        XCTAssertEqual(filesLeaking("host-plain-secret", under: host.home), [])
        // Plain text alone, no folder named: not moved in either (it would write the host's secrets in clear).
        try plant(host, host.config + "/secrets.json", #"{"backend": "plaintext"}"#)
        let alone = try host.run(["secret", "set", "--service", service, "token"], stdin: "host-plain-secret")
        XCTAssertNotEqual(alone.status, 0, alone.stderr)
        XCTAssertTrue(alone.stderr.contains("backend plaintext"), alone.stderr)
        XCTAssertEqual(filesLeaking("host-plain-secret", under: host.home), [])
    }

    func testAPlantedCredentialFolderDoesNotAnswerTheHostsReads() throws {
        let host = try host()
        let service = service()
        XCTAssertEqual(try host.run(["secret", "set", "--service", service, "token"], stdin: "the host's token").status, 0)
        try plant(host, host.groups + "/creds/\(service).token", "the sandbox's token")
        try plant(host, host.config + "/secrets.json", #"{"credentialDirectories": ["\#(host.groups)/creds"]}"#)
        let read = try host.run(["secret", "get", "--service", service, "token"])
        XCTAssertFalse(read.stdout.contains("sandbox"), read.stdout)
        XCTAssertTrue(read.stderr.contains("refusing the secrets config file"), read.stderr)
        // Named by the host itself, the folder is refused for being where sandboxes write.
        try FileManager.default.removeItem(atPath: host.config + "/secrets.json")
        var environment = host.environment
        environment["RIZQ_SECRETS_CREDENTIAL_DIRS"] = host.groups + "/creds"
        environment["RIZQ_SECRETS_PASSPHRASE_FILE"] = host.passphrase
        let named = try host.cli.run(["secret", "get", "--service", service, "token"], environment: environment)
        XCTAssertEqual(named.stdout, "the host's token", "the write target's own copy answers, never the sandbox's: \(named.stderr)")
        let listed = try host.cli.run(["secret", "list", "--service", service], environment: environment)
        XCTAssertNotEqual(listed.status, 0, listed.stdout)
        XCTAssertTrue(listed.stderr.contains("which sandboxed (Flatpak) apps of this user may be given"), listed.stderr)
        // Rotating the host's token is not refused for the sandbox's file.
        XCTAssertEqual(try host.run(["secret", "set", "--service", service, "token"], stdin: "rotated").status, 0)
    }

    func testAPlantedSyncStateDoesNotPublishTheHostsSuite() throws {
        let host = try host()
        let exfiltrate = host.cli.root + "/exfiltrate"
        try FileManager.default.createDirectory(atPath: exfiltrate, withIntermediateDirectories: true)
        XCTAssertEqual(try host.run(["set", "--app", "com.rizq.Host", "theme", "dark"]).status, 0)
        let state = #"""
            {"format":"rizq-prefs-sync-state-1","configuration":{"folder":"\#(exfiltrate)","keys":["theme"],"includesMarkedKeys":true,"firstDevice":true,"tombstoneRetentionMilliseconds":7776000000,"limits":{},"engine":{}},"markedKeys":[],"initialSyncDone":true,"accountChangePending":false,"entries":{},"knownKeys":[],"devices":{},"forgotten":{}}
            """#
        try plant(host, host.config + "/sync/apps/com.rizq.Host/com.rizq.Host.json", state)
        let now = try host.run(["sync", "now", "--app", "com.rizq.Host", "com.rizq.Host"])
        XCTAssertNotEqual(now.status, 0, now.stdout)
        XCTAssertTrue(now.stderr.contains("was not carried over"), now.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: exfiltrate), [], "nothing published where the sandbox chose")
        // Planted again after the move ran: never read at all.
        let status = try host.run(["sync", "status"])
        XCTAssertFalse(status.stdout.contains("com.rizq.Host"), status.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: exfiltrate), [])
    }

    func testTheAdvisedPermissionReachesTheGroupsFolderAlone() throws {
        let host = try host()
        try FileManager.default.createDirectory(atPath: host.config + "/apps", withIntermediateDirectories: true)
        // The permission tried is the one the program itself advises (`doctor` inside a sandbox
        // given none), not one written here: advice that reached further would fail below.
        let products = URL(fileURLWithPath: CLIHarness.binary).deletingLastPathComponent().path
        let doctor = try sandbox(
            host, permission: "", environment: ["RIZQ_FLATPAK_RO_BINDS": products],
            "env -u RIZQ_PREFS_HOME XDG_CONFIG_HOME='\(host.home)/.var/app/com.rizq.Attacker/config' RIZQ_PREFS_APP_ID=com.rizq.Attacker '\(CLIHarness.binary)' doctor --skip-secrets")
        let advised = doctor.output.components(separatedBy: "flatpak override --user --filesystem=").dropFirst().first?
            .split(separator: " ").first.map(String.init)
        XCTAssertEqual(advised, Self.narrow, doctor.output)
        let permission = try XCTUnwrap(advised, doctor.output)
        let result = try sandbox(host, permission: permission, "echo x > '\(host.config)/secrets.json' || echo refused; echo y > '\(host.groups)/group.x.json' && echo shared")
        XCTAssertTrue(result.output.contains("shared"), result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: host.config + "/secrets.json"), "outside groups/ nothing reaches the host")
        XCTAssertTrue(FileManager.default.fileExists(atPath: host.groups + "/group.x.json"))
    }

    // MARK: Existing installs: what moves, once

    func testAFormerConfigOfChoicesIsMovedOnceAndOneNamingACommandWaitsForItsOwner() throws {
        let host = try host()
        let service = service()
        let former = host.config + "/secrets.json"
        let moved = host.home + "/.config/rizq-prefs-secrets/secrets.json"
        try FileManager.default.createDirectory(atPath: host.config, withIntermediateDirectories: true)
        try Data(#"{"backend": "vault", "keyringCache": false}"#.utf8).write(to: URL(fileURLWithPath: former))
        let first = try host.run(["secret", "set", "--service", service, "token"], stdin: "v1")
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("moved the secrets config file \(former) to \(moved)"), first.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: former))
        XCTAssertEqual(try String(contentsOfFile: moved, encoding: .utf8), #"{"backend": "vault", "keyringCache": false}"#)
        let second = try host.run(["secret", "get", "--service", service, "token"])
        XCTAssertEqual(second.stdout, "v1")
        XCTAssertFalse(second.stderr.contains("moved"), "once: \(second.stderr)")

        // A former file that names a command is the owner's to move, by hand, as the error says.
        try FileManager.default.removeItem(atPath: moved)
        try Data(#"{"passphraseFile": "\#(host.passphrase)"}"#.utf8).write(to: URL(fileURLWithPath: former))
        let refused = try host.run(["secret", "get", "--service", service, "token"], unlocked: false)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("mv '\(former)' '\(moved)'"), refused.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: former), "left for its owner")
        XCTAssertEqual(rename(former, moved), 0)
        let byHand = try host.run(["secret", "get", "--service", service, "token"], unlocked: false)
        XCTAssertEqual(byHand.status, 0, byHand.stderr)
        XCTAssertEqual(byHand.stdout, "v1")
    }

    func testAFormerSyncStateMovesWhenItsFolderHoldsThisDevicesReplica() throws {
        let host = try host()
        let shared = host.cli.root + "/synced"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        // What an earlier release did: the sync state under ~/.config/rizq-prefs/sync, this
        // device publishing. Made here in a root of its own, then put where that release kept it.
        let earlier = host.cli.root + "/earlier"
        var before = host.environment
        before["RIZQ_PREFS_HOME"] = earlier
        XCTAssertEqual(try host.cli.run(["set", "--app", "com.rizq.Host", "theme", "dark"], environment: before).status, 0)
        let enabled = try host.cli.run(
            ["sync", "enable", "--app", "com.rizq.Host", "com.rizq.Host", "--folder", shared, "--keys", "theme", "--first-device", "--no-engine-check"],
            environment: before)
        XCTAssertEqual(enabled.status, 0, enabled.stderr)
        let published = try host.cli.run(["sync", "now", "--app", "com.rizq.Host", "com.rizq.Host"], environment: before)
        XCTAssertEqual(published.status, 0, published.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared).filter { $0.hasPrefix("replica-") }.count, 1, "this device published")
        try FileManager.default.createDirectory(atPath: host.home + "/.config", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: earlier, toPath: host.config)
        XCTAssertTrue(FileManager.default.fileExists(atPath: host.config + "/sync/apps/com.rizq.Host/com.rizq.Host.json"))

        let status = try host.run(["sync", "status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stderr.contains("moved the device-sync state of suite com.rizq.Host"), status.stderr)
        XCTAssertTrue(status.stdout.contains("com.rizq.Host"), status.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: host.home + "/.local/state/rizq-prefs/sync/apps/com.rizq.Host/com.rizq.Host.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: host.config + "/sync/apps/com.rizq.Host/com.rizq.Host.json"))
        XCTAssertEqual(try host.run(["set", "--app", "com.rizq.Host", "theme", "light"]).status, 0)
        XCTAssertEqual(try host.run(["sync", "now", "--app", "com.rizq.Host", "com.rizq.Host"]).status, 0)
        let replicas = try FileManager.default.contentsOfDirectory(atPath: shared).filter { $0.hasPrefix("replica-") && $0.hasSuffix(".json") }
        XCTAssertEqual(replicas.count, 1, "\(replicas)")
        XCTAssertTrue(try String(contentsOfFile: shared + "/" + (replicas.first ?? "none"), encoding: .utf8).contains("light"), "still publishing")
    }
}
