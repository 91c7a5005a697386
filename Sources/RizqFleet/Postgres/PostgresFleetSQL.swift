#if Fleet
import PostgresNIO

/// Every statement a ``PostgresFleetEngine`` sends, in one place: the tables, the one-statement
/// write, the catch-up read, the tombstone purge.
///
/// Two tables. `rizq_fleet_suites` has one row per suite: its counter `revision`, the channel
/// number `id`, an `epoch` that names this incarnation of the suite, and `purged_through`.
/// `rizq_fleet_settings` has one row per key: the value (its JSON in the suite file's format;
/// `NULL` is a tombstone), the change stamp in three columns, and the revision of its write.
///
/// Why a counter row and not a sequence: a sequence hands out numbers when a statement runs, so
/// a transaction holding revision 7 can commit after one holding 8, and a host that read "up to
/// 8" would never read 7. Bumping the suite's row takes its row lock until commit: the next
/// writer of the suite waits, so the revisions of one suite commit in order, and "everything
/// above the last revision I read" misses nothing. Writes of one suite are serialised by that
/// lock — settings change seldom; writes of different suites do not wait for each other.
///
/// Text columns compared as stamps use `COLLATE "C"` (byte order), the order of
/// `ChangeStamp`'s origin comparison: a database whose default collation is a language's
/// would otherwise order origins differently from every host.
enum PostgresFleetSQL {
    /// Creates the tables and index if missing, under an advisory lock so that many hosts
    /// starting at once do not trip over each other (`CREATE TABLE IF NOT EXISTS` alone can
    /// fail with a unique violation in the catalog when two run together). One statement: the
    /// lock is held until it commits.
    static let createTables: PostgresQuery = """
        DO $rizq$
        BEGIN
            PERFORM pg_advisory_xact_lock(7234019852266512001);
            CREATE TABLE IF NOT EXISTS rizq_fleet_suites (
                suite text COLLATE "C" PRIMARY KEY,
                id bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
                epoch text NOT NULL DEFAULT gen_random_uuid()::text,
                revision bigint NOT NULL DEFAULT 0,
                purged_through bigint NOT NULL DEFAULT 0,
                created_at timestamptz NOT NULL DEFAULT now()
            );
            CREATE TABLE IF NOT EXISTS rizq_fleet_settings (
                suite text COLLATE "C" NOT NULL REFERENCES rizq_fleet_suites (suite) ON DELETE CASCADE,
                key text COLLATE "C" NOT NULL,
                value text,
                stamp_ms bigint NOT NULL,
                stamp_counter bigint NOT NULL,
                stamp_origin text COLLATE "C" NOT NULL,
                revision bigint NOT NULL,
                changed_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (suite, key)
            );
            CREATE INDEX IF NOT EXISTS rizq_fleet_settings_revision ON rizq_fleet_settings (suite, revision);
        END
        $rizq$
        """

    /// Whether the tables are there (then set-up is one cheap read).
    static let tablesExist: PostgresQuery = "SELECT to_regclass('rizq_fleet_settings') IS NOT NULL AND to_regclass('rizq_fleet_suites') IS NOT NULL"

    /// Registers a suite if new; its head and channel number either way (zero rows when another
    /// host registered it in the same instant: ask again).
    static func registerSuite(_ suite: String) -> PostgresQuery {
        """
        WITH added AS (
            INSERT INTO rizq_fleet_suites (suite) VALUES (\(suite)) ON CONFLICT (suite) DO NOTHING
            RETURNING id, epoch, revision, purged_through
        )
        SELECT id, epoch, revision, purged_through FROM added
        UNION ALL
        SELECT id, epoch, revision, purged_through FROM rizq_fleet_suites WHERE suite = \(suite)
        """
    }

    /// Bytes of key, value and origin up to which a notification carries the write itself
    /// (`NOTIFY` payloads must stay under 8,000 bytes).
    static let notifiedEntryLimit = 7_000

