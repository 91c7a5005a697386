import Foundation
import XCTest
@testable import RizqSecrets

/// A repeated read takes one round trip: the shim remembers the D-Bus path of the item a full
/// lookup found (never its secret) and asks for the secret at that path. These check that a
/// read still returns exactly what a full lookup would when another process changes, moves,
/// deletes, recreates or locks the item in between, or the daemon restarts.
///
/// Locking and restarting run in a throw-away keyring session (the shared test keyring could not
/// be unlocked again); the rest runs on the shared one, with `secret-tool` and `gdbus` as the
/// other process.
final class SecretPathCacheTests: XCTestCase {
    override func setUpWithError() throws {
        try requireSecretService()
    }

    func testARepeatedReadSeesThatAnotherProcessDeletedTheItem() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service)
        try store.setSecret("soon-cleared", forAccount: "token")
        XCTAssertEqual(try store.secret(forAccount: "token"), "soon-cleared")
        XCTAssertEqual(try store.secret(forAccount: "token"), "soon-cleared")

        try checked("/usr/bin/secret-tool", ["clear", "service", service, "account", "token"])
        XCTAssertNil(try store.secret(forAccount: "token"))
        XCTAssertNil(try store.secret(forAccount: "token"))
    }

    func testARepeatedReadSeesTheItemAnotherProcessDeletedAndRecreated() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service)
        try store.setSecret("first-item", forAccount: "token")
        XCTAssertEqual(try store.secret(forAccount: "token"), "first-item")
        XCTAssertEqual(try store.secret(forAccount: "token"), "first-item")
        let before = try itemPaths(service: service, account: "token")

        try checked("/usr/bin/secret-tool", ["clear", "service", service, "account", "token"])
        try checked("/usr/bin/secret-tool", ["store", "--label=recreated", "service", service, "account", "token"], input: "second-item")
        XCTAssertNotEqual(try itemPaths(service: service, account: "token"), before, "a new item, at another path")
        XCTAssertEqual(try store.secret(forAccount: "token"), "second-item")
        XCTAssertEqual(try store.secret(forAccount: "token"), "second-item")
    }

    func testARepeatedReadSeesASecretAnotherProcessChangedInPlace() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service)
        // secret-tool replaces the secret of its own items in place (same item, same path).
        try checked("/usr/bin/secret-tool", ["store", "--label=in place", "service", service, "account", "token"], input: "version-1")
        XCTAssertEqual(try store.secret(forAccount: "token"), "version-1")
        XCTAssertEqual(try store.secret(forAccount: "token"), "version-1")
        let before = try itemPaths(service: service, account: "token")

        try checked("/usr/bin/secret-tool", ["store", "--label=in place", "service", service, "account", "token"], input: "version-2")
        XCTAssertEqual(try itemPaths(service: service, account: "token"), before, "the same item, changed in place")
        XCTAssertEqual(try store.secret(forAccount: "token"), "version-2")
        XCTAssertEqual(try store.secret(forAccount: "token"), "version-2")
    }

    /// The case a remembered path alone gets wrong: the item is still there and still has its
    /// secret, but it no longer belongs to the account.
    func testARepeatedReadSeesThatAnotherProcessMovedTheItemToAnotherAccount() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service)
        try store.setSecret("moving-secret", forAccount: "before")
        XCTAssertEqual(try store.secret(forAccount: "before"), "moving-secret")
        XCTAssertEqual(try store.secret(forAccount: "before"), "moving-secret")
        let paths = try itemPaths(service: service, account: "before")
        XCTAssertEqual(paths.count, 1)

        try checked("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", paths[0],
            "--method", "org.freedesktop.DBus.Properties.Set", "org.freedesktop.Secret.Item", "Attributes",
            "<{'xdg:schema': '\(SecretServiceStore.schemaName)', 'service': '\(service)', 'account': 'after'}>",
        ])
        XCTAssertNil(try store.secret(forAccount: "before"))
        XCTAssertEqual(try store.secret(forAccount: "after"), "moving-secret")
        XCTAssertEqual(try store.accounts(), ["after"])
    }

    func testWhenAnotherProcessAddsASecondItemARepeatedReadAgreesWithAFreshProcess() throws {
        let service = uniqueService()
        let store = SecretServiceStore(service: service)
        try store.setSecret("ours", forAccount: "token")
        XCTAssertEqual(try store.secret(forAccount: "token"), "ours")
        XCTAssertEqual(try store.secret(forAccount: "token"), "ours")

        // An extra attribute keeps secret-tool from replacing our item: now two items match.
        try checked("/usr/bin/secret-tool", ["store", "--label=second", "service", service, "account", "token", "origin", "elsewhere"], input: "theirs")
        XCTAssertEqual(try itemPaths(service: service, account: "token").count, 2)
        let fresh = try checked(productsFolder + "/rizq-secrets-test-child", [service, "token"])
        let read = try store.secret(forAccount: "token")
        XCTAssertEqual(fresh.split(separator: "\n").first.map(String.init), "value \(read ?? "nil")")
        XCTAssertEqual(try store.secret(forAccount: "token"), read)
    }

    func testOurOwnStoreAndDeleteAreSeenByTheNextRead() throws {
        let store = SecretServiceStore(service: uniqueService())
        try store.setSecret("one", forAccount: "token")
        XCTAssertEqual(try store.secret(forAccount: "token"), "one")
        try store.setSecret("two", forAccount: "token")
        XCTAssertEqual(try store.secret(forAccount: "token"), "two")
        XCTAssertEqual(try store.secret(forAccount: "token"), "two")
        XCTAssertTrue(try store.deleteSecret(forAccount: "token"))
        XCTAssertNil(try store.secret(forAccount: "token"))
        try store.setSecret("three", forAccount: "token")
        XCTAssertEqual(try store.secret(forAccount: "token"), "three")
        XCTAssertEqual(try store.secret(forAccount: "token"), "three")
    }

    func testAKeyringLockedByAnotherProcessAfterARepeatedReadGivesTheLockedError() throws {
        // Another process locks the default keyring, as a screen lock does (secret-tool lock
        // 0.20.5 never returns here).
        let script = #"""
            cat > "$TMPDIR/lock.sh" <<'EOF'
            call() { gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets "$@"; }
            collection=$(call --method org.freedesktop.Secret.Service.ReadAlias default | grep -o "/[^']*")
            call --method org.freedesktop.Secret.Service.Lock "[objectpath '$collection']" >/dev/null
            EOF
            export RIZQ_LOCK_COMMAND="bash $TMPDIR/lock.sh"
            exec "$RIZQ_CHILD" cache-locked org.rizq.tests.cachelocked
            """#
        let output = try runInPrivateKeyring(script)
        XCTAssertEqual(stepLine("store", in: output), "store ok ()")
        XCTAssertEqual(stepLine("read", in: output), "read ok before-lock")
        XCTAssertEqual(stepLine("read-again", in: output), "read-again ok before-lock")
        XCTAssertEqual(stepLine("locked-by-other", in: output), "locked-by-other 0")
        for step in ["read-locked", "read-locked-again"] {
            let line = stepLine(step, in: output)
            XCTAssertTrue(line.hasPrefix("\(step) error the keyring is locked"), line)
        }
        XCTAssertEqual(stepLine("read-prompting", in: output), "read-prompting error \(SecretError.promptDismissed)")
    }

    /// gnome-keyring gives a deleted item's number to the next new item once it restarts: the
    /// path this process remembered for "cleared" then names another service's item.
    func testAfterADaemonRestartARememberedPathIsNotTrusted() throws {
        let service = "org.rizq.tests.cacherestart"
        let script = #"""
            cat > "$TMPDIR/restart.sh" <<'EOF'
            first_path() {
                gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
                    --method org.freedesktop.Secret.Service.SearchItems "{'service': '$1', 'account': '$2'}" \
                    | grep -o "'/[^']*'" | head -n 1
            }
            old=$(first_path \#(service) cleared)
            secret-tool clear service \#(service) account cleared
            kill "$RIZQ_KEYRING_PID"
            while kill -0 "$RIZQ_KEYRING_PID" 2>/dev/null; do sleep 0.05; done
            eval "$RIZQ_START_KEYRING"
            printf other-service-secret | secret-tool store --label=other service \#(service).other account other
            new=$(first_path \#(service).other other)
            if [ -n "$old" ] && [ "$old" = "$new" ]; then echo "reused yes"; else echo "reused no: $old, $new"; fi
            EOF
            export RIZQ_RESTART_COMMAND="bash $TMPDIR/restart.sh"
            exec "$RIZQ_CHILD" cache-restart \#(service)
            """#
        let output = try runInPrivateKeyring(script)
        for account in ["kept", "cleared"] {
            XCTAssertEqual(stepLine("store-\(account)", in: output), "store-\(account) ok ()")
            XCTAssertEqual(stepLine("read-again-\(account)", in: output), "read-again-\(account) ok \(account)-secret")
        }
        XCTAssertEqual(stepLine("reused", in: output), "reused yes", "the other item got the cleared item's path")
        XCTAssertEqual(stepLine("restarted", in: output), "restarted 0")
        XCTAssertEqual(stepLine("read-after-restart-kept", in: output), "read-after-restart-kept ok kept-secret")
        XCTAssertEqual(stepLine("read-again-after-restart-kept", in: output), "read-again-after-restart-kept ok kept-secret")
        XCTAssertEqual(stepLine("read-after-restart-cleared", in: output), "read-after-restart-cleared ok nil")
        XCTAssertEqual(stepLine("read-again-after-restart-cleared", in: output), "read-again-after-restart-cleared ok nil")
    }
}
