import Foundation
import RizqTestSupport
import XCTest

/// `docker-credential-rizq` through docker-credential-helpers' own client library (the Go
/// package docker's CLI runs helpers with; Debian ships its source), headless with the vault and
/// on a desktop with a private gnome-keyring; and its refusals, run directly. docker's engine
/// cannot run on this machine, so `docker login` itself is not run.
final class DockerCredentialHelperTests: XCTestCase {
    private func prologue(_ client: String) -> String {
        """
        OURS='\(GitHelperPrograms.docker)'
        CLIENT='\(client)'
        client() { "$CLIENT" "$OURS" "$@"; }

        """
    }

    private let headless = """
        unset DBUS_SESSION_BUS_ADDRESS; export XDG_RUNTIME_DIR=$RIZQ_SCRATCH/no-bus; mkdir -m 700 "$XDG_RUNTIME_DIR"
        head -c 24 /dev/urandom | base64 > "$RIZQ_SCRATCH/passphrase"; chmod 600 "$RIZQ_SCRATCH/passphrase"
        export RIZQ_SECRETS_PASSPHRASE_FILE=$RIZQ_SCRATCH/passphrase

        """

    func testDockersClientStoresGetsListsAndErasesLoginsInTheVaultWithNoSessionBus() throws {
        let client = try GitHelperPrograms.dockerClient()
        let result = try runInPrivateKeyring(prologue(client) + headless + """
            SECRET=registry-pass-1 client store https://index.docker.io/v1/ alice
            SECRET=registry-pass-2 client store registry.example.com:5000 '<token>'
            client get https://index.docker.io/v1/
            client get registry.example.com:5000
            client list
            "$RIZQ_CLI" secret list --service docker-credentials | sed 's/^/chain: /'
            grep -rl registry-pass-1 "$HOME" "$RIZQ_SCRATCH/prefs" 2>/dev/null | sed 's/^/plain: /'
            client erase https://index.docker.io/v1/
            client get https://index.docker.io/v1/
            "$OURS" get <<< https://index.docker.io/v1/; echo "direct get: $?"
            """)
        let out = result.stdout + result.stderr
        XCTAssertTrue(result.stdout.contains("store: err=<nil>\nstore: err=<nil>"), out)
        XCTAssertTrue(result.stdout.contains("get: url=https://index.docker.io/v1/ user=alice secret=registry-pass-1"), out)
        XCTAssertTrue(result.stdout.contains("get: url=registry.example.com:5000 user=<token> secret=registry-pass-2"), out)
        XCTAssertTrue(result.stdout.contains("list: https://index.docker.io/v1/=alice\nlist: registry.example.com:5000=<token>\nlist: err=<nil>"), out)
        XCTAssertTrue(result.stdout.contains("chain: https://index.docker.io/v1/\nchain: registry.example.com:5000"), out)
        XCTAssertFalse(result.stdout.contains("plain: "), "the secret is nowhere in clear: \(out)")
        XCTAssertTrue(result.stdout.contains("erase: err=<nil>"), out)
        XCTAssertTrue(result.stdout.contains("get: notfound=true"), "docker's client reads 'not found' from the exact message: \(out)")
        XCTAssertTrue(result.stdout.contains("credentials not found in native keychain\ndirect get: 1"), out)
    }

    func testOnADesktopTheLoginsAreItemsOfTheKeyring() throws {
        let client = try GitHelperPrograms.dockerClient()
        let result = try runInPrivateKeyring(prologue(client) + """
            SECRET=desk-pass-3 client store ghcr.io bob
            client get ghcr.io
            secret-tool search --all service docker-credentials 2>&1 | sed 's/^/search: /'
            """)
        let out = result.stdout + result.stderr
        XCTAssertTrue(result.stdout.contains("get: url=ghcr.io user=bob secret=desk-pass-3"), out)
        XCTAssertTrue(result.stdout.contains("search: attribute.account = ghcr.io"), out)
        XCTAssertTrue(result.stdout.contains("search: label = Docker: ghcr.io"), out)
    }

