#if CLI
import RizqCommandLine
import ArgumentParser

/// `rizq-prefs fleet`: the root of the fleet commands.
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rizq-prefs fleet",
        abstract: "Read and change a fleet suite: settings shared by many hosts through PostgreSQL.",
        discussion: """
            A fleet suite lives in a PostgreSQL database that every host reaches; each host \
            keeps a cache of it (a suite file) and sees changes live. Values have the same types \
            as in local suites (see 'rizq-prefs set --help'); a change is decided by the engine, \
            key by key: the latest change wins (a hybrid logical clock, so an edit made after \
            seeing a value wins whatever the clocks say), and a change that lost is reported.

            ENGINE
              --engine postgres://USER@HOST:PORT/DATABASE[?sslmode=verify-full&sslrootcert=CA.pem], \
            or the whole URL in $RIZQ_FLEET_ENGINE. The password comes from PGPASSWORD (or \
            from the URL in RIZQ_FLEET_ENGINE), never from the command line, where every user \
            could read it. sslmode is libpq's: disable, prefer (default), require, verify-ca, \
            verify-full. The tables are created on first use.

            READING WHILE THE ENGINE IS DOWN
              get, list and export answer from this host's cache, with a warning on stderr that \
            says since when it is stale; set, delete and import fail (exit 6) and write nothing \
            (when a write was sent and its answer never came, the message says that it may still \
            take effect).

            ENVIRONMENT
              RIZQ_FLEET_ENGINE       the engine URL when --engine is not given
              PGPASSWORD, PGUSER, PGSSLMODE, PGSSLROOTCERT   as for libpq
              RIZQ_PREFS_HOME         the root of suite files, where the cache lives \
            (apps/rizq-prefs-fleet/fleet.SUITE.json)
              RIZQ_PREFS_REPLICA_ID   this host's id in change stamps (default: a random id kept \
            in $XDG_STATE_HOME/rizq-prefs/replica-id)

            EXIT STATUS
              0  success
              1  not found: no such key
              2  usage error, a value that does not parse as its type, or a value that looks \
            like a credential (secrets never go to a fleet suite)
              3  the local cache cannot be read or written
              5  stdout could not be written (a full disk): what was printed is incomplete
              6  the engine is unreachable, did not answer in time, or refused (password, TLS, \
            permissions); nothing was written, unless the message says the write may still take \
            effect
              7  superseded: a later change of the key, made elsewhere, won

            EXAMPLES
              export RIZQ_FLEET_ENGINE=postgres://app@db.internal/settings?sslmode=verify-full
              rizq-prefs fleet set --suite checkout feature.newCheckout true --bool
              rizq-prefs fleet get --suite checkout feature.newCheckout
              rizq-prefs fleet watch --suite checkout
              rizq-prefs fleet export --suite checkout > checkout.json
              rizq-prefs fleet import --suite checkout checkout.json
            """,
        subcommands: [
            FleetGetCommand.self, FleetSetCommand.self, FleetDeleteCommand.self, FleetListCommand.self,
            FleetWatchCommand.self, FleetExportCommand.self, FleetImportCommand.self,
        ])

    @OptionGroup var verbosity: Verbosity
}
#endif