    /// The write, decided in one statement: take the suite's next revision (and its row lock,
    /// held to commit), insert or replace the key's row only if the new stamp is greater than
    /// the stored one (`ON CONFLICT … DO UPDATE … WHERE`, which PostgreSQL evaluates on the
    /// latest committed version of the row), and notify the suite's channel — delivered at
    /// commit, and only when the row was written — with the write itself as JSON
    /// (`{"r": revision, "k": key, "v": value, "m", "c", "o": the stamp}`) when it is small,
    /// else the bare revision. No row back: superseded (the revision taken is then a gap, which
    /// readers skip).
    ///
    /// The wait for a lock is bounded on the server: before the suite's row is locked, the
    /// statement sets `lock_timeout` for its own transaction (`set_config(…, true)`, an
    /// uncorrelated sub-select, which PostgreSQL evaluates once before the scan that locks the
    /// row). A write that waits longer for a row another transaction holds (a person's open
    /// `SELECT … FOR UPDATE`, a stuck writer) is cancelled by the server itself, with SQLSTATE
    /// 55P03, and rolled back: it can never commit after the caller was told it failed, as a
    /// statement the client merely stopped waiting for could (the server finishes it once the
    /// lock goes). `lockTimeoutMilliseconds` is below the call's deadline, so that the server's
    /// answer arrives first.
    static func write(_ suite: String, key: String, value: String?, stamp: (Int64, Int64, String), lockTimeoutMilliseconds: Int64) -> PostgresQuery {
        let lockTimeout = String(max(1, lockTimeoutMilliseconds))
        return """
        WITH bump AS (
            UPDATE rizq_fleet_suites SET revision = revision + 1
            WHERE suite = \(suite) AND (SELECT set_config('lock_timeout', \(lockTimeout), true)) IS NOT NULL
            RETURNING id, revision
        ), upsert AS (
            INSERT INTO rizq_fleet_settings AS s (suite, key, value, stamp_ms, stamp_counter, stamp_origin, revision, changed_at)
            SELECT \(suite), \(key), \(value), \(stamp.0), \(stamp.1), \(stamp.2), bump.revision, now() FROM bump
            ON CONFLICT (suite, key) DO UPDATE
               SET value = excluded.value, stamp_ms = excluded.stamp_ms, stamp_counter = excluded.stamp_counter,
                   stamp_origin = excluded.stamp_origin, revision = excluded.revision, changed_at = excluded.changed_at
             WHERE (excluded.stamp_ms, excluded.stamp_counter, excluded.stamp_origin) > (s.stamp_ms, s.stamp_counter, s.stamp_origin)
            RETURNING revision, key, value, stamp_ms, stamp_counter, stamp_origin
        )
        SELECT upsert.revision, pg_notify('rizq_fleet_' || bump.id,
            CASE WHEN octet_length(upsert.key) + coalesce(octet_length(upsert.value), 0) + octet_length(upsert.stamp_origin) < \(Int64(notifiedEntryLimit))
                 THEN json_build_object('r', upsert.revision, 'k', upsert.key, 'v', upsert.value,
                                        'm', upsert.stamp_ms, 'c', upsert.stamp_counter, 'o', upsert.stamp_origin)::text
                 ELSE upsert.revision::text END)::text AS notified
        FROM upsert CROSS JOIN bump
        """
    }

    /// The suite's channel number as the engine holds it now (no row: the suite is not
    /// registered). The listener's heartbeat: a suite registered again — its tables dropped and
    /// made again, its row removed — has a new number, and a listener still on the old channel
    /// would hear nothing.
    static func channel(_ suite: String) -> PostgresQuery {
        "SELECT id FROM rizq_fleet_suites WHERE suite = \(suite)"
    }

    /// The key's row after a write that came back empty: who holds it.
    static func currentStamp(_ suite: String, key: String) -> PostgresQuery {
        "SELECT stamp_ms, stamp_counter, stamp_origin, revision FROM rizq_fleet_settings WHERE suite = \(suite) AND key = \(key)"
    }

    /// The suite's head and the rows above `revision`, lowest first, in one snapshot (one row
    /// with empty entry columns when nothing is above it).
    static func changes(_ suite: String, after revision: Int64, limit: Int) -> PostgresQuery {
        """
        SELECT s.epoch, s.revision, s.purged_through,
               e.key, e.value, e.stamp_ms, e.stamp_counter, e.stamp_origin, e.revision
        FROM rizq_fleet_suites s
        LEFT JOIN LATERAL (
            SELECT key, value, stamp_ms, stamp_counter, stamp_origin, revision FROM rizq_fleet_settings
            WHERE suite = s.suite AND revision > \(revision)
            ORDER BY revision LIMIT \(Int64(limit))
        ) e ON true
        WHERE s.suite = \(suite)
        ORDER BY e.revision
        """
    }

    /// Deletes the suite's tombstones older than `seconds` (by the server's clock) and raises
    /// `purged_through` to the highest revision deleted, in one statement.
    static func purgeTombstones(_ suite: String, olderThanSeconds seconds: Double) -> PostgresQuery {
        """
        WITH gone AS (
            DELETE FROM rizq_fleet_settings
            WHERE suite = \(suite) AND value IS NULL AND changed_at < now() - make_interval(secs => \(seconds))
            RETURNING revision
        ), raised AS (
            UPDATE rizq_fleet_suites SET purged_through = GREATEST(purged_through, (SELECT max(revision) FROM gone))
            WHERE suite = \(suite) AND EXISTS (SELECT 1 FROM gone)
            RETURNING suite
        )
        SELECT count(*) FROM gone
        """
    }
}
#endif
