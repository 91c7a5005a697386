import Foundation
import XCTest
@testable import RizqSecrets

/// The store inside a Flatpak sandbox: the real Secret portal (xdg-desktop-portal with
/// gnome-keyring's backend, in a private D-Bus session: scripts/with-portal), and the app run
/// under bwrap with a `/.flatpak-info` (scripts/as-flatpak), so that the portal sees a sandboxed
/// caller; libsecret, sandboxed the same way, is the oracle. The cases the real portal cannot
/// produce on demand run against a fake of the portal's specified interface
/// (Tests/Oracles/fake_secret_portal.py), and are labelled so.
final class FileKeyringPortalTests: XCTestCase {
    private var child: String { productsFolder + "/rizq-secrets-test-child" }

    /// Runs `script` (bash) inside scripts/with-portal (`fake`: the fake portal in that mode),
    /// with `$CHILD`, `$AS_FLATPAK`, `$APP_DATA` (an app's data folder under the scratch folder)
    /// set; the lines it prints, as "NAME: output" pairs.
    private func inPortalSession(fake: String? = nil, _ script: String) throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["CHILD"] = child
        environment["CLI"] = productsFolder + "/rizq-prefs"
        environment["AS_FLATPAK"] = repositoryRoot().appendingPathComponent("scripts/as-flatpak").path
        environment["RIZQ_FLATPAK_RO_BINDS"] = productsFolder
        environment["FAKE_PORTAL_APP_ID"] = "com.rizq.FakeApp"
        if let fake { environment["RIZQ_FAKE_PORTAL"] = fake } else { environment.removeValue(forKey: "RIZQ_FAKE_PORTAL") }
        for name in ["SECRET_FILE_TEST_PATH", "SECRET_FILE_TEST_PASSWORD", "SECRET_BACKEND", "GTK_USE_PORTAL", "FLATPAK_ID"] {
            environment.removeValue(forKey: name)
        }
        // `libsecret`: libsecret 0.20.5 subscribes to the Request's Response only after
        // RetrieveSecret returns, so a portal that answers at once can answer before it listens,
        // and it then waits for ever (its own race, fixed in 0.21.4; ours subscribes first). Its
        // steps as the oracle are bounded (30 s) and tried again, at most three times.
        let prelude = """
        set -u
        step() { name=$1; shift; printf '%s: %s\\n' "$name" "$("$@" 2>&1 | tr '\\n' ' ' | sed 's/ *$//')"; }
        libsecret() { for attempt in 1 2 3; do timeout 30 "$@" && return 0; [ $? -eq 124 ] || return 1; done; return 1; }
        export APP_DATA="$RIZQ_PORTAL_SCRATCH/app-data"
        """
        let result = try runCommand(repositoryRoot().appendingPathComponent("scripts/with-portal").path, ["bash", "-c", prelude + "\n" + script], environment: environment)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        var steps: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            steps[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
        }
        return steps
    }

    /// Ours and libsecret's, both sandboxed as the same app, share one keyring keyed by the
    /// portal's secret for that app: each reads what the other stored.
    func testSandboxedStoreAndLibsecretShareThePortalKeyedKeyring() throws {
        let steps = try inPortalSession("""
        app() { XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.PortalTest "$@"; }
        step ours-set sh -c 'printf "stored by us" | XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.PortalTest "$CHILD" file-keyring S set A'
        step libsecret-lookup libsecret env XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.PortalTest /usr/bin/secret-tool lookup service S account A
        step libsecret-store libsecret sh -c 'printf "stored by libsecret" | XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.PortalTest /usr/bin/secret-tool store --label=L service S account B'
        step ours-get app "$CHILD" file-keyring S get B
        step ours-accounts app "$CHILD" file-keyring S accounts
        step status app "$CHILD" file-keyring S status
        step mode stat -c %a "$APP_DATA/keyrings/default.keyring"
        step other-app env XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.OtherApp "$CHILD" file-keyring S get A
        """)
        XCTAssertEqual(steps["ours-set"], "stored")
        XCTAssertEqual(steps["libsecret-lookup"], "stored by us")
        XCTAssertEqual(steps["ours-get"], "value " + hexString(Data("stored by libsecret".utf8)))
        XCTAssertEqual(steps["ours-accounts"], "accounts A,B")
        let status = try XCTUnwrap(steps["status"])
        XCTAssertTrue(status.contains("\"keySource\":\"secret-portal\""), status)
        XCTAssertTrue(status.contains("\"appID\":\"com.rizq.PortalTest\""), status)
        XCTAssertEqual(steps["mode"], "600")
        // Another app gets another secret from the portal: the keyring does not open for it.
        XCTAssertTrue(steps["other-app"]?.hasPrefix("error wrongPassphrase ") ?? false, steps["other-app"] ?? "")
    }

    /// `rizq-prefs secret`, with nothing configured, inside a sandbox: the chain lists the file
    /// keyring before the Secret Service and writes there (libsecret in the same app reads it);
    /// a secret the host kept in its Secret Service is moved in with `secret move`, and is then
    /// read from the file keyring alone. Outside the sandbox the default chain has no file
    /// keyring.
    func testChainInsideASandboxWritesTheFileKeyringAndTakesTheHostsSecrets() throws {
        let steps = try inPortalSession("""
        export RIZQ_PREFS_HOME="$RIZQ_PORTAL_SCRATCH/prefs"
        app() { env XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.ChainTest "$@"; }
        export -f app
        step host-set sh -c 'printf "kept by the host" | "$CLI" secret set --service S --backend secret-service A && echo ok'
        step host-order sh -c '"$CLI" secret backends --service S --json | python3 -c "import json,sys; print(json.load(sys.stdin)[\\"order\\"])"'
        step order bash -c 'app "$CLI" secret backends --service S --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(d[\\"order\\"], d[\\"writeTarget\\"][\\"backend\\"])"'
        step sandbox-set bash -c 'printf "made in the sandbox" | app "$CLI" secret set --service S B && echo ok'
        step libsecret-B libsecret env XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.ChainTest /usr/bin/secret-tool lookup service S account B
        step host-B /usr/bin/secret-tool lookup service S account B
        step move app "$CLI" secret move --service S --from secret-service --to file-keyring --delete-source
        step host-A /usr/bin/secret-tool lookup service S account A
        step sandbox-A app "$CLI" secret get --service S --backend file-keyring A
        step libsecret-A libsecret env XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.ChainTest /usr/bin/secret-tool lookup service S account A
        """)
        XCTAssertEqual(steps["host-set"], "ok")
        XCTAssertEqual(steps["host-order"], "['credentials', 'secret-service', 'vault']")
        XCTAssertEqual(steps["order"], "['credentials', 'file-keyring', 'secret-service', 'vault'] file-keyring")
        XCTAssertEqual(steps["sandbox-set"], "ok")
        XCTAssertEqual(steps["libsecret-B"], "made in the sandbox")
        XCTAssertEqual(steps["host-B"], "", "the sandbox's write went to its file keyring, not the host's keyring")
        XCTAssertTrue(steps["move"]?.contains("copied A") ?? false, steps["move"] ?? "")
        XCTAssertTrue(steps["move"]?.contains("deleted A") ?? false, steps["move"] ?? "")
        XCTAssertEqual(steps["host-A"], "", "moved out of the host's keyring")
        XCTAssertEqual(steps["sandbox-A"], "kept by the host")
        XCTAssertEqual(steps["libsecret-A"], "kept by the host")
    }

    /// Issue 49, item 5: `git push` over HTTP with basic auth from inside the sandbox (git's
    /// git-http-backend behind scripts/git-http-server on the host's loopback), the password kept
    /// by git-credential-rizq in the app's file keyring, keyed by the portal's secret: stored by
    /// git's `approve`, read back by the push, and never in the host's keyring or in clear.
    func testGitPushesFromTheSandboxWithThePasswordFromTheFileKeyring() throws {
        let server = repositoryRoot().appendingPathComponent("scripts/git-http-server").path
        let steps = try inPortalSession("""
        export RIZQ_PREFS_HOME="$RIZQ_PORTAL_SCRATCH/prefs" GIT_TERMINAL_PROMPT=0
        HELPER='\(productsFolder)/git-credential-rizq'
        SCRATCH=$RIZQ_PORTAL_SCRATCH
        app() { env XDG_DATA_HOME="$APP_DATA" HOME="$SCRATCH/home" "$AS_FLATPAK" com.rizq.GitPush "$@"; }
        mkdir -p "$SCRATCH/served" "$SCRATCH/work" "$SCRATCH/home"
        git init -q --bare "$SCRATCH/served/repo.git" && git -C "$SCRATCH/served/repo.git" config http.receivepack true
        printf 'sandbox-pass-4' > "$SCRATCH/server-password"
        coproc SERVER { '\(server)' "$SCRATCH/served" alice "$SCRATCH/server-password"; }
        read -r _ PORT <&"${SERVER[0]}"     # the server's "listening PORT": it accepts connections now
        REMOTE=http://127.0.0.1:$PORT/git/repo.git
        git -C "$SCRATCH/work" init -q -b main && git -C "$SCRATCH/work" -c user.email=a@example.com -c user.name=A commit -q --allow-empty -m first
        approve() { printf 'url=%s\\nusername=alice\\npassword=sandbox-pass-4\\n\\n' "$REMOTE" | app git -c credential.helper= -c credential.helper="$HELPER" credential approve && echo ok; }
        push() { app git -C "$SCRATCH/work" -c credential.helper= -c credential.helper="$HELPER" push -q "$REMOTE" main && echo pushed; }
        step approve approve
        step push push
        step served sh -c 'test "$(git -C "$1/served/repo.git" rev-parse main)" = "$(git -C "$1/work" rev-parse main)" && echo same' sh "$SCRATCH"
        step target bash -c 'env XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.GitPush "$CLI" secret backends --service git-credentials --json | python3 -c "import json,sys; print(json.load(sys.stdin)[\\"writeTarget\\"][\\"backend\\"])"'
        step host-keyring sh -c '/usr/bin/secret-tool search --all service git-credentials 2>&1 | grep -c "^secret = " || true'
        step keyring-file sh -c 'test -s "$APP_DATA/keyrings/default.keyring" && echo present'
        step plain sh -c 'grep -rl --exclude=server-password sandbox-pass-4 "$1" 2>/dev/null | wc -l' sh "$SCRATCH"
        exec {SERVER[1]}>&-
        wait "$SERVER_PID"
        """)
        XCTAssertEqual(steps["approve"], "ok")
        XCTAssertEqual(steps["push"], "pushed", "\(steps)")
        XCTAssertEqual(steps["served"], "same", "the server has the pushed commit")
        XCTAssertEqual(steps["target"], "file-keyring")
        XCTAssertEqual(steps["host-keyring"], "0", "nothing in the host's keyring")
        XCTAssertEqual(steps["keyring-file"], "present")
        XCTAssertEqual(steps["plain"], "0", "the password is in no file in clear")
    }

    /// The 64 bytes the client gets for a sandboxed app are exactly the item gnome-keyring keeps
    /// for it (`app_id` = the app's id in the login keyring), the same on every fetch; an
    /// unsandboxed caller gets the host's key (app id ""), shared by every host process — which
    /// is why the store never asks the portal outside a sandbox.
    func testClientGetsTheBackendsSecretForTheApp() throws {
        let steps = try inPortalSession("""
        step sandboxed "$AS_FLATPAK" com.rizq.PortalTest "$CHILD" portal 20
        step again "$AS_FLATPAK" com.rizq.PortalTest "$CHILD" portal 20
        step stored sh -c '/usr/bin/secret-tool lookup app_id com.rizq.PortalTest | od -An -v -tx1 | tr -d " \\n"'
        step unsandboxed "$CHILD" portal 20
        step host-key sh -c '/usr/bin/secret-tool lookup app_id "" | od -An -v -tx1 | tr -d " \\n"'
        """)
        let sandboxed = try XCTUnwrap(steps["sandboxed"])
        XCTAssertTrue(sandboxed.hasPrefix("secret 64 "), sandboxed)
        XCTAssertEqual(steps["again"], sandboxed)
        XCTAssertEqual("secret 64 " + (steps["stored"] ?? ""), sandboxed)
        let unsandboxed = try XCTUnwrap(steps["unsandboxed"])
        XCTAssertTrue(unsandboxed.hasPrefix("secret 64 "), unsandboxed)
        XCTAssertNotEqual(unsandboxed, sandboxed)
        XCTAssertEqual("secret 64 " + (steps["host-key"] ?? ""), unsandboxed)
    }

    /// A locked login keyring: the real portal answers 2, and the store says what to do.
    func testLockedHostKeyringIsReportedWithTheFix() throws {
        let steps = try inPortalSession("""
        gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \\
            --method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/collection/login']" >/dev/null
        step locked sh -c 'printf x | XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.LockedTest "$CHILD" file-keyring S set A'
        """)
        let locked = try XCTUnwrap(steps["locked"])
        XCTAssertTrue(locked.hasPrefix("error keySourceUnavailable "), locked)
        XCTAssertTrue(locked.contains("response 2"), locked)
        XCTAssertTrue(locked.contains("unlock it"), locked)
    }

    // MARK: Against the specified interface (the fake portal)

    /// Only `/.flatpak-info` makes a sandbox: `GTK_USE_PORTAL=1` and `FLATPAK_ID` outside one
    /// change nothing (oo7 once took the first for a sandbox, linux-credentials/oo7#331), and
    /// the portal is not even asked. Against the specified interface (the fake portal, which
    /// logs each call).
    func testEnvironmentVariablesDoNotMakeASandbox() throws {
        let steps = try inPortalSession(fake: "ok", """
        export GTK_USE_PORTAL=1 FLATPAK_ID=com.rizq.Pretend
        step unsandboxed sh -c 'printf x | XDG_DATA_HOME="$APP_DATA" "$CHILD" file-keyring S set A'
        step status-outside env XDG_DATA_HOME="$APP_DATA" "$CHILD" file-keyring S status
        step calls-before grep -c RetrieveSecret "$RIZQ_PORTAL_LOG"
        step sandboxed sh -c 'printf x | XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.Real "$CHILD" file-keyring S set A'
        step calls-after grep -c RetrieveSecret "$RIZQ_PORTAL_LOG"
        """)
        XCTAssertTrue(steps["unsandboxed"]?.hasPrefix("error noKeySource ") ?? false, steps["unsandboxed"] ?? "")
        let status = try XCTUnwrap(steps["status-outside"])
        XCTAssertFalse(status.contains("\"sandbox\""), status)
        XCTAssertTrue(status.contains("\"isAvailable\":false"), status)
        XCTAssertEqual(steps["calls-before"], "0")
        XCTAssertEqual(steps["sandboxed"], "stored")
        XCTAssertEqual(steps["calls-after"], "1")
    }

    /// Each answer the specification allows, and the failures around it, against the specified
    /// interface (the fake portal): what the client reports.
    func testPortalAnswersAgainstTheSpecifiedInterface() throws {
        let fakeSecret = try runCommand("/usr/bin/python3", ["-c", "import hashlib; print(hashlib.sha512(b'fake-portal:com.rizq.FakeApp').hexdigest())"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let expectations: [(mode: String, timeout: String, expected: String)] = [
            ("ok", "10", "secret 64 " + fakeSecret),
            ("long", "10", "secret 64 " + fakeSecret),  // 128 bytes: the first 64, as libsecret
            ("short", "10", "error portal the Secret portal gave a secret of 16 bytes"),
            ("empty", "10", "error portal the Secret portal gave a secret of 0 bytes"),
            ("cancel", "10", "error portal the Secret portal's request was cancelled by the user"),
            ("fail", "10", "error portal the Secret portal's backend gave no secret (response 2)"),
            ("error", "10", "error portal the Secret portal's RetrieveSecret failed: org.freedesktop.DBus.Error.AccessDenied"),
            ("never", "1", "error portal the Secret portal gave no secret within 1.0 s"),
            ("version0", "10", "error portal the desktop portal has no Secret interface"),
        ]
        for (mode, timeout, expected) in expectations {
            let steps = try inPortalSession(fake: mode, """
            step portal "$CHILD" portal \(timeout)
            step log sh -c 'cat "$RIZQ_PORTAL_LOG" | tr "\\n" ";"'
            """)
            let answer = try XCTUnwrap(steps["portal"], mode)
            XCTAssertTrue(answer.hasPrefix(expected), "\(mode): \(answer)")
            if mode == "never" {
                // The client gave up and closed its Request, as the specification asks.
                XCTAssertTrue(steps["log"]?.contains("Close /org/freedesktop/portal/desktop/request/") ?? false, steps["log"] ?? "")
            }
            if mode == "ok" {
                // The handle_token it chose, on the Request path it predicted.
                XCTAssertTrue(steps["log"]?.contains(" rizq") ?? false, steps["log"] ?? "")
            }
        }
    }

    /// No portal on the bus at all (a desktop without xdg-desktop-portal), and a sandboxed store
    /// whose portal fails: the errors name the cause and the fix. Against the specified interface.
    func testMissingAndFailingPortalAreReported() throws {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SECRET_FILE_TEST_PASSWORD")
        let bare = try runCommand("/usr/bin/dbus-run-session", ["--", child, "portal", "5"], environment: environment)
        XCTAssertTrue(bare.stdout.hasPrefix("error portal xdg-desktop-portal is not running on the session bus"), bare.stdout + bare.stderr)

        let steps = try inPortalSession(fake: "fail", """
        step store sh -c 'printf x | XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.Failing "$CHILD" file-keyring S set A'
        step get env XDG_DATA_HOME="$APP_DATA" "$AS_FLATPAK" com.rizq.Failing "$CHILD" file-keyring S get A
        step file sh -c 'test -e "$APP_DATA/keyrings/default.keyring" && echo exists || echo absent'
        """)
        XCTAssertTrue(steps["store"]?.hasPrefix("error keySourceUnavailable the file keyring's key comes from the Secret portal") ?? false, steps["store"] ?? "")
        // Reading a keyring that does not exist needs no key.
        XCTAssertEqual(steps["get"], "missing")
        XCTAssertEqual(steps["file"], "absent")
    }

    func testSandboxIsDetectedFromTheFileOnly() throws {
        let folder = try temporaryKeyringFolder(self)
        let info = folder + "/flatpak-info"
        XCTAssertNil(FlatpakSandbox.detect(infoPath: info))
        try Data("[Application]\nname=com.rizq.Detected\nruntime=runtime/x\n\n[Instance]\ninstance-id=1\n".utf8).write(to: URL(fileURLWithPath: info))
        chmod(info, 0o644)
        XCTAssertEqual(FlatpakSandbox.detect(infoPath: info), FlatpakSandbox(appID: "com.rizq.Detected", infoPath: info))
        // A folder (or anything but a regular file) is not a sandbox's description.
        try FileManager.default.removeItem(atPath: info)
        try FileManager.default.createDirectory(atPath: info, withIntermediateDirectories: false)
        XCTAssertNil(FlatpakSandbox.detect(infoPath: info))
        // This process (the test) runs outside any sandbox.
        XCTAssertNil(FlatpakSandbox.current)
    }

    func testRequestPathFollowsTheSpecification() {
        XCTAssertEqual(SecretPortal.requestPath(uniqueName: ":1.42", token: "rizqabc"), "/org/freedesktop/portal/desktop/request/1_42/rizqabc")
    }
}
