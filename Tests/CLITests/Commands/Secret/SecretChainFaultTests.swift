import Foundation
import XCTest

/// A Secret Service that is there but frozen (SIGSTOP) or locked: the chain's calls end with its
/// typed error within the time-out, reads say "could not look" (never "not found"), and nothing
/// falls through to the vault, which a passphrase source could have made.
final class SecretChainFaultTests: XCTestCase {
    func testAFrozenSecretServiceStopsWritesAndReadsWithItsErrorAndTheVaultIsUntouched() throws {
        try requireSecretService()
        let output = try runInPrivateKeyring(#"""
            export RIZQ_SECRETS_DIR="$RIZQ_SCRATCH/secrets" RIZQ_SECRETS_SYSTEMD_CREDS=0
            printf 'a passphrase the vault could use' > "$RIZQ_SCRATCH/passphrase"
            export RIZQ_SECRETS_PASSPHRASE_FILE="$RIZQ_SCRATCH/passphrase"
            printf 'before' | "$RIZQ_CLI" secret set --service org.rizq.tests.frozen kept; echo "kept $?"
            kill -STOP "$RIZQ_KEYRING_PID"
            printf 'never' | "$RIZQ_CLI" secret set --service org.rizq.tests.frozen --timeout 1 remembered 2>"$RIZQ_SCRATCH/e1"; echo "set-remembered $? $(cat "$RIZQ_SCRATCH/e1")"
            printf 'never' | "$RIZQ_CLI" secret set --service org.rizq.tests.fresh --timeout 1 fresh 2>"$RIZQ_SCRATCH/e2"; echo "set-fresh $? $(cat "$RIZQ_SCRATCH/e2")"
            "$RIZQ_CLI" secret get --service org.rizq.tests.frozen --timeout 1 missing 2>"$RIZQ_SCRATCH/e3"; echo "get-missing $? $(cat "$RIZQ_SCRATCH/e3")"
            kill -CONT "$RIZQ_KEYRING_PID"
            "$RIZQ_CLI" secret get --service org.rizq.tests.frozen kept; echo " after $?"
            ls "$RIZQ_SCRATCH/secrets/org.rizq.tests.fresh" "$RIZQ_SCRATCH/secrets/org.rizq.tests.frozen" 2>&1 | tr '\n' ' '; echo
            """#)
        XCTAssertEqual(stepLine("kept", in: output), "kept 0")
        for step in ["set-remembered", "set-fresh", "get-missing"] {
            let line = stepLine(step, in: output)
            XCTAssertTrue(line.hasPrefix("\(step) 4 "), line)
            XCTAssertTrue(line.contains("did not answer within"), line)
        }
        XCTAssertEqual(stepLine("before", in: output), "before after 0")
        XCTAssertFalse(output.stdout.contains("vault.age"), "no vault was made: \(output.stdout)")
        XCTAssertFalse(output.stdout.contains("never"))
    }

    func testALockedSecretServiceStopsWritesWithTheLockedErrorAndTheVaultIsUntouched() throws {
        try requireSecretService()
        let output = try runInPrivateKeyring(#"""
            export RIZQ_SECRETS_DIR="$RIZQ_SCRATCH/secrets" RIZQ_SECRETS_SYSTEMD_CREDS=0
            printf 'a passphrase the vault could use' > "$RIZQ_SCRATCH/passphrase"
            export RIZQ_SECRETS_PASSPHRASE_FILE="$RIZQ_SCRATCH/passphrase"
            printf 'before' | "$RIZQ_CLI" secret set --service org.rizq.tests.locked kept; echo "kept $?"
            collection=$(gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
                --method org.freedesktop.Secret.Service.ReadAlias default | grep -o "'/[^']*'" | tr -d "'")
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
                --method org.freedesktop.Secret.Service.Lock "['$collection']" >/dev/null; echo "locked $?"
            printf 'never' | "$RIZQ_CLI" secret set --service org.rizq.tests.fresh other 2>"$RIZQ_SCRATCH/e1"; echo "set-fresh $? $(cat "$RIZQ_SCRATCH/e1")"
            "$RIZQ_CLI" secret get --service org.rizq.tests.locked kept 2>"$RIZQ_SCRATCH/e2"; echo "get-locked $? $(cat "$RIZQ_SCRATCH/e2")"
            "$RIZQ_CLI" secret backends --service org.rizq.tests.fresh | grep -c 'problem: the keyring is locked' | sed 's/^/backends /'
            ls "$RIZQ_SCRATCH/secrets/org.rizq.tests.fresh" 2>&1 | tr '\n' ' '; echo
            """#)
        XCTAssertEqual(stepLine("kept", in: output), "kept 0")
        XCTAssertEqual(stepLine("locked", in: output), "locked 0")
        for step in ["set-fresh", "get-locked"] {
            let line = stepLine(step, in: output)
            XCTAssertTrue(line.hasPrefix("\(step) 4 rizq-prefs: the keyring is locked"), line)
        }
        XCTAssertNotEqual(stepLine("backends", in: output), "backends 0", output.stdout)
        XCTAssertFalse(output.stdout.contains("vault.age"), "no vault was made: \(output.stdout)")
    }
}
