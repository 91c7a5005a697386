import Foundation
import RizqTestSupport
import XCTest

/// `git-credential-rizq` against the real programs: git itself (`git credential fill`, `approve`,
/// `reject`, which run the helper as `git push` does), git's own git-credential-libsecret built
/// from Debian's source, and secret-tool, in a private gnome-keyring; and headless, with no
/// session bus, where the vault answers.
final class GitCredentialHelperTests: XCTestCase {
    /// Bash functions the scripts share: `helper` (git credential with only HELPER), `request`
    /// (a request's lines for a host), and the programs' paths.
    private func prologue(_ libsecret: String? = nil) -> String {
        """
        export GIT_CONFIG_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0 GIT_ASKPASS=/bin/false SSH_ASKPASS=/bin/false
        OURS='\(GitHelperPrograms.ours)'
        LIBSECRET='\(libsecret ?? "")'
        gitcred() { local helper=$1; shift; git -c credential.helper= -c credential.helper="$helper" credential "$@"; }

        """
    }

    // MARK: On a desktop: git-credential-libsecret's items

    func testGitStoresAndFillsThroughTheHelperInTheKeyringLibsecretsHelperReads() throws {
        let libsecret = try GitHelperPrograms.libsecretHelper()
        let result = try runInPrivateKeyring(prologue(libsecret) + """
            printf 'protocol=https\\nhost=git.example.com\\nusername=alice\\npassword=s3cret-1\\n\\n' | gitcred "$OURS" approve
            echo "approve: $?"
            printf 'protocol=https\\nhost=git.example.com\\n\\n' | gitcred "$OURS" fill | sed 's/^/ours-fill: /'
            printf 'protocol=https\\nhost=git.example.com\\n\\n' | gitcred "$LIBSECRET" fill | sed 's/^/libsecret-fill: /'
            secret-tool search --all server git.example.com 2>&1 | sed 's/^/search: /'
            """)
        XCTAssertTrue(result.stdout.contains("approve: 0"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("ours-fill: username=alice\nours-fill: password=s3cret-1"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("libsecret-fill: username=alice\nlibsecret-fill: password=s3cret-1"), result.stdout + result.stderr)
        // Exactly libsecret's item: its schema, attributes and label.
        XCTAssertTrue(result.stdout.contains("search: label = Git: https://git.example.com/"), result.stdout)
        XCTAssertTrue(result.stdout.contains("search: schema = org.gnome.keyring.NetworkPassword"), result.stdout)
        XCTAssertTrue(result.stdout.contains("search: attribute.user = alice"), result.stdout)
        XCTAssertTrue(result.stdout.contains("search: attribute.protocol = https"), result.stdout)
        XCTAssertEqual(result.stdout.components(separatedBy: "search: [").count - 1, 1, "one item: \(result.stdout)")
    }

    func testWhatLibsecretsHelperStoredIsReadAndErasedByOurs() throws {
        let libsecret = try GitHelperPrograms.libsecretHelper()
        let result = try runInPrivateKeyring(prologue(libsecret) + """
            # credential.useHttpPath: git sends the path, and each repository is a place of its own.
            withpath() { local helper=$1; shift; git -c credential.useHttpPath=true -c credential.helper= -c credential.helper="$helper" credential "$@"; }
            printf 'url=https://git.example.com:8443/team/repo.git\\nusername=bob\\npassword=from-libsecret\\n\\n' | withpath "$LIBSECRET" approve
            printf 'url=https://git.example.com:8443/team/repo.git\\n\\n' | withpath "$OURS" fill | sed 's/^/ours-fill: /'
            printf 'url=https://git.example.com:8443/team/other.git\\n\\n' | withpath "$OURS" fill | sed 's/^/other-repo: /'
            printf 'url=https://git.example.com/team/repo.git\\n\\n' | withpath "$OURS" fill | sed 's/^/other-port: /'
            printf 'url=https://git.example.com:8443/team/repo.git\\nusername=bob\\npassword=from-libsecret\\n\\n' | withpath "$OURS" reject
            echo "reject: $?"
            printf 'url=https://git.example.com:8443/team/repo.git\\n\\n' | withpath "$LIBSECRET" fill | sed 's/^/libsecret-after: /'
            echo "items left: $(secret-tool search --all server git.example.com 2>&1 | grep -c '^\\[')"
            """)
        XCTAssertTrue(result.stdout.contains("ours-fill: username=bob\nours-fill: password=from-libsecret"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("ours-fill: path=team/repo.git"), result.stdout)
        XCTAssertFalse(result.stdout.contains("other-repo: password="), "another path is another place: \(result.stdout)")
        XCTAssertFalse(result.stdout.contains("other-port: password="), "another port is another place: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("reject: 0"), result.stdout + result.stderr)
        XCTAssertFalse(result.stdout.contains("libsecret-after: password="), result.stdout)
        XCTAssertTrue(result.stdout.contains("items left: 0"), result.stdout)
    }

    func testAStoreReplacesTheItemAnotherSchemaMadeAndErasesOnlyTheRefusedPassword() throws {
        let result = try runInPrivateKeyring(prologue() + """
            # git 2.44's helper writes the schema org.git.Password: the same attributes, another schema.
            printf 'old-token' | secret-tool store --label='Git: https://git.example.com/' xdg:schema org.git.Password \\
                user alice protocol https server git.example.com
            printf 'protocol=https\\nhost=git.example.com\\nusername=alice\\npassword=new-token\\n' | "$OURS" store
            echo "items: $(secret-tool search --all server git.example.com 2>&1 | grep -c '^\\[')"
            printf 'protocol=https\\nhost=git.example.com\\n' | "$OURS" get | sed 's/^/get: /'
            # git erases the password the server refused; a newer one stays.
            printf 'protocol=https\\nhost=git.example.com\\nusername=alice\\npassword=old-token\\n' | "$OURS" erase
            printf 'protocol=https\\nhost=git.example.com\\n' | "$OURS" get | sed 's/^/after-stale-erase: /'
            """)
        XCTAssertTrue(result.stdout.contains("items: 1"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("get: password=new-token"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("after-stale-erase: password=new-token"), result.stdout + result.stderr)
    }

    func testExpiryAndTheRefreshTokenAreKeptAsGitsHelperKeepsThemAndAnExpiredPasswordIsNeverServed() throws {
        let result = try runInPrivateKeyring(prologue() + """
            printf 'protocol=https\\nhost=forge.example\\nusername=carol\\npassword=fresh\\npassword_expiry_utc=4102444800\\noauth_refresh_token=refresh-1\\n' \\
                | "$OURS" store
            printf 'protocol=https\\nhost=forge.example\\n' | "$OURS" get | sed 's/^/get: /'
            # The secret as git 2.44's libsecret helper keeps it: the password, then the lines.
            secret-tool lookup user carol protocol https server forge.example | sed 's/^/stored: /'; echo
            # An expired password in the keyring (another helper's) is never served.
            printf 'stale\\npassword_expiry_utc=1000000000' | secret-tool store --label=x user dave protocol https server old.example
            printf 'protocol=https\\nhost=old.example\\n' | "$OURS" get; echo "expired get: $? [$(printf 'protocol=https\\nhost=old.example\\n' | "$OURS" get)]"
            # Storing an already expired password stores nothing.
            printf 'protocol=https\\nhost=new.example\\nusername=erin\\npassword=late\\npassword_expiry_utc=1000000000\\n' | "$OURS" store
            echo "expired store: $? items=$(secret-tool search --all server new.example 2>&1 | grep -c '^\\[')"
            """)
        XCTAssertTrue(result.stdout.contains("get: username=carol\nget: password=fresh\nget: password_expiry_utc=4102444800\nget: oauth_refresh_token=refresh-1"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("stored: fresh\nstored: password_expiry_utc=4102444800\nstored: oauth_refresh_token=refresh-1"), result.stdout)
        XCTAssertTrue(result.stdout.contains("expired get: 0 []"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("expired store: 0 items=0"), result.stdout + result.stderr)
    }

    // MARK: Headless: the vault

    func testWithNoSessionBusGitStoresFillsAndRejectsInTheVault() throws {
        let result = try runInPrivateKeyring(prologue() + """
            unset DBUS_SESSION_BUS_ADDRESS; export XDG_RUNTIME_DIR=$RIZQ_SCRATCH/no-bus; mkdir -m 700 "$XDG_RUNTIME_DIR"
            head -c 24 /dev/urandom | base64 > "$RIZQ_SCRATCH/passphrase"; chmod 600 "$RIZQ_SCRATCH/passphrase"
            export RIZQ_SECRETS_PASSPHRASE_FILE=$RIZQ_SCRATCH/passphrase
            printf 'protocol=https\\nhost=git.example.com\\nusername=alice\\npassword=vault-pass-7\\n\\n' | gitcred "$OURS" approve
            printf 'protocol=https\\nhost=git.example.com\\n\\n' | gitcred "$OURS" fill | sed 's/^/fill: /'
            "$RIZQ_CLI" secret list --service git-credentials | sed 's/^/list: /'
            "$RIZQ_CLI" secret backends --service git-credentials 2>&1 | grep -i 'write' | sed 's/^/target: /'
            grep -rl vault-pass-7 "$HOME" "$RIZQ_SCRATCH/prefs" 2>/dev/null | sed 's/^/plain: /'
            printf 'protocol=https\\nhost=git.example.com\\nusername=alice\\npassword=vault-pass-7\\n\\n' | gitcred "$OURS" reject
            printf 'protocol=https\\nhost=git.example.com\\n\\n' | gitcred "$OURS" fill; echo "fill after reject: $?"
            # An OAuth token with its expiry and refresh token: the secret's lifetime on the chain.
            printf 'protocol=https\\nhost=forge.example\\nusername=bob\\npassword=oauth-access-1\\npassword_expiry_utc=4102444800\\noauth_refresh_token=oauth-refresh-1\\n\\n' | "$OURS" store
            printf 'protocol=https\\nhost=forge.example\\n\\n' | "$OURS" get | sed 's/^/oauth: /'
            "$RIZQ_CLI" secret list --long --service git-credentials | sed 's/^/long: /'
            "$RIZQ_CLI" secret get --service git-credentials https://bob@forge.example/ | sed 's/^/secret: /'; echo
            """)
        XCTAssertTrue(result.stdout.contains("oauth: username=bob\noauth: password=oauth-access-1\noauth: password_expiry_utc=4102444800\noauth: oauth_refresh_token=oauth-refresh-1"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("long: https://bob@forge.example/  2100-01-01T00:00:00Z  yes"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("secret: oauth-access-1\n"), "the password alone is the secret: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("fill: username=alice\nfill: password=vault-pass-7"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("list: https://alice@git.example.com/"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("target: ") && result.stdout.contains("vault"), result.stdout + result.stderr)
        XCTAssertFalse(result.stdout.contains("plain: "), "the password is nowhere in clear: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("fill after reject: 128"), "git found nothing to fill: \(result.stdout)\(result.stderr)")
    }

    func testGitPushesOverHTTPWithThePasswordFromTheVaultOnAMachineWithNoSessionBus() throws {
        let server = repositoryRoot().appendingPathComponent("scripts/git-http-server").path
        let result = try runInPrivateKeyring(prologue() + """
            unset DBUS_SESSION_BUS_ADDRESS; export XDG_RUNTIME_DIR=$RIZQ_SCRATCH/no-bus; mkdir -m 700 "$XDG_RUNTIME_DIR"
            head -c 24 /dev/urandom | base64 > "$RIZQ_SCRATCH/passphrase"; chmod 600 "$RIZQ_SCRATCH/passphrase"
            export RIZQ_SECRETS_PASSPHRASE_FILE=$RIZQ_SCRATCH/passphrase
            mkdir -p "$RIZQ_SCRATCH/served" "$RIZQ_SCRATCH/work"
            git init -q --bare "$RIZQ_SCRATCH/served/repo.git" && git -C "$RIZQ_SCRATCH/served/repo.git" config http.receivepack true
            printf 'forge-pass-9' > "$RIZQ_SCRATCH/server-password"
            coproc SERVER { '\(server)' "$RIZQ_SCRATCH/served" alice "$RIZQ_SCRATCH/server-password"; }
            read -r _ PORT <&"${SERVER[0]}"     # the server's "listening PORT": it accepts connections now
            REMOTE=http://127.0.0.1:$PORT/git/repo.git
            cd "$RIZQ_SCRATCH/work" && git init -q -b main && git -c user.email=a@example.com -c user.name=A commit -q --allow-empty -m first
            # A wrong password stored: the push fails, and git has the helper erase what the server refused.
            printf 'url=%s\\nusername=alice\\npassword=wrong-pass\\n\\n' "$REMOTE" | gitcred "$OURS" approve
            git -c credential.helper= -c credential.helper="$OURS" push -q "$REMOTE" main 2>/dev/null; echo "push with a wrong password: $?"
            echo "stored after the refusal: [$("$RIZQ_CLI" secret list --service git-credentials)]"
            printf 'url=%s\\nusername=alice\\npassword=forge-pass-9\\n\\n' "$REMOTE" | gitcred "$OURS" approve
            git -c credential.helper= -c credential.helper="$OURS" push -q "$REMOTE" main; echo "push: $?"
            echo "served: $(git -C "$RIZQ_SCRATCH/served/repo.git" rev-parse main) local: $(git rev-parse main)"
            exec {SERVER[1]}>&-
            wait "$SERVER_PID"
            """)
        XCTAssertTrue(result.stdout.contains("push with a wrong password: 128"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("stored after the refusal: []"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("push: 0"), result.stdout + result.stderr)
        let served = result.stdout.split(separator: "\n").first { $0.hasPrefix("served: ") }.map(String.init) ?? ""
        let parts = served.split(separator: " ")
        XCTAssertEqual(parts.count, 4, result.stdout + result.stderr)
        if parts.count == 4 {
            XCTAssertEqual(parts[1], parts[3], "the server has the pushed commit")
            XCTAssertEqual(parts[1].count, 40, served)
        }
    }

    func testImportMovesCredentialStoresPlainTextFileOntoTheChainAfterADryRun() throws {
        let result = try runInPrivateKeyring(prologue() + """
            unset DBUS_SESSION_BUS_ADDRESS; export XDG_RUNTIME_DIR=$RIZQ_SCRATCH/no-bus; mkdir -m 700 "$XDG_RUNTIME_DIR"
            head -c 24 /dev/urandom | base64 > "$RIZQ_SCRATCH/passphrase"; chmod 600 "$RIZQ_SCRATCH/passphrase"
            export RIZQ_SECRETS_PASSPHRASE_FILE=$RIZQ_SCRATCH/passphrase
            # What git credential-store writes (its own file, by its own helper).
            printf 'protocol=https\\nhost=git.example.com\\nusername=alice\\npassword=store-pass-1\\n\\n' | gitcred store approve
            printf 'protocol=https\\nhost=forge.example:8443\\nusername=b@b\\npassword=p@ss:w/rd-2\\n\\n' | gitcred store approve
            echo 'not a url' >> "$HOME/.git-credentials"
            "$OURS" import --dry-run | sed 's/^/dry: /'
            echo "after the dry run: [$("$RIZQ_CLI" secret list --service git-credentials 2>/dev/null)]"
            "$OURS" import | sed 's/^/import: /'
            printf 'protocol=https\\nhost=forge.example:8443\\n\\n' | gitcred "$OURS" fill | sed 's/^/fill: /'
            """)
        let out = result.stdout + result.stderr
        XCTAssertTrue(result.stdout.contains("dry: would import https://alice@git.example.com/"), out)
        XCTAssertTrue(result.stdout.contains("dry: skipped: line 3 is not a URL"), out)
        XCTAssertTrue(result.stdout.contains("dry: would import 2 credentials"), out)
        XCTAssertTrue(result.stdout.contains("after the dry run: []"), out)
        XCTAssertTrue(result.stdout.contains("import: imported 2 credentials"), out)
        XCTAssertTrue(result.stdout.contains("fill: username=b@b\nfill: password=p@ss:w/rd-2"), out)
        let printed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("dry: ") || $0.hasPrefix("import: ") }
        XCTAssertFalse(printed.contains { $0.contains("store-pass-1") || $0.contains("rd-2") }, "no password is printed: \(printed)")
    }

    // MARK: Bad input

    func testBadRequestsAreRefusedWithAClearErrorAndWriteNothing() throws {
        let bigLine = "password=" + String(repeating: "x", count: 70_000)
        let requests = try RefusedRequests([
            .init(name: "no host", "get", "protocol=https\nusername=alice\n", 1, "needs a protocol and a host"),
            .init(name: "no protocol", "store", "host=git.example.com\nusername=alice\npassword=p1-secret\n", 1, "has no protocol"),
            .init(name: "a long line", "store", "protocol=https\nhost=h.example\nusername=alice\n" + bigLine + "\n", 1, "more than the 65536"),
            .init(name: "a NUL byte", "store", "protocol=https\nhost=h.example\nusername=alice\npassword=p2\u{0}secret\n", 1, "NUL byte"),
            .init(name: "a carriage return", "store", "protocol=https\nhost=h.example\r\nusername=alice\npassword=p3-secret\n", 1, "carriage return"),
            .init(name: "credentials in the url", "store", "url=https://alice:p4-secret@h.example/\nusername=alice\npassword=p4-secret\n", 1, "user name or password in it"),
            .init(name: "a user in the host", "store", "protocol=https\nhost=alice:p5-secret@h.example\nusername=alice\npassword=p5-secret\n", 1, "never a user or a path"),
            .init(name: "a bad port", "get", "protocol=https\nhost=h.example:99999\n", 1, "port is not a number"),
            .init(name: "a line without =", "get", "protocol=https\nhost h.example\n", 1, "has no '='"),
            .init(name: "an unknown action", "frobnicate", "protocol=https\nhost=h.example\n", 2, "is not an action git sends"),
            .init(name: "too much input", "store", String(repeating: "wwwauth[]=Basic realm=x\n", count: 50_000), 1, "over 1048576 bytes"),
        ])
        let result = try runInPrivateKeyring(prologue() + requests.script + """
            echo "items: $(secret-tool search --all protocol https 2>&1 | grep -c '^\\[')"
            """)
        requests.check(result.stdout + result.stderr, program: "git-credential-rizq", quietOutput: true)
        XCTAssertTrue(result.stdout.contains("items: 0"), "nothing was written: \(result.stdout)")
    }
}