    func testBadRequestsAreRefusedAndWriteNothing() throws {
        let client = try GitHelperPrograms.dockerClient()
        let big = "{\"ServerURL\":\"big.example\",\"Username\":\"u\",\"Secret\":\"" + String(repeating: "s", count: 10 << 20) + "\"}"
        let requests = try RefusedRequests([
            .init(name: "a 10 MB body", "store", big, 1, "over 1048576 bytes"),
            .init(name: "not JSON", "store", "ServerURL=x", 1, "not docker's"),
            .init(name: "a NUL byte", "store", "{\"ServerURL\":\"n.example\",\"Username\":\"u\",\"Secret\":\"s\u{0}-secret\"}", 1, "NUL byte"),
            .init(name: "no server URL", "store", "{\"Username\":\"u\",\"Secret\":\"p-secret\"}", 1, "no credentials server URL"),
            .init(name: "no user name", "store", "{\"ServerURL\":\"u.example\",\"Secret\":\"p-secret\"}", 1, "no credentials username"),
            .init(name: "a line break in the URL", "store", "{\"ServerURL\":\"a\\nb\",\"Username\":\"u\",\"Secret\":\"p-secret\"}", 1, "control character"),
            .init(name: "an empty get", "get", "  \n", 1, "no credentials server URL"),
            .init(name: "an unknown action", "frobnicate", "x", 2, "is not an action docker sends"),
        ])
        let result = try runInPrivateKeyring(prologue(client) + headless + requests.script + """
            SECRET=x client store '' someone
            echo "left: [$("$RIZQ_CLI" secret list --service docker-credentials 2>&1)]"
            """)
        requests.check(result.stdout + result.stderr, program: "docker-credential-rizq", quietOutput: false)
        XCTAssertTrue(result.stdout.contains("store: err=error storing credentials - err: no credentials server URL"), result.stdout)
        XCTAssertTrue(result.stdout.contains("left: []"), "nothing was written: \(result.stdout)\(result.stderr)")
    }

    /// Logins docker-credential-pass keeps (in `pass`, gpg-encrypted, with a key made for the
    /// test) move to the chain: a dry run lists them and writes nothing, the import stores them
    /// so that this helper answers docker's `get` with the same secrets, and no secret is printed.
    func testImportMovesDockerCredentialPassLoginsAfterADryRun() throws {
        let client = try GitHelperPrograms.dockerClient()
        let pass = try GitHelperPrograms.dockerPassHelper()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pass") else {
            XCTFail("pass is missing: scripts/install-deps test installs it")
            return
        }
        let result = try runInPrivateKeyring(prologue(client) + headless + """
            export GNUPGHOME=$RIZQ_SCRATCH/gnupg PASSWORD_STORE_DIR=$RIZQ_SCRATCH/password-store
            mkdir -m 700 "$GNUPGHOME"
            trap 'gpgconf --kill gpg-agent' EXIT
            gpg --batch --pinentry-mode loopback --passphrase '' --quick-generate-key 'RizqPrefs test <test@rizq.invalid>' default default never 2>/dev/null
            pass init test@rizq.invalid >/dev/null
            export PATH=$(dirname '\(pass)'):$PATH
            SECRET=pass-secret-1 "$CLIENT" docker-credential-pass store https://index.docker.io/v1/ alice
            SECRET=pass-secret-2 "$CLIENT" docker-credential-pass store registry.example.com:5000 ci
            "$OURS" import --dry-run pass 2>&1 | sed 's/^/dry: /'
            echo "after dry run: [$("$RIZQ_CLI" secret list --service docker-credentials 2>&1)]"
            "$OURS" import pass 2>&1 | sed 's/^/import: /'; echo "import status: ${PIPESTATUS[0]}"
            client get https://index.docker.io/v1/
            client get registry.example.com:5000
            "$OURS" import rizq 2>&1 | sed 's/^/self: /'
            "$OURS" import no-such-helper 2>&1 | sed 's/^/missing: /'
            """)
        let out = result.stdout + result.stderr
        XCTAssertTrue(result.stdout.contains("store: err=<nil>\nstore: err=<nil>"), out)
        XCTAssertTrue(result.stdout.contains("dry: would import https://index.docker.io/v1/ (alice)\ndry: would import registry.example.com:5000 (ci)\ndry: would import 2 logins from"), out)
        XCTAssertTrue(result.stdout.contains("after dry run: []"), "a dry run writes nothing: \(out)")
        XCTAssertTrue(result.stdout.contains("import: imported https://index.docker.io/v1/ (alice)\nimport: imported registry.example.com:5000 (ci)\nimport: imported 2 logins from"), out)
        XCTAssertTrue(result.stdout.contains("import status: 0"), out)
        XCTAssertTrue(result.stdout.contains("get: url=https://index.docker.io/v1/ user=alice secret=pass-secret-1"), out)
        XCTAssertTrue(result.stdout.contains("get: url=registry.example.com:5000 user=ci secret=pass-secret-2"), out)
        let printed = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("dry: ") || $0.hasPrefix("import: ") }
        XCTAssertFalse(printed.contains { $0.contains("pass-secret") }, "no secret printed: \(out)")
        XCTAssertTrue(result.stdout.contains("self: docker-credential-rizq: that is this helper"), out)
        XCTAssertTrue(result.stdout.contains("missing: docker-credential-rizq: no docker-credential-no-such-helper on PATH"), out)
    }
}
